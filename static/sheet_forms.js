// The scoresheet's forms other than a hand's, marked data-outbox (a hand confirmed, the
// director called or answered). With the network there and no hand of this session waiting in
// the outbox, one is sent at once and the sheet the server answers shown in place. Else it is
// kept on the phone (IndexedDB, "forms") and sent, under its write key, once the network is
// back and the hands before it are sent (outbox.js), so a confirm never reaches the server
// before its hand. Without this script they are plain forms.
"use strict";
(() => {
  const outbox = window.outbox;
  const store = window.idbKeyval;
  const root = document.querySelector("main[data-live]");
  if (!outbox || !store || !root) return;
  const session = outbox.session;
  const kept = async () => (await store.get("forms")) || [];
  const change = (edit) => store.update("forms", (box) => edit(box || []));
  const freshKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))))
    .replace(/\+/g, "-").replace(/\//g, "_");
  const post = (url, fields) => {
    const body = new FormData();
    for (const name in fields) body.append(name, fields[name]);
    return fetch(url, { method: "POST", body, credentials: "same-origin", redirect: "follow" });
  };
  // Answered with the scoresheet: written (or refused with a sentence the sheet shows).
  const onSheet = (answer, of = session) => answer.redirected && new URL(answer.url).pathname === `/sessions/${of}`;
  let lastSent = "";

  const said = (text) => {
    for (const old of root.querySelectorAll(":scope > .saved-status, :scope > .flash")) old.remove();
    const status = Object.assign(document.createElement("p"), { className: "flash", textContent: text });
    status.setAttribute("role", "status");
    root.prepend(status);
  };

  // What waits here for this session, under the outbox's hands.
  const show = async () => {
    const mine = (await kept()).filter((entry) => entry.session === session);
    let section = document.getElementById("outbox-forms");
    if (!section) {
      section = Object.assign(document.createElement("section"), { id: "outbox-forms" });
      section.setAttribute("aria-live", "polite");
      document.getElementById("outbox").after(section);
    }
    if (!mine.length) {
      section.replaceChildren(...(lastSent ? [Object.assign(document.createElement("p"), { textContent: lastSent })] : []));
      return;
    }
    const list = document.createElement("ul");
    for (const entry of mine) list.append(Object.assign(document.createElement("li"), { textContent: `${entry.summary} · not sent yet` }));
    section.replaceChildren(Object.assign(document.createElement("p"), { textContent: "Saved on this phone, not sent yet" }), list);
  };

  // The sheet as the server answered a form: shown in place, with what it said.
  const landed = async (answer) => {
    const doc = new DOMParser().parseFromString(await answer.text(), "text/html");
    const flash = doc.querySelector("main > .flash, main > .saved-status .flash");
    document.dispatchEvent(new CustomEvent("live:page", { detail: doc }));
    if (flash) said(flash.textContent);
  };

  let sending = false;
  const sendKept = async () => {
    if (sending || !navigator.onLine) return;
    sending = true;
    try {
      await outbox.sendAll();
      const hands = await outbox.entries();
      for (const entry of await kept()) {
        if (hands.some((hand) => hand.session === entry.session)) continue;
        const write = outbox.writing();
        let answer;
        try {
          answer = await post(entry.url, entry.fields);
        } catch (error) {
          write.lost();
          throw error;
        }
        try {
          await change((box) => box.filter((other) => other.key !== entry.key));
          const sent = onSheet(answer, entry.session);
          if (entry.session === session) lastSent = `${entry.summary}: ${sent ? "sent" : "refused by the server"}.`;
          if (sent && entry.session === session) await landed(answer);
        } finally {
          write.shown();
        }
      }
    } catch {
      // Still no network: try again later.
    } finally {
      sending = false;
      show();
    }
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target.closest("form[data-outbox]");
    if (!form || event.defaultPrevented) return;
    event.preventDefault();
    const submitter = event.submitter;
    const fields = Object.fromEntries(new FormData(form, submitter));
    const chosen = submitter && submitter.name ? ` by ${submitter.value}` : "";
    const entry = { key: fields.write_key, session, url: form.action,
      summary: `${form.dataset.outbox}${chosen}`, fields, at: Date.now() };
    const keep = async () => {
      await change((box) => [...box, entry]);
      form.reset();
      form.elements.namedItem("write_key").value = freshKey();
      said(`${entry.summary}: kept on this phone, not sent yet.`);
      return show();
    };
    // Its controls leave the sheet's regions free to take the answer (live.js waits for a
    // region in use).
    if (form.contains(document.activeElement)) document.activeElement.blur();
    await sendKept();
    const waiting = [...(await outbox.entries()), ...(await kept())].some((other) => other.session === session);
    if (!navigator.onLine || waiting) return keep();
    const write = outbox.writing();
    let answer;
    try {
      answer = await post(form.action, fields);
    } catch {
      write.lost();
      return keep();
    }
    try {
      if (!onSheet(answer)) {
        // Refused or asked about: the server's page says why.
        if (chosen) form.append(Object.assign(document.createElement("input"), { type: "hidden", name: submitter.name, value: submitter.value }));
        return form.submit();
      }
      form.reset();
      await landed(answer);
    } finally {
      write.shown();
    }
  });

  addEventListener("online", sendKept);
  setInterval(async () => (await kept()).length && sendKept(), 10000);
  show().then(sendKept);
})();
