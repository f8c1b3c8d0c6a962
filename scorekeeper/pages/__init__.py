"""Pages for people at the table: sessions, the scoresheet, recording and correcting hands."""

from __future__ import annotations

from flask import Blueprint

from .words import change_words, hand_summary, names, signed

bp = Blueprint("pages", __name__)
bp.add_app_template_filter(hand_summary)
bp.add_app_template_filter(signed)
bp.add_app_template_filter(names)
bp.add_app_template_filter(change_words)

from . import hands, players, rule_sets, seats, sessions, settings, writing  # noqa: E402, F401  (routes attach themselves to bp)
