"""The stylesheets, sent inside every page: a phone on a slow network paints after one round
trip instead of two. `style.css` is in every page. The pages a player opens at the table carry
only what they use besides it: the hand form `form.css`, the scoresheet `sheet.css`, the home
page `sessions.css` (the lists of sessions) and the table view `tv.css`; other pages carry what
they use of these and `pages.css`, the rest's rules. The Content-Security-Policy allows exactly
these texts by their hashes.

What the scoresheet shows below its first screen, the grid and the chart, is styled by
`grid.css`, which it links just above them instead: the parser waits at the link, so the first
screen paints without laying out the grid and the chart first. The link's address carries the
text's version, so a phone fetches it once and keeps it."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, url_for
from markupsafe import Markup

NAMES = ("style.css", "form.css", "sheet.css", "grid.css", "sessions.css", "tv.css", "pages.css")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
SPACE = re.compile(r"\s+")
AROUND = re.compile(r" ?([{};,>]) ?")


@dataclass(frozen=True)
class Stylesheet:
    text: str
    # The CSP source that allows this text in a <style> element: 'sha256-...'.
    source: str
    # The start of its SHA-256 in hex, in the address of the linked copy.
    version: str
    modified: float


def minified(css: str) -> str:
    """A stylesheet without its comments and the spaces nothing needs: every page carries it.
    (Its strings hold no runs of spaces, which this would shorten.)"""
    css = SPACE.sub(" ", COMMENT.sub("", css))
    return AROUND.sub(r"\1", css).replace(";}", "}").strip()


def _read(path: Path) -> Stylesheet:
    text = minified(path.read_text(encoding="utf-8"))
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    source = f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
    return Stylesheet(text, source, digest.hex()[:16], path.stat().st_mtime)


def current(name: str) -> Stylesheet:
    """A stylesheet as its file is now: read again when it has changed, so an edit shows on
    the next page without a restart."""
    path = Path(current_app.static_folder or "") / name
    held: dict[str, Stylesheet] = current_app.extensions["stylesheets"]
    if path.stat().st_mtime != held[name].modified:
        held[name] = _read(path)
    return held[name]


def sources() -> str:
    """The CSP sources of every stylesheet."""
    return " ".join(current(name).source for name in NAMES)


def inline_style(name: str = "style.css") -> Markup:
    return Markup(current(name).text)


def linked_style(name: str) -> Markup:
    address = url_for(
        "pages.linked_stylesheet", name=name.removesuffix(".css"), v=current(name).version
    )
    return Markup('<link rel="stylesheet" href="{}">').format(address)


def register(app: Flask) -> None:
    folder = Path(app.static_folder or "")
    app.extensions["stylesheets"] = {name: _read(folder / name) for name in NAMES}
    app.add_template_global(inline_style)
    app.add_template_global(linked_style)
