"""The API's imports: a spreadsheet of nights kept without hands (`exchange/nights_in.py`), sent
as CSV or as JSON with the answers to its questions, inside `writes.roster_write` with its
Idempotency-Key."""

from __future__ import annotations

from flask import Response, request

from ..exchange import nights_in
from ..exchange.json_in import json_object
from ..exchange.session_bodies import nights_import_csv, nights_import_request
from ..insights.dates import days_of, start_of
from ..sessions import writes
from .blueprint import bp
from .routes import answer_of, write_key

CSV = "text/csv"


@bp.post("/imports/nights")
def import_nights() -> Response:
    if request.mimetype == CSV:
        given = nights_import_csv(request)
    else:
        given = nights_import_request(json_object(request))
    days = nights_in.Days(start_of, days_of)
    with writes.roster_write(*write_key()) as write:
        imported = nights_in.import_nights(given.csv, given.answers, days)
        return answer_of(write.answered(201, imported.json()))
