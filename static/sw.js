// Pages and the API come from the network whenever it answers, never stale online; each GET
// answered is kept, and served from here when there is no network.
"use strict";
const CACHE = "scorekeeper-v3";
// The scripts of the pages a player opens at the table, a page's in one file.
const SHELL = ["/scripts/record.js", "/scripts/edit.js", "/scripts/sheet.js", "/scripts/table.js"];

self.addEventListener("install", (event) => {
  // The page installing the worker has just loaded its own: kept from the browser's cache, no
  // bytes. The others are kept as a page first loads them.
  const keep = async (cache, url) => {
    const answer = await fetch(new Request(url, { cache: "only-if-cached", mode: "same-origin" })).catch(() => null);
    if (answer && answer.ok) await cache.put(url, answer);
  };
  event.waitUntil(caches.open(CACHE)
    .then((cache) => Promise.all(SHELL.map((url) => keep(cache, url))))
    .then(() => self.skipWaiting()));
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
