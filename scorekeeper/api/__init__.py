"""The JSON API of API.md, for scripts, integrations and tests."""

from __future__ import annotations

from . import (  # noqa: F401  (each adds its routes to bp)
    event_routes,
    imports,
    routes,
    schema,
    season_routes,
    shares,
    tournament,
)
from .blueprint import bp as bp
