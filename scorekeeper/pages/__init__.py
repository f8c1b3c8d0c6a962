"""Pages for people at the table: sessions, the scoresheet, recording and correcting hands."""

from __future__ import annotations

from . import (  # noqa: F401  (each adds its routes to bp)
    event_pages,
    hands,
    install,
    live,
    nights,
    nights_import,
    offline,
    players,
    rule_sets,
    saving,
    season_pages,
    seats,
    sessions,
    settings,
    settle,
    shared,
    table,
    tournament,
)
from .blueprint import bp as bp
