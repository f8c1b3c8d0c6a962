"""GET /api/openapi.json: the API described by an OpenAPI 3.1 document."""

from __future__ import annotations

from typing import Any

from .blueprint import bp
from .openapi import document


@bp.get("/openapi.json")
def openapi_document() -> dict[str, Any]:
    return document()
