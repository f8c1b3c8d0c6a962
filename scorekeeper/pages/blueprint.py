"""The pages' blueprint, which each page module adds its routes to, and the template filters the
pages share."""

from __future__ import annotations

from flask import Blueprint

from ..insights.dates import day_of, local
from .words import (
    amount_words,
    change_words,
    changed_player,
    currency,
    hand_summary,
    money,
    money_won,
    names,
    signed,
    undone_elsewhere,
)

bp = Blueprint("pages", __name__)
bp.add_app_template_filter(hand_summary)
bp.add_app_template_filter(signed)
bp.add_app_template_filter(names)
bp.add_app_template_filter(change_words)
bp.add_app_template_filter(changed_player)
bp.add_app_template_filter(undone_elsewhere)
bp.add_app_template_filter(money)
bp.add_app_template_filter(money_won)
bp.add_app_template_filter(amount_words, "amount")
bp.add_app_template_global(currency)
bp.add_app_template_filter(day_of, "day")
bp.add_app_template_filter(local)
