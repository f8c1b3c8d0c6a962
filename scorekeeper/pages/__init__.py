"""Pages for people: the sessions list, a session's scoresheet and its CSV download."""

from __future__ import annotations

from flask import Blueprint

from .words import hand_summary

bp = Blueprint("pages", __name__)
bp.add_app_template_filter(hand_summary)

from . import routes  # noqa: E402, F401  (routes attach themselves to bp)
