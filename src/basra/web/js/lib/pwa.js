// Installable and opening offline: registers the service worker (/sw.js, made by the
// server with this release's shell) once the page has loaded, so that it never competes
// with the first load. A browser without service workers simply goes without.

if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
