// Installs the service worker, where the browser has one (https, or this computer itself).
"use strict";
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
