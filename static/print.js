// A page made to be printed: its Print button (hidden until this runs) opens the print dialog.
"use strict";
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => print());
}
