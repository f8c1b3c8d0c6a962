// A night from paper: players tapped from the roster into the lines, a ± beside each net (a
// phone's number pad often has no minus), a line added as the last one is filled, and what the
// nets add up to as they are typed, Save held until it is 0. The form works without this: the
// server says the same of what it is sent (`pages/nights.py`, `tally`).
"use strict";
(() => {
  const form = document.querySelector(".night-form");
  if (!form) return;
  const list = form.querySelector(".night-lines");
  const tally = document.getElementById("tally");
  const save = document.getElementById("save-night");
  const roster = form.querySelector(".roster");
  const chips = roster ? [...roster.querySelectorAll("input")] : [];
  const MAX = Number(list.dataset.max);
  // Lines shown with none typed yet: room for a usual table.
  const SHOWN = 4;
  const ADDS_UP = tally.dataset.addsUp;
  const MINUS = /^[\u2212\u2013\u2012-]/;

  const key = (name) => name.trim().toLowerCase();
  const lines = () => [...list.children];
  const who = (line) => line.querySelector(".who");
  const net = (line) => line.querySelector(".net");
  const sign = (line) => line.querySelector(".sign");
  const typed = (line) => who(line).value.trim() !== "" || net(line).value.trim() !== "";
  // A net as the server reads it: empty is 0, a sign may lead; null when it isn't a number.
  const value = (text) => {
    const t = text.replace(/[\u2212\u2013\u2012]/g, "-").replace(/ /g, "");
    if (!t) return 0;
    return /^[+-]?\d{1,6}$/.test(t) ? parseInt(t, 10) : null;
  };

  const said = () => {
    const filled = lines().filter(typed);
    for (const line of filled) {
      if (value(net(line).value) === null) {
        return `${who(line).value.trim() || "A player"}'s net is not a whole number`;
      }
    }
    if (filled.filter((line) => who(line).value.trim()).length < 2) return "Two players at least";
    const off = filled.reduce((sum, line) => sum + value(net(line).value), 0);
    return off === 0 ? ADDS_UP : `Off by ${off}`;
  };

  const blankLine = () => {
    const line = list.lastElementChild.cloneNode(true);
    who(line).value = "";
    net(line).value = "";
    list.append(line);
    wire(line);
    return line;
  };

  const refresh = () => {
    let last = -1;
    lines().forEach((line, i) => {
      if (typed(line)) last = i;
    });
    const shown = Math.min(MAX, Math.max(SHOWN, last + 2));
    while (lines().length < shown) blankLine();
    lines().forEach((line, i) => {
      const n = i + 1;
      const name = who(line).value.trim();
      const whose = name ? `${name}'s` : `player ${n}'s`;
      line.hidden = i >= shown;
      const [nameLabel, netLabel] = line.querySelectorAll("label");
      who(line).id = nameLabel.htmlFor = `player-${n}`;
      net(line).id = netLabel.htmlFor = `net-${n}`;
      nameLabel.textContent = `Player ${n}`;
      netLabel.textContent = `${name ? name : `Player ${n}`}'s net`;
      sign(line).setAttribute("aria-label", `Minus, ${whose} net`);
      sign(line).setAttribute("aria-pressed", String(MINUS.test(net(line).value.trim())));
    });
    const names = lines().map((line) => key(who(line).value));
    for (const chip of chips) chip.checked = names.includes(key(chip.value));
    const words = said();
    tally.textContent = words;
    tally.classList.toggle("off", words !== ADDS_UP);
    save.disabled = words !== ADDS_UP;
  };

  const toggleSign = (line) => {
    const field = net(line);
    const text = field.value.trim();
    if (MINUS.test(text)) field.value = text.slice(1);
    else field.value = `-${text.replace(/^\+/, "")}`;
  };

  const wire = (line) => {
    const button = sign(line);
    button.hidden = false;
    // The tap leaves the keyboard where it is, on the net.
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => {
      toggleSign(line);
      refresh();
      net(line).focus();
    });
    net(line).inputMode = "numeric";
    net(line).enterKeyHint = "next";
    who(line).enterKeyHint = "next";
    // Enter moves on to the next field instead of sending the form half filled.
    who(line).addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      net(line).focus();
    });
    net(line).addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      const next = line.nextElementSibling;
      if (next && !next.hidden) who(next).focus();
    });
  };

  if (roster) {
    roster.hidden = false;
    roster.addEventListener("change", (event) => {
      const chip = event.target;
      if (chip.checked) {
        const line = lines().find((l) => !who(l).value.trim()) || (lines().length < MAX && blankLine());
        if (line) who(line).value = chip.value;
      } else {
        const line = lines().find((l) => key(who(l).value) === key(chip.value));
        if (line) {
          who(line).value = "";
          net(line).value = "";
          list.append(line);
        }
      }
      refresh();
    });
  }

  form.querySelector(".more-lines").remove();
  lines().forEach(wire);
  list.addEventListener("input", refresh);
  refresh();
})();
