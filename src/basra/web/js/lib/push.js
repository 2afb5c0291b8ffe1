// Notifications when no page is open (Web Push, opt-in): the browser's subscription with
// the server's VAPID key (GET /api/push/key), kept by the server (POST /api/push) and
// dropped (POST /api/push/remove). Nothing else depends on it: a player who declines, or a
// browser without it, gets everything on the open page.

import { request } from "./api.js";

function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function registration() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);
}

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** "unsupported", "denied", "on" (this browser is subscribed) or "off" (a service worker
 * that never becomes ready within 5 s: "unsupported"). */
export async function pushState() {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const late = new Promise((resolve) => { setTimeout(() => resolve("unsupported"), 5000); });
  const asked = (async () => {
    try {
      const reg = await registration();
      return (await reg.pushManager.getSubscription()) ? "on" : "off";
    } catch { return "unsupported"; }
  })();
  return Promise.race([asked, late]);
}

/** Turn pushes on (asking the browser's permission) or off for this browser; the state
 * after. */
export async function turnPush(on) {
  if (!supported()) return "unsupported";
  const reg = await registration();
  const current = await reg.pushManager.getSubscription();
  if (!on) {
    if (current) {
      await request("POST", "/api/push/remove", { endpoint: current.endpoint }).catch(() => null);
      await current.unsubscribe();
    }
    return "off";
  }
  if ((await Notification.requestPermission()) !== "granted") return "denied";
  const { key } = await request("GET", "/api/push/key");
  const made = current || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  const json = made.toJSON();
  await request("POST", "/api/push", { endpoint: json.endpoint, keys: json.keys });
  return "on";
}
