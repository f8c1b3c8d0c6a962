"""The API's blueprint, which the routes and the OpenAPI document are added to."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")
