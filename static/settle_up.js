// Share the night's recap: the phone's share sheet where there is one, else copy it.
"use strict";
(() => {
  const button = document.querySelector(".share-button");
  const recap = document.getElementById("recap");
  const status = document.querySelector(".share-status");
  if (!button || !recap) return;

  // Without a secure context (a LAN address over http) there is no clipboard API: copy the
  // old way, from a selected text box.
  const copyOldWay = (text) => {
    const box = document.createElement("textarea");
    box.value = text;
    box.setAttribute("readonly", "");
    box.className = "offscreen";
    document.body.append(box);
    box.select();
    const copied = document.execCommand("copy");
    box.remove();
    return copied;
  };
  const copy = (text) =>
    navigator.clipboard
      ? navigator.clipboard.writeText(text).then(() => true, () => copyOldWay(text))
      : Promise.resolve(copyOldWay(text));

  button.hidden = false;
  if (!navigator.share) button.textContent = "Copy the recap";
  button.addEventListener("click", () => {
    const text = recap.textContent;
    if (navigator.share) {
      navigator.share({ title: button.dataset.title, text }).catch(() => {});
      return;
    }
    copy(text).then((copied) => {
      status.textContent = copied ? "Recap copied: paste it into a message." : "Select the recap above and copy it.";
    });
  });
})();
