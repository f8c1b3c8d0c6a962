"""The scripts of the pages a player opens at the table, each page's in one file: every script a
page names costs a slow phone's main thread a request before it parses the page, so one instead
of four lets the page paint sooner. A bundle is the scripts of `static/` in order, ours without
their comment lines and indentation (for their readers, not for the phone), vendored ones as
they came: ours declare nothing at the top level, so they share no names."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, url_for
from markupsafe import Markup

BUNDLES: dict[str, tuple[str, ...]] = {
    # The hand form's own script first: its handlers of Save come before the outbox's.
    "record": ("register.js", "hand_form.js", "vendor/idb-keyval/idb-keyval.js", "outbox.js"),
    "edit": ("register.js", "hand_form.js"),
    # The scoresheet opens the hand form in place: the form's scripts, then its own.
    "sheet": (
        "register.js",
        "hand_form.js",
        "vendor/idb-keyval/idb-keyval.js",
        "outbox.js",
        "sheet_form.js",
        "sheet_forms.js",
        "live.js",
        "clock.js",
    ),
    "table": ("register.js", "live.js", "clock.js"),
    "board": ("register.js", "clock.js", "board.js"),
    # An invite's sheet and a round's table cards, which show when invites expire.
    "invite": ("register.js", "share.js", "clock.js"),
    # A share link's sheet: Copy, and when its links were made.
    "share": ("register.js", "share.js", "clock.js"),
    "cards": ("register.js", "clock.js"),
    "print": ("register.js", "print.js"),
    "night": ("register.js", "night_form.js"),
}


# A line that is only a comment, and a line's indentation. (No string of ours spans lines, so
# none is cut into.)
COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.M)
INDENTATION = re.compile(r"^[ \t]+", re.M)


@dataclass(frozen=True)
class Bundle:
    text: str
    etag: str
    modified: tuple[float, ...]


def _modified(name: str) -> tuple[float, ...]:
    folder = Path(current_app.static_folder or "")
    return tuple((folder / part).stat().st_mtime for part in BUNDLES[name])


def bundle(name: str) -> Bundle:
    """A page's scripts as one, read again when one of its files has changed."""
    held: dict[str, Bundle] = current_app.extensions["script_bundles"]
    modified = _modified(name)
    if name not in held or held[name].modified != modified:
        folder = Path(current_app.static_folder or "")
        text = "\n;\n".join(script(folder / part, part) for part in BUNDLES[name])
        etag = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        held[name] = Bundle(text, etag, modified)
    return held[name]


def script(path: Path, part: str) -> str:
    """One script as a bundle carries it."""
    text = path.read_text(encoding="utf-8")
    if part.startswith("vendor/"):
        return text
    return INDENTATION.sub("", COMMENT_LINE.sub("", text))


def page_scripts(name: str) -> Markup:
    return Markup('<script src="{}" defer></script>').format(
        url_for("pages.page_scripts", name=name)
    )


def register(app: Flask) -> None:
    app.extensions["script_bundles"] = {}
    app.add_template_global(page_scripts)
