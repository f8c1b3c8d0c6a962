// Pages and the API come from the network whenever it answers, never stale online; each GET
// answered is kept, and served from here when there is no network.
"use strict";
const CACHE = "scorekeeper-v2";
const SHELL = [
  "/static/register.js",
  "/static/hand_form.js",
  "/static/outbox.js",
  "/static/vendor/idb-keyval/idb-keyval.js",
];

self.addEventListener("install", (event) => {
  // The page installing the worker has just loaded these: from the browser's cache, no bytes.
  const shell = SHELL.map((url) => new Request(url, { cache: "force-cache" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

const fromNetwork = async (request) => {
  const answer = await fetch(request);
  if (answer.ok && answer.type === "basic") {
    const copy = answer.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return answer;
};

const fromCache = async (request) => {
  const cache = await caches.open(CACHE);
  return (await cache.match(request)) || (await cache.match(request, { ignoreSearch: true }));
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  // A poll asking whether anything changed wants the network's answer or none.
  if (request.cache === "no-store" || request.headers.has("If-None-Match")) return;
  event.respondWith(fromNetwork(request).catch(async (failure) => (await fromCache(request)) || Promise.reject(failure)));
});
