// Share what a page offers (the night's recap, a rule set's link): the phone's share sheet
// where there is one, else copy it. A button names its text's element in data-share, and
// says what it copies in data-copy ("Copy the recap"); with data-copy-only it always copies.
"use strict";
(() => {
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

  for (const button of document.querySelectorAll("button[data-share]")) {
    const source = document.getElementById(button.dataset.share);
    const status = document.getElementById(button.dataset.status);
    if (!source || !status) continue;
    const isLink = source.tagName === "INPUT";
    const sharing = navigator.share && !("copyOnly" in button.dataset);
    button.hidden = false;
    if (!sharing) button.textContent = button.dataset.copy;
    button.addEventListener("click", () => {
      const text = isLink ? source.value : source.textContent;
      if (sharing) {
        const shared = isLink ? { title: button.dataset.title, url: text } : { title: button.dataset.title, text };
        navigator.share(shared).catch(() => {});
        return;
      }
      copy(text).then((copied) => {
        status.textContent = copied ? button.dataset.copied : "Select the text above and copy it.";
      });
    });
  }
})();
