"""Pages for people at the table: sessions, the scoresheet, recording and correcting hands."""

from __future__ import annotations

from . import events as events  # club events' pages, which add their routes to bp too
from . import (  # noqa: F401  (each adds its routes to bp)
    hands,
    live,
    nights,
    nights_import,
    offline,
    players,
    rule_sets,
    saving,
    seats,
    sessions,
    settings,
    settle,
    table,
    tournament,
)
from . import install as install  # Install on a phone, which adds its routes to bp too
from . import seasons as seasons  # the seasons' pages, which add their routes to bp too
from . import shared as shared  # share links' pages, which add their routes to bp too
from .blueprint import bp as bp
