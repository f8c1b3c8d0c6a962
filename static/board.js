// The event's board on the TV: every second it reads the event from the API (its ETag moves
// with the event's own writes, not with its tables' hands, so it compares the answer itself);
// when the event changed it fetches the page again and swaps its regions (data-live-region).
// A table's new call for the director is said in the news and, once the screen's Sound button
// is on (a browser plays nothing before a tap), rung as a chime the Web Audio API makes.
"use strict";
(() => {
  const root = document.querySelector("[data-board]");
  if (!root) return;
  const EVERY_MS = 1000;
  const news = root.querySelector(".board-news");
  const toggle = root.querySelector(".sound-toggle");
  let seen = null; // the event as the API answered it last
  let calls = null; // the calls open then, by table session and time
  let timer = null;
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
