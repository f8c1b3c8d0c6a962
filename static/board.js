// The event's board on the TV: every second it reads the event from the API (its ETag moves
// with the event's own writes, not with its tables' hands, so it compares the answer itself);
// when the event changed it fetches the page again and swaps its regions (data-live-region).
"use strict";
(() => {
  const root = document.querySelector("[data-board]");
  if (!root) return;
  const EVERY_MS = 1000;
  const news = root.querySelector(".board-news");
  let seen = null; // the event as the API answered it last
  let timer = null;

  function swap(fresh) {
    for (const region of document.querySelectorAll("[data-live-region][id]")) {
      const next = fresh.getElementById(region.id);
      if (next) region.replaceWith(document.importNode(next, true));
    }
    document.dispatchEvent(new CustomEvent("live:updated"));
  }

  async function poll() {
    const began = performance.now();
    try {
      const answer = await fetch(root.dataset.board, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!answer.ok) return;
      const text = await answer.text();
      if (text === seen) return;
      const page = await fetch(location.href, { cache: "no-store" });
      if (!page.ok) return;
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
      schedule(EVERY_MS - (performance.now() - began));
    }
  }

  function schedule(wait = EVERY_MS) {
    clearTimeout(timer);
    timer = document.hidden ? null : setTimeout(poll, Math.max(0, wait));
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) clearTimeout(timer);
    else poll();
  });
  poll();
})();
