// Live updates: the page names its session's API URL (data-live) and the regions that show it
// (data-live-region, each with an id). Every 2 s it asks whether the session changed, sending
// the version it shows; on a change it fetches itself again and swaps those regions in place.
"use strict";

(() => {
  const root = document.querySelector("[data-live]");
  if (!root) return;

  const EVERY_MS = 2000;
  const apiUrl = root.dataset.live;
  let etag = `"${root.dataset.liveVersion}"`;
  let hands = Number(root.dataset.liveHands);
  let timer = null;
  let polling = false;
  let again = false;
  let fromThisPhone = false;
  let waiting = null; // a fetched page whose regions could not all be swapped yet

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
    const x = window.scrollX;
    const y = window.scrollY;
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
    window.scrollTo(x, y);
    return { swapped, waits };
  }

  function tell(count, mine) {
    const by = mine ? "" : " on another phone";
    if (count === hands + 1) news.textContent = `Hand ${count} recorded${by}.`;
    else if (count > hands) news.textContent = `Hands ${hands + 1} to ${count} recorded${by}.`;
    else if (count < hands) news.textContent = `Hand ${hands} removed${by}.`;
    else news.textContent = `Scores changed${by}.`;
    hands = count;
  }

  function finish(fresh) {
    const { swapped, waits } = swap(fresh);
    waiting = waits ? fresh : null;
    if (swapped) document.dispatchEvent(new CustomEvent("live:updated"));
  }

  async function poll() {
    if (polling) {
      again = true;
      return;
    }
    polling = true;
    const mine = fromThisPhone;
    fromThisPhone = false;
    try {
      if (waiting) finish(waiting);
      const answer = await fetch(apiUrl, {
        headers: { "If-None-Match": etag, Accept: "application/json" },
        cache: "no-store",
      });
      if (answer.status !== 200) return; // 304: nothing changed; anything else: try next tick
      const session = await answer.json();
      const page = await fetch(pageUrl(), { cache: "no-store" });
      if (!page.ok) return;
      const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
      etag = answer.headers.get("ETag") || etag;
      tell(session.hands.length, mine);
      finish(fresh);
    } catch {
      // Offline or the server is away: the page stays as it is until a later tick.
    } finally {
      polling = false;
      schedule();
      if (again) {
        again = false;
        poll();
      }
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = document.hidden ? null : setTimeout(poll, EVERY_MS);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) clearTimeout(timer);
    else poll();
  });
  // The outbox sent a hand from this phone: show it now rather than on the next tick.
  document.addEventListener("live:refresh", () => {
    fromThisPhone = true;
    poll();
  });
  // A region that waited for its user is swapped as soon as they leave it.
  document.addEventListener("focusout", () => {
    if (waiting) setTimeout(() => waiting && !polling && finish(waiting), 0);
  });

  schedule();
})();
