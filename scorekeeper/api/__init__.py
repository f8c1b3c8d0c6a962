"""The JSON API of API.md, for scripts, integrations and tests."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from . import routes, schema  # noqa: E402, F401  (routes attach themselves to bp)
