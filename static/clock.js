// Times of day in the phone's own clock: a <time data-clock> shows its datetime as the phone's
// language writes one ("03:10 PM" in the US, "15:10" in Germany), with the weekday when
// data-clock is "day"; until then it shows the server's words. The board's "Updated at" is one
// too, so an invite's expiry and the board read alike. Shown again when a live page swaps in
// new regions.
"use strict";
(() => {
  const time = { hour: "2-digit", minute: "2-digit" };
  const formats = {
    time: new Intl.DateTimeFormat(undefined, time),
    day: new Intl.DateTimeFormat(undefined, { weekday: "short", ...time }),
  };
  const show = () => {
    for (const element of document.querySelectorAll("time[data-clock]")) {
      const moment = new Date(element.dateTime);
      if (Number.isNaN(moment.getTime())) continue;
      element.textContent = (formats[element.dataset.clock] || formats.time).format(moment);
    }
  };
  show();
  document.addEventListener("live:updated", show);
})();
