"""The stylesheet, sent inside every page: a phone on a slow network paints after one round
trip instead of two. The Content-Security-Policy allows exactly this text by its hash."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app
from markupsafe import Markup


@dataclass(frozen=True)
class Stylesheet:
    text: str
    # The CSP source that allows this text in a <style> element: 'sha256-...'.
    source: str
    modified: float


COMMENT = re.compile(r"/\*.*?\*/", re.S)
SPACE = re.compile(r"\s+")
AROUND = re.compile(r" ?([{};,>]) ?")


def minified(css: str) -> str:
    """The stylesheet without its comments and the spaces nothing needs: every page carries it.
    (Its strings hold no runs of spaces, which this would shorten.)"""
    css = SPACE.sub(" ", COMMENT.sub("", css))
    return AROUND.sub(r"\1", css).replace(";}", "}").strip()


def _read(path: Path) -> Stylesheet:
    text = minified(path.read_text(encoding="utf-8"))
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return Stylesheet(text, f"'sha256-{digest}'", path.stat().st_mtime)


def current() -> Stylesheet:
    """The stylesheet as the file is now: read again when it has changed, so an edit shows on
    the next page without a restart."""
    path = Path(current_app.static_folder or "") / "style.css"
    held: Stylesheet = current_app.extensions["stylesheet"]
    if path.stat().st_mtime != held.modified:
        held = current_app.extensions["stylesheet"] = _read(path)
    return held


def inline_style() -> Markup:
    return Markup(current().text)


def register(app: Flask) -> None:
    app.extensions["stylesheet"] = _read(Path(app.static_folder or "") / "style.css")
    app.add_template_global(inline_style)
