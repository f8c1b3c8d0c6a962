// Hands saved with no network wait here (IndexedDB) and are sent in order when it returns,
// each under its form's write key, so a hand whose reply was lost still lands once.
"use strict";
(() => {
  const store = window.idbKeyval;
  const form = document.querySelector("form.hand-form[data-session]");
  const region = () => document.getElementById("outbox");
  const place = form || region();
  if (!store || !window.indexedDB || !place) return;
  const session = Number(place.dataset.session);
  const entries = async () => (await store.get("outbox")) || [];
  const change = (edit) => store.update("outbox", (box) => edit(box || []));
  // The write keys this phone has had answered: a form kept by the service worker may hold one.
  const wasSent = async (key) => ((await store.get("sent")) || []).includes(key);
  const noteSent = (key) => store.update("sent", (keys) => [...(keys || []), key].slice(-50));
  const freshKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replace(/\+/g, "-").replace(/\//g, "_");
  const post = (url, fields, headers = {}) => {
    const body = new FormData();
    for (const name in fields) body.append(name, fields[name]);
    return fetch(url, { method: "POST", body, headers, credentials: "same-origin", redirect: "follow" });
  };
  const landed = (answer, url) => answer.redirected &&
    new URL(answer.url).pathname === new URL(url, location.href).pathname.replace(/\/hands\/new$/, "");
  // Later hands of a session move when one was saved under another number (or discarded).
  const shift = (box, entry, by) => box.map((other) => other.session !== entry.session || other.at <= entry.at
    ? other : { ...other, number: other.number + by, fields: { ...other.fields, number: String(other.number + by) } });

  let lastSent = "";
  let sending = false;
  const sendAll = async () => {
    if (sending || !navigator.onLine) return;
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
          // Recorded on another phone meanwhile (409), or refused: the session waits for a person.
          const state = answer.status === 409 ? "moved" : "refused";
          await change((box) => box.map((other) => (other.key === entry.key ? { ...other, state } : other)));
          stuck.add(entry.session);
        }
      }
    } catch {
      // Still no network: try again later.
    } finally {
      sending = false;
      render();
    }
  };

  const review = (entry) => {
    const again = document.createElement("form");
    again.method = "post";
    again.action = entry.url;
    for (const name in entry.fields) {
      const input = again.appendChild(document.createElement("input"));
      input.type = "hidden";
      input.name = name;
      input.value = entry.fields[name];
    }
    document.body.append(again);
    again.submit();
  };
  const discard = async (entry) => {
    if (!confirm(`Discard hand ${entry.number} (${entry.summary})? It was never sent, so it will be lost.`)) return;
    await change((box) => shift(box.filter((other) => other.key !== entry.key), entry, -1));
    sendAll();
  };
  const button = (text, action) => {
    const tap = document.createElement("button");
    tap.type = "button";
    tap.className = "btn";
    tap.textContent = text;
    tap.onclick = action;
    return tap;
  };

  // What the section shows now: nothing while nothing is pending or was just sent.
  let shown = JSON.stringify([[], ""]);
  const render = async () => {
    const section = region();
    const mine = (await entries()).filter((entry) => entry.session === session);
    const now = JSON.stringify([mine, lastSent]);
    if (!section || now === shown) return;
    shown = now;
    if (!mine.length && !lastSent) {
      section.replaceChildren();
      return;
    }
    const status = document.createElement("p");
    status.setAttribute("role", "status");
    status.textContent = mine.length ? "Saved on this phone, not sent yet" : lastSent;
    const list = document.createElement("ul");
    for (const entry of mine) {
      const item = list.appendChild(document.createElement("li"));
      item.textContent = `Hand ${entry.number} · ${entry.summary} · `;
      if (entry.state) {
        const why = item.appendChild(document.createElement("strong"));
        why.textContent = entry.state === "moved" ? `Not sent: another phone recorded hand ${entry.number}` : "Not sent: the server refused it";
        const actions = item.appendChild(document.createElement("span"));
        actions.className = "actions";
        actions.append(button("Review", () => review(entry)), button("Discard", () => discard(entry)));
      } else item.append("not sent yet");
    }
    section.replaceChildren(status, ...(mine.length ? [list] : []));
  };

  document.addEventListener("live:updated", render);
  addEventListener("online", sendAll);
  setInterval(async () => (await entries()).some((entry) => !entry.state) && sendAll(), 10000);

  if (!form) {
    render().then(sendAll);
    // The worker keeps what it fetches: the record form, and its scripts; this page and the
    // stylesheets it links, which came before the worker did.
    const record = document.querySelector(`a[href$="/sessions/${session}/hands/new"]`);
    const urls = record ? [record.href, "/scripts/record.js"] : [];
    const styles = Array.from(document.querySelectorAll("link[rel=stylesheet]"), (link) => link.href);
    const load = (url) => fetch(url, { credentials: "same-origin" }).catch(() => {});
    const worker = navigator.serviceWorker;
    if (worker && worker.controller) urls.map(load);
    else if (worker) worker.addEventListener("controllerchange", () => [location.href, ...styles, ...urls].map(load), { once: true });
    return;
  }

  // The record form, set for the next hand with no network: the next seat deals.
  const seats = JSON.parse(form.dataset.seats);
  let dealer = form.dataset.dealer;
  const field = (name) => form.elements.namedItem(name);
  const advanceTo = (number) => {
    for (let at = Number(field("number").value); at < number; at++) dealer = seats[(seats.indexOf(dealer) + 1) % seats.length];
    const at = seats.indexOf(dealer);
    const out = Array.from({ length: Number(form.dataset.out) }, (_, back) => seats[(at - back + seats.length) % seats.length]);
    const order = [...seats.slice(at + 1), ...seats.slice(0, at + 1)].filter((player) => !out.includes(player));
    field("number").value = number;
    form.querySelector("h1").textContent = `Hand ${number}`;
    document.title = document.title.replace(/^Hand \d+/, `Hand ${number}`);
    const who = document.createElement("strong");
    who.textContent = dealer;
    form.querySelector(".form-head .muted").replaceChildren(who, ` dealt · ${order.join(" → ")}`);
    const sitsOut = form.querySelector(".sits-out");
    if (sitsOut) sitsOut.textContent = `${out.join(", ").replace(/, ([^,]*)$/, " and $1")} sit${out.length > 1 ? "" : "s"} out this hand.`;
    for (const chip of form.querySelectorAll("label[class*=bid-]")) {
      chip.className = chip.className.replace(/bid-\d+/, `bid-${order.indexOf(chip.querySelector("input").value) + 1}`);
    }
  };

  const label = (name) => {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input && input.value ? input.closest("label").textContent.trim() : "";
  };
  const summary = () => {
    const kind = field("kind").value;
    if (kind === "passed") return label("kind") + (label("winner") && `, ${label("winner")} won`);
    if (kind === "penalty") return `${label("kind")}: ${label("penalized")}`;
    const partner = label("partner");
    const team = partner && partner !== "Alone" ? `${label("picker")} & ${partner}` : `${label("picker")} alone`;
    return team + (label("result") && `, ${label("result").toLowerCase()}`);
  };

  const keep = async () => {
    // A form left as it opened (a stray tap after the last save) is not kept.
    const changed = (input) => (input.type === "radio" || input.type === "checkbox"
      ? input.checked !== input.defaultChecked
      : input.type === "text" && input.value.trim() !== input.defaultValue.trim());
    if (![...form.elements].some(changed)) {
      return form.reset();
    }
    const fields = Object.fromEntries(new FormData(form));
    const box = await entries();
    if (!box.some((entry) => entry.key === fields.write_key) && (await wasSent(fields.write_key))) {
      fields.write_key = freshKey(); // a form the worker kept, sent before: this is another hand
    }
    const number = Number(fields.number);
    const entry = { key: fields.write_key, session, number, url: form.action, summary: summary(), fields, at: Date.now() };
    await change((now) => {
      // A hand kept again (a review saved as the next hand) keeps its place.
      const was = now.find((other) => other.key === entry.key);
      return was ? shift(now.map((other) => (other === was ? { ...entry, at: was.at } : other)), was, number - was.number) : [...now, entry];
    });
    field("write_key").value = freshKey();
    advanceTo(number + 1);
    form.reset();
    scrollTo(0, 0);
    render();
  };

  form.addEventListener("submit", async (event) => {
    if (event.defaultPrevented || (event.submitter && event.submitter.name === "preview")) return;
    event.preventDefault();
    const key = field("write_key").value;
    const reviewed = (await entries()).find((entry) => entry.key === key);
    await sendAll();
    const waiting = (await entries()).some((entry) => entry.session === session && entry.key !== key);
    if (!navigator.onLine || (waiting && !reviewed)) return keep();
    let answer;
    try {
      // The scoresheet fetched here leaves "Hand N saved." for the next page.
      answer = await post(form.action, Object.fromEntries(new FormData(form)), { "X-Sent-By": "outbox" });
    } catch {
      return keep();
    }
    // Refused or asked about: the server's page says why.
    if (!landed(answer, form.action)) return form.submit();
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
    if (!mine.some((entry) => entry.key === key && entry.state)) {
      // Opened with hands waiting, or kept by the worker: for the hand after them. Back to a
      // sent form keeps its key (hand_form.js).
      const [visit] = performance.getEntriesByType("navigation");
      const back = visit && visit.type === "back_forward";
      if (mine.some((entry) => entry.key === key) || (!back && (await wasSent(key)))) field("write_key").value = freshKey();
      const last = Math.max(0, ...mine.map((entry) => entry.number));
      if (last >= Number(field("number").value)) advanceTo(last + 1);
    }
    await render();
    sendAll();
  })();
})();
