// Passkeys (WebAuthn) in the browser: the server's options (JSON, binary fields in
// base64url, as py_webauthn writes them) become the ArrayBuffers navigator.credentials
// wants, and the credential it makes or uses goes back as JSON the same way. Adding one to
// the account signed in, signing in with one (discoverable: no username asked), the
// browser's refusals in words, and a device's name from its user agent.

import { t } from "./i18n.js";
import { adopt, request } from "./api.js";
import { errorText } from "./ui.js";

/** Whether this browser can make and use passkeys here (a secure page with WebAuthn). */
export function passkeysSupported() {
  return !!(window.isSecureContext && window.PublicKeyCredential && navigator.credentials
    && typeof navigator.credentials.create === "function");
}

export function toBuffer(text) {
  const base64 = String(text).replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The options as sent: an object, or the JSON text of one (options_to_json's). */
function optionsOf(raw) {
  const options = typeof raw === "string" ? JSON.parse(raw) : { ...raw };
  return options.publicKey ? { ...options.publicKey } : options;
}

const credentialList = (list) => (list || []).map((c) => ({ ...c, id: toBuffer(c.id) }));

export function creationOptions(raw) {
  const options = optionsOf(raw);
  return {
    ...options,
    challenge: toBuffer(options.challenge),
    user: { ...options.user, id: toBuffer(options.user.id) },
    excludeCredentials: credentialList(options.excludeCredentials),
  };
}

export function requestOptions(raw) {
  const options = optionsOf(raw);
  return { ...options, challenge: toBuffer(options.challenge), allowCredentials: credentialList(options.allowCredentials) };
}

/** A credential as JSON: the registration or the assertion response py_webauthn reads. */
export function credentialJson(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    if (typeof r.getTransports === "function") response.transports = r.getTransports();
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
  }
  const out = {
    id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response,
    clientExtensionResults: typeof credential.getClientExtensionResults === "function" ? credential.getClientExtensionResults() : {},
  };
  if (credential.authenticatorAttachment) out.authenticatorAttachment = credential.authenticatorAttachment;
  return out;
}

/** A passkey for the account signed in, called `name`: {id, name, created_at}. */
export async function addPasskey(name) {
  const { challenge, options } = await request("POST", "/api/passkeys/options");
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return request("POST", "/api/passkeys", { challenge, credential: credentialJson(credential), name });
}

/** Sign in with a passkey of this device (the browser asks which): the player. */
export async function signInWithPasskey() {
  const { challenge, options } = await request("POST", "/api/passkeys/sign-in/options");
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return adopt(await request("POST", "/api/passkeys/sign-in", { challenge, credential: credentialJson(credential) }));
}

/** What went wrong, in words: the browser's refusals (cancelled, or already on this
 * device), else the server's. */
export function passkeyError(err) {
  const name = err && err.name;
  if (name === "NotAllowedError" || name === "AbortError") return t("account.passkey.cancelled");
  if (name === "InvalidStateError") return t("account.passkey.exists");
  if (name === "SecurityError" || name === "NotSupportedError") return t("account.passkey.unsupported");
  return errorText(err);
}

/** "Chrome on Android", from a user agent; "" when it says nothing known. */
export function deviceName(ua = navigator.userAgent) {
  const text = String(ua || "");
  const browser = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["SamsungBrowser/", "Samsung Internet"],
    ["Chrome/", "Chrome"], ["Chromium/", "Chromium"], ["Safari/", "Safari"]].find(([mark]) => text.includes(mark));
  const system = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"],
    ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]].find(([mark]) => text.includes(mark));
  if (browser && system) return t("account.device", { browser: browser[1], system: system[1] });
  return browser ? browser[1] : system ? system[1] : "";
}
