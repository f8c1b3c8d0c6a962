// The event's board on the TV: it reads the event from the API whenever the event's stream
// (data-board-stream) says it changed, at its own writes and at every hand at its tables, or,
// without a stream that speaks, every second. The event's ETag moves with the event's own writes
// alone, so it compares the answer itself; when the event changed it fetches the page again and
// swaps its regions (data-live-region).
// A table's new call for the director is said in the news and, once the screen's Sound button
// is on (a browser plays nothing before a tap), rung as a chime the Web Audio API makes.
// The standings show a page at a time, in as many columns as fit the screen, turning every
// 10 seconds ("Page 2 of 7"); a swap keeps the page shown.
"use strict";
(() => {
  const root = document.querySelector("[data-board]");
  if (!root) return;
  const EVERY_MS = 1000;
  // As live.js: the server speaks every 20 s; a refused stream is asked for again later.
  const SILENT_MS = 50000;
  const REOPEN_MS = 10000;
  const PAGE_MS = 10000;
  // The narrowest a column of standings may be, in the standings' own font size.
  const COLUMN_EM = 17;
  const news = root.querySelector(".board-news");
  const toggle = root.querySelector(".sound-toggle");
  let seen = null; // the event as the API answered it last
  let calls = null; // the calls open then, by table session and time
  let timer = null;
  let source = null;
  let streaming = false;
  let silence = null;
  let polling = false;
  let again = false;
  let missed = false;

  let audio = null; // the AudioContext, made by the tap that turns the sound on
  let chimes = 0;

  function chime() {
    if (!audio || audio.state !== "running") return;
    const start = audio.currentTime;
    for (const [after, pitch] of [[0, 880], [0.22, 660], [0.44, 880]]) {
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, start + after);
      level.gain.exponentialRampToValueAtTime(0.35, start + after + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, start + after + 0.2);
      tone.connect(level).connect(audio.destination);
      tone.start(start + after);
      tone.stop(start + after + 0.21);
    }
    chimes += 1;
    toggle.dataset.chimes = chimes;
  }

  if (toggle && (window.AudioContext || window.webkitAudioContext)) {
    toggle.hidden = false;
    toggle.addEventListener("click", async () => {
      const on = toggle.getAttribute("aria-pressed") !== "true";
      if (on) {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        await audio.resume();
      } else if (audio) await audio.suspend();
      toggle.setAttribute("aria-pressed", String(on));
      toggle.textContent = `Sound for calls: ${on ? "on" : "off"}`;
      if (on) chime();
    });
  }

  // The calls that were not open at the last answer: said, and rung; whether there were any.
  function called(text) {
    let open;
    try {
      open = JSON.parse(text).calls || [];
    } catch {
      return false;
    }
    const keys = new Set(open.map((call) => `${call.session} ${call.at}`));
    const fresh = calls === null ? [] : open.filter((call) => !calls.has(`${call.session} ${call.at}`));
    calls = keys;
    if (!fresh.length) return false;
    const tables = fresh.map((call) => `Table ${call.table}`).join(" and ");
    const said = document.createElement("strong");
    said.textContent = `${tables} ${fresh.length > 1 ? "call" : "calls"} the director.`;
    if (news) news.replaceChildren(said);
    chime();
    return true;
  }

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
      const fetched = await fetch(location.href, { cache: "no-store" });
      if (!fetched.ok) return;
      missed = false;
      const fresh = new DOMParser().parseFromString(await fetched.text(), "text/html");
      // A new call is the news; else a <time data-clock>, which clock.js writes as the phone's
      // clock does, as the swap ends.
      if (!called(text) && seen !== null && news) {
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
  let resized = null;
  addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(paginate, 100);
  });
  paginate();
  turnPages();
  poll();
  listen();
})();
