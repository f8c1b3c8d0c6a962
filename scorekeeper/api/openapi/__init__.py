"""The OpenAPI 3.1 document of the JSON API (API.md): its data shapes (schemas.py) and its
operations with the parameters, headers and error answers they share (paths.py)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .paths import components, paths
from .schemas import BODY_EXAMPLES, schemas

__all__ = ["BODY_EXAMPLES", "document"]


@cache
def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Sheepshead scorekeeper",
            "version": "1",
            "description": (
                'JSON in and out. Whole numbers are JSON integers: `60.0`, `"60"` and `true` '
                "are refused where a number is asked. Every error is "
                '`{"error": <sentence>, "field": <field>}` and changes nothing; an unknown '
                "path under `/api/` is a JSON 404 and a method a path does not take a JSON 405."
            ),
        },
        "servers": [{"url": "/"}],
        "security": [{}, {"bearer": []}],
        "paths": paths(),
        "components": {
            "schemas": schemas(),
            **components(),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Only when access is on: a token from `flask --app "
                    "scorekeeper access create-token NAME`.",
                }
            },
        },
    }
