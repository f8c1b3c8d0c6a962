// Tap-to-seat players, seat reordering and the rounds stepper. The form works without this.
"use strict";
(() => {
  const form = document.querySelector(".new-session");
  if (!form) return;
  const seats = [...form.querySelectorAll(".seats input")];
  const dealer = document.getElementById("first_dealer");
  const roster = form.querySelector(".roster");
  const chips = roster ? [...roster.querySelectorAll("input")] : [];
  const key = (name) => name.trim().toLowerCase();

  const refresh = () => {
    const seated = seats.map((seat) => key(seat.value));
    for (const chip of chips) chip.checked = seated.includes(key(chip.value));
    seats.forEach((seat, i) => {
      dealer.options[i].text = `Seat ${i + 1}` + (seat.value.trim() ? ` · ${seat.value.trim()}` : "");
    });
  };

  if (roster) {
    roster.hidden = false;
    roster.addEventListener("change", (event) => {
      const chip = event.target;
      const seat = chip.checked
        ? seats.find((s) => !s.value.trim())
        : seats.find((s) => key(s.value) === key(chip.value));
      if (seat) seat.value = chip.checked ? chip.value : "";
      refresh();
    });
  }

  form.querySelectorAll(".seats .up").forEach((button, i) => {
    if (i === 0) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      [seats[i - 1].value, seats[i].value] = [seats[i].value, seats[i - 1].value];
      refresh();
    });
  });

  const rounds = document.getElementById("rounds");
  form.querySelectorAll(".step").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      const n = (parseInt(rounds.value, 10) || 0) + Number(button.dataset.step);
      rounds.value = String(Math.min(100, Math.max(0, n)));
    });
  });

  seats.forEach((seat) => seat.addEventListener("input", refresh));
  refresh();
})();
