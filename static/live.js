// Live updates: the page names its session's API URL (data-live), its stream (data-live-stream)
// and the regions that show it (data-live-region, each with an id). The stream names the
// session's version as soon as it changes; when it is newer than the page's, the page asks the
// API, sending the version it shows, fetches itself again and swaps those regions in place.
// Without a stream that speaks (none in the browser, a proxy that holds it back, the server
// away) the page asks every 2 s instead, until the stream speaks again.
"use strict";

(() => {
  const root = document.querySelector("[data-live]");
  if (!root) return;

  const EVERY_MS = 2000;
  // The server speaks every 20 s: a stream silent for longer is gone (a phone that changed
  // networks, a server that went away without a word).
  const SILENT_MS = 50000;
  // A stream refused (the server answered something else) is asked for again after this.
  const REOPEN_MS = 10000;
  const apiUrl = root.dataset.live;
  const streamUrl = root.dataset.liveStream;
  let source = null;
  let streaming = false; // the stream has spoken since it opened: no need to ask every 2 s
  let silence = null;
  let missed = false; // the last look failed
  let etag = `"${root.dataset.liveVersion}"`;
  let hands = Number(root.dataset.liveHands);
  let timer = null;
  let polling = false;
  let again = false;
  let fromThisPhone = false;
  let waiting = null; // a fetched page whose regions could not all be swapped yet
  // This phone's own writes still on their way, each settled once the phone shows its answer
  // (live:page); and whether one went unanswered, so what a poll finds next may be its own.
  const writes = new Set();
  let unanswered = false;

  const news = document.createElement("p");
  news.className = "live-news";
  news.setAttribute("aria-live", "polite");
  const heading = root.querySelector("h1");
  if (heading) heading.after(news);
  else root.prepend(news);

  // The page as it is now, without the status a redirect asked it to show once.
  function pageUrl() {
    const url = new URL(location.href);
    url.searchParams.delete("saved");
    url.searchParams.delete("undone");
    url.hash = "";
    return url.href;
  }

  // Someone is using this region: a control in it has focus, or a form in it was changed.
  function busy(region) {
    const focused = document.activeElement;
    if (focused && focused !== document.body && region.contains(focused)) return true;
    return Array.from(region.querySelectorAll("input, select, textarea")).some(changed);
  }

  function changed(field) {
    if (field.tagName === "SELECT") {
      return Array.from(field.options).some((option) => option.selected !== option.defaultSelected);
    }
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    return field.type !== "hidden" && field.value !== field.defaultValue;
  }

  // Scrolled elements keep their place when their region is swapped: matched by tag and class.
  function scrolled(region) {
    return Array.from(region.querySelectorAll("*"))
      .filter((el) => el.scrollLeft || el.scrollTop)
      .map((el) => ({ selector: el.tagName + Array.from(el.classList, (c) => `.${CSS.escape(c)}`).join(""),
        left: el.scrollLeft, top: el.scrollTop }));
  }

  // Swap every region the fetched page has a newer copy of, but those in use; how many were
  // swapped and how many wait.
  function swap(fresh) {
    let swapped = 0;
    let waits = 0;
    for (const region of document.querySelectorAll("[data-live-region][id]")) {
      const next = fresh.getElementById(region.id);
      if (!next) continue;
      if (busy(region)) {
        waits += 1;
        continue;
      }
      const places = scrolled(region);
      const copy = document.importNode(next, true);
      region.replaceWith(copy);
      for (const place of places) {
        const el = copy.querySelector(place.selector);
        if (el) {
          el.scrollLeft = place.left;
          el.scrollTop = place.top;
        }
      }
      next.remove(); // swapped once: a later try swaps only what waited
      swapped += 1;
    }
    return { swapped, waits };
  }

  // The first part of the page still in sight, to keep where it is on screen while the parts
  // above it change (a region is found again by its id once swapped).
  function inSight() {
    for (const part of root.children) {
      const box = part.getBoundingClientRect();
      if (box.bottom > 0) return { part, id: part.id, top: box.top };
    }
    return null;
  }

  function keep(sight) {
    if (!sight) return;
    const part = sight.id ? document.getElementById(sight.id) : sight.part;
    if (part && part.isConnected) window.scrollBy(0, part.getBoundingClientRect().top - sight.top);
  }

  const shown = () => Number(root.dataset.liveVersion);

  // Whether a version a poll found is newer than the page shows, once this phone's own writes
  // under way have shown their answers: a poll that crossed the phone's own save finds the
  // version that save made, which is no news.
  async function newer(version) {
    await Promise.all(writes);
    return version > shown();
  }

  // What the page shows now, for the scripts that go by it (sheet_form.js).
  function shows(version, count) {
    etag = `"${version}"`;
    root.dataset.liveVersion = version;
    root.dataset.liveHands = count;
  }

  function tell(count, mine) {
    const by = mine ? "" : " on another phone";
    if (count === hands + 1) news.textContent = `Hand ${count} recorded${by}.`;
    else if (count > hands) news.textContent = `Hands ${hands + 1} to ${count} recorded${by}.`;
    else if (count < hands) news.textContent = `Hand ${hands} removed${by}.`;
    else news.textContent = `Scores changed${by}.`;
    hands = count;
  }

  function finish(fresh, sight = inSight()) {
    const { swapped, waits } = swap(fresh);
    keep(sight);
    waiting = waits ? fresh : null;
    if (swapped) document.dispatchEvent(new CustomEvent("live:updated"));
  }

  async function poll() {
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    const began = performance.now();
    const mine = fromThisPhone;
    fromThisPhone = false;
    // Until it has done: a look that fails is asked again 2 s later, even while the stream
    // speaks, which told of a change the page doesn't show yet.
    missed = true;
    try {
      if (waiting) finish(waiting);
      const answer = await fetch(apiUrl, {
        headers: { "If-None-Match": etag, Accept: "application/json" },
        cache: "no-store",
      });
      // A write that went unanswered before an answer of "nothing changed" wrote nothing.
      if (answer.status === 304 && !writes.size) unanswered = false;
      if (answer.status === 304) missed = false;
      if (answer.status !== 200) return; // 304: nothing changed; anything else: try next tick
      const version = Number((answer.headers.get("ETag") || etag).replace(/^W\/|"/g, ""));
      const session = await answer.json();
      if (!(await newer(version))) {
        missed = false;
        return;
      }
      const page = await fetch(pageUrl(), { cache: "no-store" });
      if (!page.ok) return;
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      missed = false;
      if (!(await newer(version))) return;
      const sight = inSight();
      const perhapsMine = unanswered;
      unanswered = false;
      tell(session.hands.length, mine || perhapsMine);
      shows(version, hands);
      finish(fresh, sight);
    } catch {
      // Offline or the server is away: the page stays as it is until a later tick.
    } finally {
      polling = false;
      schedule(EVERY_MS - (performance.now() - began));
      if (again) {
        again = false;
        poll();
      }
    }
  }

  // The next poll, 2 s after the last one began, unless the stream speaks.
  function schedule(wait = EVERY_MS) {
    clearTimeout(timer);
    timer = document.hidden || (streaming && !missed) ? null : setTimeout(poll, Math.max(0, wait));
  }

  function hears(by) {
    root.dataset.liveBy = by;
  }

  function listen() {
    if (source || !streamUrl || !("EventSource" in window) || document.hidden) return;
    const opened = new EventSource(streamUrl);
    source = opened;
    opened.onmessage = (event) => {
      if (!streaming) {
        streaming = true;
        if (!missed) clearTimeout(timer);
        hears("stream");
      }
      clearTimeout(silence);
      silence = setTimeout(() => {
        stopListening();
        listen();
      }, SILENT_MS);
      if (Number(event.data) > shown()) poll();
    };
    opened.onerror = () => {
      // Broken (the browser opens it again by itself) or refused (closed for good): asked
      // every 2 s meanwhile.
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
    hears("polls");
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
  // The outbox sent a hand from this phone: show it now rather than on the next tick.
  document.addEventListener("live:refresh", () => {
    fromThisPhone = true;
    poll();
  });
  // A write of this phone under way (outbox.js): its promise settles once the phone shows the
  // answer, and fails if none came.
  document.addEventListener("live:writing", (event) => {
    const write = event.detail.catch(() => {
      unanswered = true;
    }).finally(() => writes.delete(write));
    writes.add(write);
  });
  // The page as the server answered a hand saved in place: shown now, and not told again as news.
  document.addEventListener("live:page", (event) => {
    const fresh = event.detail;
    const given = fresh.querySelector("[data-live]");
    // Another session's page, or older than a poll has shown meanwhile.
    if (!given || given.dataset.live !== apiUrl || Number(given.dataset.liveVersion) < shown()) return;
    hands = Number(given.dataset.liveHands);
    shows(given.dataset.liveVersion, hands);
    finish(fresh);
  });
  // A region that waited for its user is swapped as soon as they leave it.
  document.addEventListener("focusout", () => {
    if (waiting) setTimeout(() => waiting && !polling && finish(waiting), 0);
  });

  hears("polls");
  schedule();
  listen();
})();
