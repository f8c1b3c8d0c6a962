// Seat rows to add, remove and reorder, tap-to-seat players, the first dealer and the rules
// following the seats, and the rounds stepper. The form works without this (eight rows).
"use strict";
(() => {
  const form = document.querySelector(".new-session");
  if (!form) return;
  const MIN = 3;
  const START = 5;
  const rows = [...form.querySelectorAll(".seats li")];
  const seats = rows.map((row) => row.querySelector("input"));
  const dealer = document.getElementById("first_dealer");
  const roster = form.querySelector(".roster");
  const chips = roster ? [...roster.querySelectorAll("input")] : [];
  const add = form.querySelector(".add-seat");
  const partner = document.getElementById("rule-partner");
  const sittingOut = document.getElementById("rule-sitting_out");
  const key = (name) => name.trim().toLowerCase();
  const filled = () => seats.reduce((n, seat, i) => (seat.value.trim() ? i + 1 : n), 0);
  // Rows shown: at least five to start with, and never fewer than the names typed.
  let shown = Math.max(START, filled());

  const partnerInput = (value) => partner.querySelector(`input[value="${value}"]`);
  const usualPartner = (seated) => (seated <= 4 ? "alone" : "jack_of_diamonds");
  const checkedPartner = () => partner.querySelector("input:checked")?.value;
  // The partner rule follows the size until someone chooses one.
  const size = () => (filled() >= MIN ? filled() : shown);
  // The rule someone chose (or a shared link gave), kept while three seated force alone.
  let partnerChosen =
    "partnerChosen" in form.dataset || checkedPartner() !== usualPartner(size()) ? checkedPartner() : null;
  partner.addEventListener("change", () => {
    partnerChosen = checkedPartner();
  });

  const refresh = () => {
    const seated = filled();
    rows.forEach((row, i) => {
      row.hidden = i >= shown;
      row.querySelector(".up").disabled = i === 0;
      row.querySelector(".down").disabled = i >= shown - 1;
      row.querySelector(".remove").disabled = shown <= MIN;
    });
    add.hidden = shown >= rows.length;
    const names = seats.map((seat) => key(seat.value));
    for (const chip of chips) chip.checked = names.includes(key(chip.value));
    seats.forEach((seat, i) => {
      const option = dealer.options[i];
      option.text = `Seat ${i + 1}` + (seat.value.trim() ? ` · ${seat.value.trim()}` : "");
      option.hidden = option.disabled = i >= shown;
    });
    if (dealer.selectedIndex >= shown) dealer.selectedIndex = 0;

    // Three seated play only alone; the usual rule follows the size until one is chosen.
    const three = size() === MIN;
    for (const input of partner.querySelectorAll("input")) {
      input.closest("label").hidden = three && input.value !== "alone";
    }
    if (three || !partnerChosen) partnerInput(usualPartner(size())).checked = true;
    else partnerInput(partnerChosen).checked = true;
    sittingOut.hidden = seated < 6;
  };

  const move = (from, to) => {
    [seats[from].value, seats[to].value] = [seats[to].value, seats[from].value];
  };

  rows.forEach((row, i) => {
    row.querySelector(".moves").hidden = false;
    row.querySelector(".up").addEventListener("click", () => {
      move(i, i - 1);
      refresh();
      seats[i - 1].focus();
    });
    row.querySelector(".down").addEventListener("click", () => {
      move(i, i + 1);
      refresh();
      seats[i + 1].focus();
    });
    row.querySelector(".remove").addEventListener("click", () => {
      for (let j = i; j < shown - 1; j++) seats[j].value = seats[j + 1].value;
      seats[shown - 1].value = "";
      shown -= 1;
      refresh();
      seats[Math.min(i, shown - 1)].focus();
    });
  });

  add.hidden = false;
  add.addEventListener("click", () => {
    shown += 1;
    refresh();
    seats[shown - 1].focus();
  });

  if (roster) {
    roster.hidden = false;
    roster.addEventListener("change", (event) => {
      const chip = event.target;
      if (chip.checked) {
        let seat = seats.slice(0, shown).find((s) => !s.value.trim());
        if (!seat && shown < seats.length) seat = seats[shown++];
        if (seat) seat.value = chip.value;
      } else {
        const seat = seats.find((s) => key(s.value) === key(chip.value));
        if (seat) seat.value = "";
      }
      refresh();
    });
  }

  const rounds = document.getElementById("rounds");
  form.querySelectorAll(".step").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const n = (parseInt(rounds.value, 10) || 0) + Number(button.dataset.step);
      rounds.value = String(Math.min(100, Math.max(0, n)));
    });
  });

  document.getElementById("seats-hint").textContent = "Three to eight players, clockwise.";
  seats.forEach((seat) => seat.addEventListener("input", refresh));
  refresh();
})();
