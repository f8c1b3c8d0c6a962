"""The app's extensions, created unbound and initialised in the factory."""

from __future__ import annotations

from pathlib import Path

from flask import Response
from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate(directory=str(Path(__file__).parent.parent / "migrations"), render_as_batch=True)
csrf = CSRFProtect()


class RefusalsCompressed(Compress):
    """flask-compress, which compresses a 2xx answer alone, for the pages a refusal answers
    with too: a form again with its errors (400) or a page not found (404) reaches a phone as
    small as the page it stands in for."""

    def after_request(self, response: Response | None) -> Response:
        if (
            response is None
            or response.mimetype != "text/html"
            or not 400 <= response.status_code < 500
        ):
            return super().after_request(response)
        status = response.status
        response.status_code = 200
        try:
            return super().after_request(response)
        finally:
            response.status = status


compress = RefusalsCompressed()
