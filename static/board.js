// The event's board on the TV: it reads the event from the API whenever the event's stream
// (data-board-stream) says it changed, at its own writes and at every hand at its tables, or,
// without a stream that speaks, every second. The event's ETag moves with the event's own writes
// alone, so it compares the answer itself; when the event changed it fetches the page again and
// swaps its regions (data-live-region).
"use strict";
(() => {
  const root = document.querySelector("[data-board]");
  if (!root) return;
  const EVERY_MS = 1000;
  // As live.js: the server speaks every 20 s; a refused stream is asked for again later.
  const SILENT_MS = 50000;
  const REOPEN_MS = 10000;
  const news = root.querySelector(".board-news");
  let seen = null; // the event as the API answered it last
  let timer = null;
  let source = null;
  let streaming = false;
  let silence = null;
  let polling = false;
  let again = false;
  let missed = false;

  function swap(fresh) {
    for (const region of document.querySelectorAll("[data-live-region][id]")) {
      const next = fresh.getElementById(region.id);
      if (next) region.replaceWith(document.importNode(next, true));
    }
    document.dispatchEvent(new CustomEvent("live:updated"));
  }

  async function poll() {
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    const began = performance.now();
    // As live.js: a look that fails is asked again a second later, stream or not.
    missed = true;
    try {
      const answer = await fetch(root.dataset.board, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!answer.ok) return;
      const text = await answer.text();
      if (text === seen) {
        missed = false;
        return;
      }
      const page = await fetch(location.href, { cache: "no-store" });
      if (!page.ok) return;
      missed = false;
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      // A <time data-clock>: clock.js writes it as the phone's clock does, as the swap ends.
      if (seen !== null && news) {
        const now = document.createElement("time");
        now.dateTime = new Date().toISOString();
        now.dataset.clock = "time";
        news.replaceChildren("Updated at ", now, ".");
      }
      swap(fresh);
      seen = text;
    } catch {
      // Offline or the server is away: the board stays as it is until a later tick.
    } finally {
      polling = false;
      schedule(EVERY_MS - (performance.now() - began));
      if (again) {
        again = false;
        poll();
      }
    }
  }

  function schedule(wait = EVERY_MS) {
    clearTimeout(timer);
    timer = document.hidden || (streaming && !missed) ? null : setTimeout(poll, Math.max(0, wait));
  }

  function listen() {
    const url = root.dataset.boardStream;
    if (source || !url || !("EventSource" in window) || document.hidden) return;
    const opened = new EventSource(url);
    source = opened;
    opened.onmessage = () => {
      if (!streaming) {
        streaming = true;
        if (!missed) clearTimeout(timer);
        root.dataset.liveBy = "stream";
      }
      clearTimeout(silence);
      silence = setTimeout(() => {
        stopListening();
        listen();
      }, SILENT_MS);
      poll();
    };
    opened.onerror = () => {
      fallBack();
      if (opened.readyState === EventSource.CLOSED && source === opened) {
        source = null;
        setTimeout(listen, REOPEN_MS);
      }
    };
  }

  function fallBack() {
    clearTimeout(silence);
    if (!streaming) return;
    streaming = false;
    root.dataset.liveBy = "polls";
    if (!polling) schedule();
  }

  function stopListening() {
    if (source) source.close();
    source = null;
    fallBack();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      clearTimeout(timer);
      stopListening();
    } else {
      poll();
      listen();
    }
  });
  window.addEventListener("online", listen);
  root.dataset.liveBy = "polls";
  poll();
  listen();
})();
