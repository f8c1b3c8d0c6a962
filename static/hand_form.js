// Live score preview and small conveniences for the hand form. The form works without this.
"use strict";
(() => {
  const form = document.querySelector(".hand-form");
  if (!form) return;
  const output = document.getElementById("preview");
  const picking = document.getElementById("picking_points");
  const opponents = document.getElementById("opponent_points");
  form.querySelector(".preview-button").hidden = true;

  let timer = 0;
  let asked = 0;
  const preview = () => {
    const body = new FormData(form);
    const ask = ++asked;
    fetch(form.dataset.preview, { method: "POST", body, credentials: "same-origin" })
      .then((response) => response.json())
      .then((answer) => {
        if (ask !== asked) return;
        output.textContent = answer.preview || answer.error || "";
        output.classList.toggle("pending", !answer.preview);
      })
      .catch(() => {});
  };

  const isShown = (el) => el.getClientRects().length > 0;
  const tidy = () => {
    // A choice hidden by another (a crack by an earlier bidder, the picker as partner) is dropped.
    for (const input of form.querySelectorAll("input[type=radio]:checked")) {
      if (!isShown(input.closest("label"))) {
        input.checked = false;
        const none = form.querySelector(`input[name="${input.name}"][value=""]`);
        if (none && isShown(none.closest("label"))) none.checked = true;
      }
    }
  };

  const complement = (from, to) => {
    if (from.value.trim() !== "") to.value = "";
    const n = Number(from.value);
    to.placeholder = from.value.trim() !== "" && n >= 0 && n <= 120 ? String(120 - n) : "";
  };
  picking.addEventListener("input", () => complement(picking, opponents));
  opponents.addEventListener("input", () => complement(opponents, picking));

  form.addEventListener("change", tidy);
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  });

  let sent = false;
  form.addEventListener("submit", (event) => {
    if (sent) event.preventDefault();
    sent = true;
  });
  if (!output.textContent.trim()) preview();
})();
