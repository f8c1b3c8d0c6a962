// The scoresheet opens the record form, and Edit, in place: in the page already loaded, so a
// phone that loses the network between hands (plain http on the LAN runs no service worker)
// keeps recording, its hands waiting in the outbox. The record form is the server's, fetched as
// the sheet loads and kept in IndexedDB to open with no network; a hand kept offline shows as a
// row without scores, and the server scores it when it is sent. Without this script "Record
// hand" and Edit are links to the form's own page.
"use strict";
(() => {
  const root = document.querySelector("main[data-live]");
  const outbox = window.outbox;
  const bindForm = window.handForm;
  const store = window.idbKeyval;
  if (!root || !outbox || !bindForm || !store) return;
  const session = outbox.session;
  const recordUrl = `/sessions/${session}/hands/new`;
  const sheetPath = `/sessions/${session}`;
  const KEPT = `form ${session}`;
  let kept = null; // { html, styles, title }: the record form as the server last sent it

  const parse = (text) => new DOMParser().parseFromString(text, "text/html");
  // The form of a fetched form page, its stylesheets and its title.
  const formOf = (doc) => ({
    html: doc.querySelector("form.hand-form").outerHTML,
    styles: Array.from(doc.querySelectorAll("head style"), (style) => style.textContent),
    title: doc.title,
  });
  // The form for the next hand, fetched again whenever the sheet changes; a page's flashes are
  // left for the page they were meant for.
  let refreshing = null;
  const refresh = () => {
    refreshing = refreshing || fetchForm().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };
  const fetchForm = async () => {
    if (!navigator.onLine || !document.querySelector(`#sheet-next a[href$="${recordUrl}"]`)) return;
    try {
      const answer = await fetch(recordUrl, { credentials: "same-origin", headers: { "X-Sent-By": "outbox" } });
      if (!answer.ok || answer.redirected) return;
      const doc = parse(await answer.text());
      if (!doc.querySelector("form.hand-form[data-session]")) return;
      kept = formOf(doc);
      await store.set(KEPT, kept);
    } catch {
      // No network: the form kept before serves.
    }
  };
  const keptReady = store.get(KEPT).then((held) => {
    kept = kept || held || null;
  }).catch(() => {});

  const hands = () => Number(root.dataset.liveHands);
  const pending = async () => (await outbox.entries()).filter((entry) => entry.session === session);

  // The next deal as the sheet says it: the server's, moved on past the hands kept here (and
  // the server's again once none is).
  const server = new WeakMap();
  const nextDeal = async () => {
    const line = document.querySelector("#sheet-next .deal");
    const mine = await pending();
    if (!line || !kept) return;
    const order = line.parentElement.querySelector(".muted");
    const was = server.get(line);
    if (!mine.length) {
      if (was) line.replaceChildren(...was.deal);
      if (was && order) order.textContent = was.order;
      server.delete(line);
      return;
    }
    if (!was) server.set(line, { deal: Array.from(line.childNodes, (node) => node.cloneNode(true)), order: order && order.textContent });
    const form = parse(kept.html).querySelector("form");
    const number = Math.max(hands(), ...mine.map((entry) => entry.number)) + 1;
    const steps = number - Number(form.elements.namedItem("number").value);
    const seat = outbox.seating(JSON.parse(form.dataset.seats), form.dataset.dealer, Number(form.dataset.out), steps);
    const who = document.createElement("strong");
    who.textContent = seat.dealer;
    const parts = [who, ` deals hand ${number}`];
    if (seat.out.length) {
      const out = document.createElement("span");
      out.className = "sits-out";
      out.textContent = outbox.outWords(seat.out);
      parts.push(" · ", out);
    }
    line.replaceChildren(...parts);
    if (order) order.textContent = `Bidding: ${seat.order.join(" → ")}`;
  };

  // The form open in place: its element, what opened it, where the sheet was scrolled, the
  // sheet's title, and (after Back with it unsaved) one to open again as it was left.
  let open = null;
  let left = null;
  let status = null; // what to show once the form's history entry is gone
  let opening = false;

  const show = (form, title, from, sheets) => {
    const have = Array.from(document.querySelectorAll("style"), (style) => style.textContent);
    for (const text of sheets.filter((text) => !have.includes(text))) {
      document.head.append(Object.assign(document.createElement("style"), { textContent: text }));
    }
    open = { form, from, y: scrollY, title: document.title, formTitle: title };
    document.querySelector("#outbox").after(form);
    root.classList.add("in-place");
    document.title = title;
    // Back returns to the sheet, not off the site; the sheet's place is put back by hand.
    history.scrollRestoration = "manual";
    history.pushState({ inPlace: true }, "");
    scrollTo(0, 0);
    const heading = form.querySelector("h1");
    heading.tabIndex = -1;
    heading.focus();
  };

  const close = () => {
    const was = open;
    open = null;
    was.form.remove();
    root.classList.remove("in-place");
    document.title = was.title;
    const said = status;
    status = null;
    if (said) {
      for (const old of root.querySelectorAll(":scope > .saved-status, :scope > .flash")) old.remove();
      said.tabIndex = -1;
      root.prepend(said);
      scrollTo(0, 0);
      said.focus();
    } else {
      scrollTo(0, was.y);
      if (was.from && was.from.isConnected) was.from.focus();
    }
    history.scrollRestoration = "auto";
    return was;
  };

  addEventListener("popstate", () => {
    if (!open) return;
    const was = close();
    // A record form left unsaved opens again as it was.
    if (was.form.matches("[data-session]")) left = was;
  });
  const back = (said) => {
    status = said;
    history.back();
  };

  const savedStatus = (text, undo) => {
    const said = document.createElement("div");
    said.className = "saved-status";
    said.setAttribute("role", "status");
    const words = said.appendChild(document.createElement("p"));
    words.className = "flash";
    words.textContent = text;
    if (undo) {
      const button = said.appendChild(document.createElement("button"));
      button.type = "button";
      button.className = "btn";
      button.textContent = "Undo";
      button.addEventListener("click", undo);
    }
    return said;
  };

  // The sheet as the server answered a save: its parts, and its "Hand N saved." with Undo.
  const landed = async (answer, number) => {
    const doc = parse(await answer.text());
    document.dispatchEvent(new CustomEvent("live:page", { detail: doc }));
    back(doc.querySelector(".saved-status") || savedStatus(`Hand ${number} saved.`));
    refresh();
  };

  // The grid shows each hand waiting as a row of its own, with no scores: only the server
  // scores a hand.
  const pendingRows = (mine) => {
    const body = document.querySelector("#sheet-hands .grid tbody");
    if (!body) return;
    for (const row of body.querySelectorAll("tr.pending")) row.remove();
    const columns = body.closest("table").querySelectorAll("thead th").length;
    for (const entry of mine) {
      const row = body.appendChild(document.createElement("tr"));
      row.className = "pending";
      row.id = `pending-${entry.number}`;
      const number = row.appendChild(document.createElement("th"));
      number.scope = "row";
      number.className = "hand";
      number.textContent = entry.number;
      const about = row.appendChild(document.createElement("td"));
      about.colSpan = columns - 1;
      about.textContent = `${entry.summary} · ${entry.state ? "not sent" : "not sent yet"}`;
    }
  };

  // A hand kept here says so until it is sent, then that it is saved.
  let keptSaid = null;
  const sentSince = async () => {
    if (!keptSaid || !keptSaid.said.isConnected) return;
    const { entry, said } = keptSaid;
    if ((await pending()).some((other) => other.key === entry.key)) return;
    keptSaid = null;
    said.replaceChildren(Object.assign(document.createElement("p"), { className: "flash", textContent: `Hand ${entry.number} saved.` }));
  };

  const keptHere = (entry) => {
    const undo = async () => {
      const gone = await outbox.forget(entry.key);
      const said = savedStatus(gone ? `Hand ${entry.number} taken back: it was never sent.` : `Hand ${entry.number} was sent already: undo it from the scoresheet.`);
      said.tabIndex = -1;
      root.querySelector(":scope > .saved-status").replaceWith(said);
      said.focus();
      nextDeal();
    };
    const said = savedStatus(`Hand ${entry.number} saved on this phone, not sent yet.`, undo);
    keptSaid = { entry, said };
    back(said);
    nextDeal();
  };

  const openRecord = async (link) => {
    // The form the server is sending now, if it is on its way; else the one kept.
    await keptReady;
    await refreshing;
    const mine = await pending();
    const number = Math.max(hands(), ...mine.map((entry) => entry.number)) + 1;
    const again = left;
    left = null;
    if (again && Number(again.form.elements.namedItem("number").value) === number) {
      return show(again.form, again.formTitle, link, []);
    }
    if (!kept) return location.assign(link.href);
    const form = document.adoptNode(parse(kept.html).querySelector("form"));
    const handle = recording(form, true);
    show(form, kept.title, link, kept.styles);
    // Kept before hands were recorded elsewhere, or undone: for the hand after the sheet's.
    await handle.ready;
    const next = Math.max(hands(), ...(await pending()).map((entry) => entry.number)) + 1;
    if (Number(form.elements.namedItem("number").value) !== next) handle.advanceTo(next);
  };

  // An edit needs the network: the hand is the server's to change.
  const openEdit = async (link) => {
    let doc;
    try {
      const answer = await fetch(link.href, { credentials: "same-origin", headers: { "X-Sent-By": "outbox" } });
      if (!answer.ok) return location.assign(link.href);
      doc = parse(await answer.text());
    } catch {
      const said = savedStatus("Editing a hand needs the network: try again when it is back.");
      said.tabIndex = -1;
      for (const old of root.querySelectorAll(":scope > .saved-status")) old.remove();
      root.prepend(said);
      scrollTo(0, 0);
      return said.focus();
    }
    const form = doc.querySelector("form.hand-form");
    if (!form) return location.assign(link.href);
    const { styles, title } = formOf(doc);
    editing(document.adoptNode(form));
    show(form, title, link, styles);
  };

  // An edit form sends itself; what comes back is the sheet (saved) or the form again.
  const editing = (form) => {
    const again = bindForm(form, true);
    form.addEventListener("submit", async (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const body = new FormData(form, event.submitter);
      const write = outbox.writing();
      let answer;
      try {
        answer = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
      } catch {
        write.lost();
        const output = form.querySelector("#preview");
        output.textContent = "No network: not saved. Save again when it is back.";
        output.classList.add("pending");
        return again();
      }
      try {
        if (answer.redirected && new URL(answer.url).pathname === sheetPath) {
          return await landed(answer, Number(form.elements.namedItem("editing").value));
        }
        await answered(answer, editing);
      } finally {
        write.shown();
      }
    });
  };

  // Refused or asked about: the server's form, saying why, in place of the one sent.
  const answered = async (answer, bind) => {
    const fresh = parse(await answer.text()).querySelector("form.hand-form");
    if (!fresh || !open) return location.assign(answer.url);
    document.adoptNode(fresh);
    bind(fresh);
    open.form.replaceWith(fresh);
    open.form = fresh;
    const notice = fresh.querySelector("[role=alert], .error, #cleared:not([hidden])");
    (notice || fresh.querySelector("h1")).scrollIntoView();
  };
  const recording = (form, fresh = false) => {
    const handle = outbox.bind(form, { done: landed, kept: keptHere, refused: (answer) => answered(answer, recording), fresh });
    bindForm(form, true);
    return handle;
  };

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const path = new URL(link.href).pathname;
    if (open && open.form.contains(link) && path === sheetPath) {
      event.preventDefault();
      return history.back(); // Cancel
    }
    const record = path === recordUrl && link.closest("#sheet-next");
    const edit = /\/hands\/\d+\/edit$/.test(path) && link.closest("#sheet-hands");
    if (open || !(record || edit)) return;
    event.preventDefault();
    if (opening) return; // a second tap while the first opens
    opening = true;
    (record ? openRecord : openEdit)(link).finally(() => {
      opening = false;
    });
  });

  document.addEventListener("live:updated", () => {
    nextDeal();
    if (!open) refresh();
  });
  document.addEventListener("outbox:changed", (event) => {
    pendingRows(event.detail);
    nextDeal();
    sentSince();
  });
  keptReady.then(() => {
    nextDeal();
    refresh();
  });
})();
