"""The JSON API of API.md, for scripts, integrations and tests."""

from __future__ import annotations

from . import events, imports, routes, schema, seasons, tournament  # noqa: F401  (each adds its routes to bp)
from .blueprint import bp as bp
