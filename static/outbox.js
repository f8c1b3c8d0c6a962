// The outbox: a hand saved with no network is kept on this phone (IndexedDB) and sent when the
// network returns, each session's hands one at a time in the order recorded. Every hand keeps
// its form's one-time write key, so a hand whose reply was lost is sent again and lands once.
"use strict";
(() => {
  const store = window.idbKeyval;
  const form = document.querySelector("form.hand-form[data-session]");
  const region = () => document.getElementById("outbox");
  const place = form || region();
  if (!store || !window.indexedDB || !place) return;
  const session = Number(place.dataset.session);
  const BOX = "outbox";
  const SENT = "sent-keys"; // the write keys this phone has had answered, the latest 50
  const RETRY_MS = 10000;

  const entries = async () => (await store.get(BOX)) || [];
  const change = (edit) => store.update(BOX, (box) => edit(box || []));
  const sheetOf = (url) => url.replace(/\/hands\/new$/, "");
  const value = (fields, name) => (fields.find(([key]) => key === name) || [])[1] || "";
  const withValue = (fields, name, to) => fields.map(([key, was]) => [key, key === name ? to : was]);
  const freshKey = () => {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  };
  const wasSent = async (key) => ((await store.get(SENT)) || []).includes(key);
  const noteSent = (key) => store.update(SENT, (keys) => [...(keys || []).filter((k) => k !== key), key].slice(-50));
  const post = (url, fields, headers = {}) => {
    const body = new FormData();
    for (const [key, field] of fields) body.append(key, field);
    return fetch(url, { method: "POST", body, headers, credentials: "same-origin", redirect: "follow" });
  };
  const landed = (answer, url) => answer.redirected && new URL(answer.url).pathname === sheetOf(url);

  // Later hands of a session move up when one of theirs was saved under another number.
  const shift = (box, entry, by) => box.map((other) => {
    if (!by || other.session !== entry.session || other.at <= entry.at) return other;
    const number = other.number + by;
    return { ...other, number, fields: withValue(other.fields, "number", String(number)) };
  });

  let lastSent = "";
  let sending = false;
  const sendAll = async () => {
    if (sending || navigator.onLine === false) return;
    sending = true;
    try {
      const stuck = new Set();
      for (const entry of await entries()) {
        if (entry.state) stuck.add(entry.session);
        if (stuck.has(entry.session)) continue;
        const answer = await post(entry.url, entry.fields);
        if (landed(answer, entry.url)) {
          await change((box) => box.filter((other) => other.key !== entry.key));
          await noteSent(entry.key);
          if (entry.session === session) lastSent = `Hand ${entry.number} sent.`;
          document.dispatchEvent(new CustomEvent("live:refresh"));
        } else {
          // Another phone recorded this hand meanwhile (409), or the server refused it: the
          // session waits for someone to look.
          const state = answer.status === 409 ? "moved" : "refused";
          await change((box) => box.map((other) => (other.key === entry.key ? { ...other, state } : other)));
          stuck.add(entry.session);
        }
      }
    } catch {
      // Still no network: the next try is on the timer or the "online" event.
    } finally {
      sending = false;
      await render();
    }
  };

  const review = (entry) => {
    // Posted as the form itself would be, so the server's own page answers.
    const again = document.createElement("form");
    again.method = "post";
    again.action = entry.url;
    again.hidden = true;
    for (const [name, field] of entry.fields) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = field;
      again.append(input);
    }
    document.body.append(again);
    again.submit();
  };

  const discard = async (entry) => {
    if (!confirm(`Discard hand ${entry.number} (${entry.summary})? It was never sent, so it will be lost.`)) return;
    await change((box) => shift(box.filter((other) => other.key !== entry.key), entry, -1));
    await render();
    sendAll();
  };

  const button = (text, action) => {
    const tap = document.createElement("button");
    tap.type = "button";
    tap.className = "btn";
    tap.textContent = text;
    tap.addEventListener("click", action);
    return tap;
  };

  let shown = "";
  const render = async () => {
    const section = region();
    if (!section) return;
    const mine = (await entries()).filter((entry) => entry.session === session);
    const signature = JSON.stringify([mine, lastSent]);
    if (signature === shown && section.childElementCount) return;
    shown = signature;
    const status = document.createElement("p");
    status.className = "outbox-status";
    status.setAttribute("role", "status");
    status.textContent = mine.length ? "Saved on this phone, not sent yet" : lastSent;
    const list = document.createElement("ul");
    list.className = "outbox-list";
    for (const entry of mine) {
      const item = document.createElement("li");
      item.textContent = `Hand ${entry.number} · ${entry.summary}`;
      if (entry.state) {
        const why = document.createElement("strong");
        why.textContent = entry.state === "moved"
          ? `Not sent: another phone recorded hand ${entry.number}`
          : "Not sent: the server refused it";
        const actions = document.createElement("span");
        actions.className = "actions";
        actions.append(button("Review", () => review(entry)), button("Discard", () => discard(entry)));
        item.classList.add("refused");
        item.append(" · ", why, actions);
      } else {
        item.append(" · not sent yet");
      }
      list.append(item);
    }
    section.replaceChildren(status, ...(mine.length ? [list] : []));
  };

  document.addEventListener("live:updated", render);
  window.addEventListener("online", sendAll);
  setInterval(async () => {
    if ((await entries()).some((entry) => !entry.state)) sendAll();
  }, RETRY_MS);

  if (!form) {
    render().then(sendAll);
    // The record form of this session, kept by the service worker so it opens with no network.
    const record = document.querySelector(`a[href$="/sessions/${session}/hands/new"]`);
    if (record && navigator.serviceWorker && navigator.serviceWorker.controller) {
      fetch(record.href, { credentials: "same-origin" }).catch(() => {});
    }
    return;
  }

  // The record form: the seats, and who dealt, to set it for the next hand with no network.
  const seats = JSON.parse(form.dataset.seats);
  const outCount = Number(form.dataset.out);
  let dealer = form.dataset.dealer;
  const field = (name) => form.elements.namedItem(name);

  const advanceTo = (number) => {
    for (let at = Number(field("number").value); at < number; at++) {
      dealer = seats[(seats.indexOf(dealer) + 1) % seats.length];
    }
    const start = seats.indexOf(dealer);
    const out = new Set(Array.from({ length: outCount }, (_, back) => seats[(start - back + seats.length) % seats.length]));
    const order = [...seats.slice(start + 1), ...seats.slice(0, start + 1)].filter((player) => !out.has(player));
    field("number").value = String(number);
    form.querySelector("h1").textContent = `Hand ${number}`;
    document.title = document.title.replace(/^Hand \d+/, `Hand ${number}`);
    const line = form.querySelector(".form-head .muted");
    const who = document.createElement("strong");
    who.textContent = dealer;
    line.replaceChildren(who, ` dealt · ${order.join(" → ")}`);
    const sitsOut = form.querySelector(".sits-out");
    if (sitsOut) {
      const names = [...out];
      sitsOut.textContent = `${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)} sit` : `${names[0]} sits`} out this hand.`;
    }
    // Each player's place in the bidding, which hides cracks by the picker or earlier.
    for (const chip of form.querySelectorAll("label.chip")) {
      const input = chip.querySelector("input");
      chip.className = chip.className.replace(/\s*bid-\d+/g, "");
      const rank = order.indexOf(input.value);
      if (rank >= 0 && /^(picker|cracked_by)$/.test(input.name)) chip.classList.add(`bid-${rank + 1}`);
    }
  };

  const label = (name) => {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input && input.value !== "" ? input.closest("label").textContent.trim() : "";
  };
  const summary = () => {
    const kind = label("kind");
    if (field("kind").value === "passed") return label("winner") ? `${kind}, ${label("winner")} won` : kind;
    if (field("kind").value === "penalty") return `${kind}: ${label("penalized")}`;
    const partner = label("partner");
    const team = partner && partner !== "Alone" ? `${label("picker")} & ${partner}` : `${label("picker")} alone`;
    return label("result") ? `${team}, ${label("result").toLowerCase()}` : team;
  };
  // A form with nothing chosen (a stray tap after the last save) is not kept.
  const chosen = () => [...form.elements].some((input) =>
    (input.type === "radio" && input.checked && input.name !== "kind") || (input.type === "text" && input.value.trim() !== ""));

  const keep = async () => {
    if (!chosen()) {
      form.reset();
      return;
    }
    let fields = [...new FormData(form)].filter(([, field]) => typeof field === "string");
    let key = value(fields, "write_key");
    const box = await entries();
    const again = box.find((entry) => entry.key === key);
    if (!again && (await wasSent(key))) {
      // This form (kept by the service worker) was sent before: it is another hand.
      key = freshKey();
      fields = withValue(fields, "write_key", key);
    }
    const number = Number(value(fields, "number"));
    const entry = { key, session, number, url: form.action, summary: summary(), fields, at: Date.now() };
    await change((now) => {
      const was = now.find((other) => other.key === key);
      // Kept again (a review saved as the next hand): its place in the order stays.
      return was ? shift(now.map((other) => (other.key === key ? { ...entry, at: was.at } : other)), was, number - was.number) : [...now, entry];
    });
    field("write_key").value = freshKey();
    advanceTo(number + 1);
    form.reset();
    window.scrollTo(0, 0);
    await render();
  };

  form.addEventListener("submit", async (event) => {
    if (event.defaultPrevented || (event.submitter && event.submitter.name === "preview")) return;
    event.preventDefault();
    const key = field("write_key").value;
    const mine = (await entries()).filter((entry) => entry.session === session);
    const reviewed = mine.find((entry) => entry.key === key);
    await sendAll();
    const waiting = (await entries()).some((entry) => entry.session === session && entry.key !== key);
    if (navigator.onLine === false || (waiting && !reviewed)) return keep();
    let answer;
    try {
      // The page it lands on leaves "Hand N saved." for the page this one goes to next.
      answer = await post(form.action, [...new FormData(form)], { "X-Sent-By": "outbox" });
    } catch {
      return keep();
    }
    if (!landed(answer, form.action)) {
      // Refused, or asked about: the server's own page says why, as without this script.
      form.submit();
      return;
    }
    const url = new URL(answer.url);
    const saved = Number(url.searchParams.get("saved"));
    if (saved) url.hash = `hand-${saved}`;
    await noteSent(key);
    if (reviewed) await change((box) => shift(box.filter((entry) => entry.key !== key), reviewed, saved - reviewed.number));
    location.assign(url.href);
  });

  (async () => {
    const key = field("write_key").value;
    const mine = (await entries()).filter((entry) => entry.session === session);
    const reviewed = mine.find((entry) => entry.key === key && entry.state);
    if (!reviewed) {
      // A form opened with hands waiting on this phone (or kept by the service worker) is for
      // the hand after them, under a key of its own.
      if (mine.some((entry) => entry.key === key) || (await wasSent(key))) field("write_key").value = freshKey();
      const last = Math.max(0, ...mine.map((entry) => entry.number));
      if (last >= Number(field("number").value)) advanceTo(last + 1);
    }
    await render();
    sendAll();
  })();
})();
