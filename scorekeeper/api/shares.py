"""The API's share links: a link made to a season, a club event or a session (its `url` answered
once, as only its secret's hash is kept), every link listed, and a link revoked; each write
with its Idempotency-Key, through the write that holds the lock of what the link shows."""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..exchange.json_in import json_object
from ..exchange.season_bodies import share_request
from ..sessions import shares, writes
from ..sessions.errors import NotFound
from ..web import hosts
from .blueprint import bp
from .routes import answer_of, write_key


@bp.get("/shares")
def list_shares() -> dict[str, Any]:
    return {"shares": [shares.share_json(listed.link) for listed in shares.listed()]}


@bp.post("/shares")
def create_share() -> Response:
    kind, target = share_request(json_object(request))
    with shares.share_write(kind, target, *write_key()) as write:
        link, token = shares.new_share(kind, target)
        url = hosts.lan_url("pages.shared_page", token=token)
        return answer_of(write.answered(201, shares.share_json(link, url)))


@bp.delete("/shares/<id(share_link):link_id>")
def revoke_share(link_id: int) -> Response:
    with writes.roster_write(*write_key()) as write:
        if shares.revoke(link_id) is None:
            raise NotFound(f"There is no share link {link_id}.", "id")
        write.answered(204, None)
    return Response(status=204)
