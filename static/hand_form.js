// Live score preview and small conveniences for the hand form. The form works without this.
// It binds to the page's form, and to one the scoresheet opens in place (window.handForm).
"use strict";
(() => {
  // Back online, what each save bar said offline is said again from the network: by every
  // bound form still in the page (one opened in place goes when the sheet replaces it).
  const previews = new Map();
  addEventListener("online", () => {
    for (const [form, preview] of previews) {
      if (form.isConnected) preview();
      else previews.delete(form);
    }
  });
  const bind = (form, inPlace = false) => {
    const find = (id) => form.querySelector(`#${id}`);
    const output = find("preview");
    const picking = find("picking_points");
    const opponents = find("opponent_points");
    form.querySelector(".preview-button").hidden = true;

    let timer = 0;
    let asked = 0;
    const cannot = () => {
      output.textContent = "No preview offline: the hand is scored when it is sent.";
      output.classList.add("pending");
    };
    const preview = () => {
      const body = new FormData(form);
      const ask = ++asked;
      if (navigator.onLine === false) return cannot();
      fetch(form.dataset.preview, { method: "POST", body, credentials: "same-origin" })
        .then((response) => response.json())
        .then((answer) => {
          if (ask !== asked) return;
          // A refusal is said once: a disagreeing result at the result, where the server may say
          // it already, and one the server says beside another field there alone.
          const atResult = Boolean(live) && answer.field === "result";
          const saidAbove = Array.from(form.querySelectorAll(".error")).some((said) => said.textContent === answer.error);
          const instead = atResult ? "No preview: see the result." : saidAbove ? "No preview: see above." : answer.error;
          output.textContent = answer.preview || instead || "";
          output.classList.toggle("pending", !answer.preview);
          if (live) {
            const said = find("result-error");
            live.textContent = atResult && !(said && said.textContent === answer.error) ? answer.error : "";
            live.hidden = !live.textContent;
          }
        })
        .catch(() => {
          if (ask === asked) cannot();
        });
    };

    const isShown = (el) => el.getClientRects().length > 0;
    const cleared = find("cleared");
    const why = {
      partner: (picker) => `${picker} picked, so can't be their own partner.`,
      cracked_by: (picker) => `only a player who bid after ${picker} can crack.`,
    };
    const tidy = () => {
      // A choice another hides is dropped, saying which and why.
      const said = [];
      const picked = form.querySelector('input[name="picker"]:checked');
      const picker = picked && isShown(picked.closest("fieldset")) ? picked.value : form.dataset.forced;
      for (const input of form.querySelectorAll("input[type=radio]:checked")) {
        if (isShown(input.closest("label")) || !isShown(input.closest("fieldset"))) continue;
        input.checked = false;
        const none = form.querySelector(`input[name="${input.name}"][value=""]`);
        if (none && isShown(none.closest("label"))) none.checked = true;
        const legend = input.closest("fieldset").querySelector("legend").textContent;
        const reason = why[input.name] ? why[input.name](picker) : "it no longer applies.";
        said.push(`${legend} ${input.value} cleared: ${reason}`);
      }
      if (said.length) {
        cleared.textContent = said.join(" ");
        cleared.hidden = false;
      }
    };

    const live = find("result-live");
    // The result typed points give on their own, as the engine reads them: the page sends the
    // least points of each result, most first, and the points a hand has.
    const ROWS = JSON.parse(form.dataset.results);
    const TOTAL = Number(form.dataset.points);
    // A result tapped stays as tapped (a disagreement is said, never mended); one the points
    // chose follows the points, and goes with them.
    let chosenByPoints = null;
    const pickResult = (points) => {
      const checked = form.querySelector('input[name="result"]:checked');
      if (checked && checked !== chosenByPoints) return;
      const row = points === null ? undefined : ROWS.find(([low]) => points >= low);
      const input = row ? form.querySelector(`input[name="result"][value="${row[1]}"]`) : null;
      if (checked) checked.checked = false;
      if (input) input.checked = true;
      chosenByPoints = input;
    };

    const complement = (from, to, picking) => {
      const typed = from.value.trim();
      if (typed !== "") to.value = "";
      const n = Number(typed);
      const valid = typed !== "" && Number.isInteger(n) && n >= 0 && n <= TOTAL;
      to.placeholder = valid ? String(TOTAL - n) : "";
      pickResult(valid ? (picking ? n : TOTAL - n) : null);
    };
    picking.addEventListener("input", () => complement(picking, opponents, true));
    opponents.addEventListener("input", () => complement(opponents, picking, false));

    // Typed points show their result, as an edit form opens with the points only.
    if (!form.querySelector('input[name="result"]:checked')) {
      if (picking.value.trim() !== "") complement(picking, opponents, true);
      else if (opponents.value.trim() !== "") complement(opponents, picking, false);
    }

    form.addEventListener("change", (event) => {
      if (event.target.name === "result") chosenByPoints = null;
      tidy();
    });
    // Another dealer on the edit form: the form comes again for that dealer before any save.
    const dealer = form.querySelector("select#dealer");
    if (dealer) dealer.addEventListener("change", () => form.requestSubmit(form.querySelector(".preview-button")));
    // A refusal the server put beside a field is about the form as it was sent: it goes once that
    // field changes, and the preview says what is still wrong. The points take the result's
    // with theirs, as the result follows them; a leaster's counts share one.
    const refusalsOf = (name) => {
      if (name === "picking_points" || name === "opponent_points") return ["picking_points", "opponent_points", "result"];
      if (name === "red_blitz") return ["black_blitz"];
      return [/^(points|tricks)-\d+$/.test(name) ? "points" : name];
    };
    const unrefuse = (name) => {
      for (const field of refusalsOf(name)) {
        const said = find(`${field}-error`);
        if (!said) continue;
        for (const described of form.querySelectorAll(`[aria-describedby~="${said.id}"]`)) {
          const rest = described.getAttribute("aria-describedby").split(/\s+/).filter((id) => id && id !== said.id);
          if (rest.length) described.setAttribute("aria-describedby", rest.join(" "));
          else described.removeAttribute("aria-describedby");
          described.removeAttribute("aria-invalid");
        }
        said.remove();
      }
    };
    form.addEventListener("input", (event) => {
      if (event.target.name) unrefuse(event.target.name);
      // An answer for what the form said before is never left standing.
      asked++;
      output.textContent = "";
      clearTimeout(timer);
      timer = setTimeout(preview, 120);
    });

    // Back to a sent form (reloaded with a new key, choices refilled): its old key again, so
    // Save lands on the hand saved then. A form opened in place is never one come back to.
    const sentKey = `sent ${location.pathname}`;
    const fields = ["write_key", "number"];
    const [visit] = performance.getEntriesByType("navigation");
    const before = !inPlace && visit && visit.type === "back_forward" && sessionStorage.getItem(sentKey);
    if (before) {
      const was = JSON.parse(before);
      for (const name of fields) {
        const input = form.elements.namedItem(name);
        if (input && was[name]) input.value = was[name];
      }
    }

    let sent = false;
    form.addEventListener("submit", (event) => {
      if (sent) event.preventDefault();
      sent = true;
      if (inPlace || (event.submitter && event.submitter.name === "preview")) return;
      const was = {};
      for (const name of fields) {
        const input = form.elements.namedItem(name);
        if (input) was[name] = input.value;
      }
      sessionStorage.setItem(sentKey, JSON.stringify(was));
    });
    // The outbox keeps a hand saved with no network and resets the form for the next one.
    form.addEventListener("reset", () => {
      sent = false;
      chosenByPoints = null;
      clearTimeout(timer);
      timer = setTimeout(preview, 0);
    });
    previews.set(form, preview);
    if (!output.textContent.trim()) preview();
    // Sent in place and not landed (no network): Save may be tapped again.
    return () => {
      sent = false;
    };
  };
  window.handForm = bind;
  const form = document.querySelector(".hand-form");
  if (form) bind(form);
})();
