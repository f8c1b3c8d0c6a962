// The event's board on the TV: every second it reads the event from the API (its ETag moves
// with the event's own writes, not with its tables' hands, so it compares the answer itself);
// when the event changed it fetches the page again and swaps its regions (data-live-region).
// The standings show a page at a time, in as many columns as fit the screen, turning every
// 10 seconds ("Page 2 of 7"); a swap keeps the page shown.
"use strict";
(() => {
  const root = document.querySelector("[data-board]");
  if (!root) return;
  const EVERY_MS = 1000;
  const PAGE_MS = 10000;
  // The narrowest a column of standings may be, in the standings' own font size.
  const COLUMN_EM = 17;
  const news = root.querySelector(".board-news");
  let seen = null; // the event as the API answered it last
  let timer = null;
  let page = 0;
  let pageTimer = null;

  // The standings' rows as the server sent them, split into the columns of the page shown.
  function paginate() {
    const holder = document.querySelector("[data-pages]");
    const label = document.querySelector("[data-page-of]");
    if (!holder) return;
    if (!holder.rows) {
      const table = holder.querySelector("table");
      if (!table) return;
      holder.rows = [...table.tBodies[0].rows];
      holder.head = table.tHead;
      holder.table = table.cloneNode(false);
    }
    const rows = holder.rows;
    // Measured with every row in one table, as the page came.
    holder.replaceChildren(columnOf(holder, rows));
    const scroller = getComputedStyle(holder).overflow === "hidden";
    if (!scroller || !rows.length) {
      if (label) label.textContent = "";
      return;
    }
    const rowHeight = rows[0].getBoundingClientRect().height || 1;
    const headHeight = holder.head.getBoundingClientRect().height;
    const perColumn = Math.max(1, Math.floor((holder.clientHeight - headHeight) / rowHeight));
    const em = parseFloat(getComputedStyle(holder.firstElementChild).fontSize) || 16;
    const gap = parseFloat(getComputedStyle(holder).columnGap) || 0;
    const columns = Math.max(1, Math.floor((holder.clientWidth + gap) / (COLUMN_EM * em + gap)));
    const size = perColumn * columns;
    const pages = Math.max(1, Math.ceil(rows.length / size));
    page %= pages;
    const shown = rows.slice(page * size, (page + 1) * size);
    const parts = [];
    for (let at = 0; at < shown.length; at += perColumn) {
      parts.push(columnOf(holder, shown.slice(at, at + perColumn)));
    }
    holder.replaceChildren(...parts);
    if (label) label.textContent = pages > 1 ? `Page ${page + 1} of ${pages}` : "";
  }

  function columnOf(holder, rows) {
    const table = holder.table.cloneNode(false);
    const body = document.createElement("tbody");
    body.append(...rows);
    table.append(holder.head.cloneNode(true), body);
    return table;
  }

  function turnPages() {
    clearInterval(pageTimer);
    pageTimer = setInterval(() => {
      page += 1;
      paginate();
    }, PAGE_MS);
  }

  function swap(fresh) {
    for (const region of document.querySelectorAll("[data-live-region][id]")) {
      const next = fresh.getElementById(region.id);
      if (next) region.replaceWith(document.importNode(next, true));
    }
    paginate();
    document.dispatchEvent(new CustomEvent("live:updated"));
  }

  async function poll() {
    const began = performance.now();
    try {
      const answer = await fetch(root.dataset.board, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!answer.ok) return;
      const text = await answer.text();
      if (text === seen) return;
      const fetched = await fetch(location.href, { cache: "no-store" });
      if (!fetched.ok) return;
      const fresh = new DOMParser().parseFromString(await fetched.text(), "text/html");
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
  let resized = null;
  addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(paginate, 100);
  });
  paginate();
  turnPages();
  poll();
})();
