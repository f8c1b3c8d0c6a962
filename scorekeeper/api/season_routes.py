"""The API's seasons: a season made, listed, read with its standings, changed and deleted, each
write inside `writes.roster_write` with its Idempotency-Key."""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..exchange.json_in import json_object
from ..exchange.season_bodies import season_change, season_request
from ..insights.season_standings import standings, standings_json
from ..sessions import season_writes, writes
from .blueprint import bp
from .routes import answer_of, write_key


@bp.get("/seasons")
def list_seasons() -> dict[str, Any]:
    return {"seasons": [season_writes.season_json(season) for season in season_writes.listed()]}


@bp.post("/seasons")
def create_season() -> Response:
    given = season_request(json_object(request))
    with writes.roster_write(*write_key()) as write:
        season = season_writes.new_season(given)
        return answer_of(write.answered(201, season_writes.season_json(season)))


@bp.get("/seasons/<id(season):season_id>")
def get_season(season_id: int) -> dict[str, Any]:
    return standings_json(standings(season_writes.season_or_404(season_id)))


@bp.patch("/seasons/<id(season):season_id>")
def update_season(season_id: int) -> Response:
    given = season_change(json_object(request))
    with writes.roster_write(*write_key()) as write:
        season = season_writes.change_season(season_id, given)
        return answer_of(write.answered(200, season_writes.season_json(season)))


@bp.delete("/seasons/<id(season):season_id>")
def delete_season(season_id: int) -> Response:
    with writes.roster_write(*write_key()) as write:
        season_writes.delete_season(season_id)
        write.answered(204, None)
    return Response(status=204)
