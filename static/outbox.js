// Hands saved with no network wait here (IndexedDB) and are sent in order when it returns,
// each under its form's write key, so a hand whose reply was lost still lands once.
// The record form binds to it as the page loads, or as the scoresheet opens it in place
// (window.outbox.bind).
"use strict";
(() => {
  const store = window.idbKeyval;
  const page = document.querySelector("form.hand-form[data-session]");
  const region = () => document.getElementById("outbox");
  const place = page || region();
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
  // A write of this phone, for the scoresheet's live.js: a poll that finds the version it made
  // waits until the phone shows its answer rather than tell it as another phone's. Settled by
  // `shown` (or `lost`, with no answer) once the caller is done with the answer.
  const writing = () => {
    const settle = {};
    const done = new Promise((resolve, reject) => Object.assign(settle, { shown: resolve, lost: reject }));
    document.dispatchEvent(new CustomEvent("live:writing", { detail: done }));
    return settle;
  };
  const landed = (answer, url) => answer.redirected &&
    new URL(answer.url).pathname === new URL(url, location.href).pathname.replace(/\/hands\/new$/, "");
  // Busy saving a restore or an import (503, Retry-After): no refusal, the hand is sent again.
  const busy = (answer) => answer.status === 503;
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
        if (!(await entries()).some((other) => other.key === entry.key)) continue; // taken back meanwhile
        const write = writing();
        let answer;
        try {
          answer = await post(entry.url, entry.fields);
        } catch (error) {
          write.lost();
          throw error;
        }
        try {
          if (busy(answer)) throw new Error("busy");
          if (landed(answer, entry.url)) {
            await change((box) => box.filter((other) => other.key !== entry.key));
            await noteSent(entry.key);
            if (entry.session === session) lastSent = `Hand ${entry.number} sent.`;
            if (entry.session === session && !page) {
              // The scoresheet with the hand, shown now: a poll meanwhile finds nothing new.
              const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
              document.dispatchEvent(new CustomEvent("live:page", { detail: doc }));
            }
            document.dispatchEvent(new CustomEvent("live:refresh"));
          } else {
            // Recorded on another phone meanwhile (409), or refused: the session waits for a person.
            const state = answer.status === 409 ? "moved" : "refused";
            await change((box) => box.map((other) => (other.key === entry.key ? { ...other, state } : other)));
            stuck.add(entry.session);
          }
        } finally {
          write.shown();
        }
      }
    } catch {
      // Still no network, or the server busy: try again later.
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
  // A hand just kept, taken back from its "saved" status: whether it was still waiting.
  const forget = async (key) => {
    let found = null;
    await change((box) => {
      found = box.find((other) => other.key === key && !other.state) || null;
      return found ? shift(box.filter((other) => other !== found), found, -1) : box;
    });
    render();
    return Boolean(found);
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
    // The scoresheet shows them in its grid too (sheet_form.js).
    if (!page) document.dispatchEvent(new CustomEvent("outbox:changed", { detail: mine }));
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

  // Who deals `steps` hands after `dealer` (before, if negative), who sits out then and the
  // bidding order: the seat logic the record form carries (its data-seats and data-out).
  const seating = (seats, dealer, outCount, steps = 0) => {
    const at = (((seats.indexOf(dealer) + steps) % seats.length) + seats.length) % seats.length;
    const out = Array.from({ length: outCount }, (_, back) => seats[(at - back + seats.length) % seats.length]);
    const order = [...seats.slice(at + 1), ...seats.slice(0, at + 1)].filter((player) => !out.includes(player));
    return { dealer: seats[at], out, order };
  };
  const outWords = (out) => `${out.join(", ").replace(/, ([^,]*)$/, " and $1")} sit${out.length > 1 ? "" : "s"} out`;

  document.addEventListener("live:updated", render);
  addEventListener("online", sendAll);
  setInterval(async () => (await entries()).some((entry) => !entry.state) && sendAll(), 10000);

  // The record form, set for the next hand with no network: the next seat deals. `done` says
  // where a hand sent went (the scoresheet's answer, and its number): by default the phone
  // goes there; `refused`, the server's answer to a hand it refused or asks about (by default
  // the phone sends the form to show it); `kept`, that a hand was kept on this phone.
  const bind = (form, { done, refused, kept, fresh = false } = {}) => {
    const seats = JSON.parse(form.dataset.seats);
    let dealer = form.dataset.dealer;
    const field = (name) => form.elements.namedItem(name);
    const advanceTo = (number) => {
      const now = seating(seats, dealer, Number(form.dataset.out), number - Number(field("number").value));
      dealer = now.dealer;
      const { out, order } = now;
      field("number").value = number;
      form.querySelector("h1").textContent = `Hand ${number}`;
      document.title = document.title.replace(/^Hand \d+/, `Hand ${number}`);
      const who = document.createElement("strong");
      who.textContent = dealer;
      form.querySelector(".form-head .muted").replaceChildren(who, ` dealt · ${order.join(" → ")}`);
      const sitsOut = form.querySelector(".sits-out");
      if (sitsOut) sitsOut.textContent = `${outWords(out)} this hand.`;
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
      render();
      if (kept) kept(entry);
      else scrollTo(0, 0);
    };

    form.addEventListener("submit", async (event) => {
      if (event.defaultPrevented || (event.submitter && event.submitter.name === "preview")) return;
      event.preventDefault();
      const key = field("write_key").value;
      const reviewed = (await entries()).find((entry) => entry.key === key);
      await sendAll();
      const waiting = (await entries()).some((entry) => entry.session === session && entry.key !== key);
      if (!navigator.onLine || (waiting && !reviewed)) return keep();
      const write = writing();
      let answer;
      try {
        // The scoresheet fetched here leaves "Hand N saved." for the next page; one that stays
        // shows it from this answer.
        answer = await post(form.action, Object.fromEntries(new FormData(form)), done ? {} : { "X-Sent-By": "outbox" });
      } catch {
        write.lost();
        return keep();
      }
      try {
        if (busy(answer)) return keep();
        // Refused or asked about: the server's page says why.
        if (!landed(answer, form.action)) return refused ? await refused(answer) : form.submit();
        const saved = Number(new URL(answer.url).searchParams.get("saved"));
        await noteSent(key);
        if (reviewed) await change((box) => shift(box.filter((entry) => entry.key !== key), reviewed, saved - reviewed.number));
        if (done) await done(answer, saved);
        else location.assign(answer.url);
      } finally {
        write.shown();
      }
    });

    // Set for the hand after those waiting here, and with a key of its own.
    const ready = (async () => {
      if (fresh) field("write_key").value = freshKey();
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
    return { ready, advanceTo, dealer: () => dealer };
  };

  window.outbox = { bind, entries, forget, seating, outWords, session, writing, sendAll };
  if (page) {
    bind(page);
    return;
  }
  render().then(sendAll);
  // The worker keeps what it fetches: this page and the stylesheets it links, which came before
  // the worker did. The record form the scoresheet keeps for itself (sheet_form.js).
  const styles = Array.from(document.querySelectorAll("link[rel=stylesheet]"), (link) => link.href);
  const load = (url) => fetch(url, { credentials: "same-origin" }).catch(() => {});
  const worker = navigator.serviceWorker;
  if (worker && !worker.controller) worker.addEventListener("controllerchange", () => [location.href, ...styles].map(load), { once: true });
})();
