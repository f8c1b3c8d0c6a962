"""One place that turns refusals and HTTP errors into answers: JSON under /api/, pages elsewhere."""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError, OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError

from ..rules import RuleError
from ..sessions.database import database_busy
from ..sessions.extensions import db

CONFLICT = "Someone else changed this session at the same moment. Reload and try again."
BUSY = "The scorekeeper is busy saving a restore or an import. Try again in a moment."
BUSY_RETRY_SECONDS = 2
STALE_FORM = (
    "This form could not be checked (it may be older than the app's last restart). "
    "Go back, reload the page and try again."
)


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_answer(
    status: int,
    message: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
    more: dict[str, Any] | None = None,
) -> tuple[Any, int, dict[str, str]]:
    """A refusal: JSON under /api/ (with `more` keys), else the error page."""
    if _wants_json():
        body: dict[str, Any] = {"error": message}
        if field is not None:
            body["field"] = field
        return body | (more or {}), status, headers or {}
    return render_template("error.html", status=status, message=message), status, headers or {}


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> tuple[Any, int, dict[str, str]]:
        db.session.rollback()
        return error_answer(error.status, error.message, error.field, more=error.more())

    @app.errorhandler(IntegrityError)
    def conflict(_error: IntegrityError) -> tuple[Any, int, dict[str, str]]:
        db.session.rollback()
        return error_answer(409, CONFLICT)

    @app.errorhandler(CSRFError)
    def stale_form(_error: CSRFError) -> tuple[Any, int, dict[str, str]]:
        return error_answer(400, STALE_FORM)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int, dict[str, str]]:
        # Keep what the error says about itself, such as the methods a 405 allows.
        headers = {
            name: value for name, value in error.get_headers() if name.lower() != "content-type"
        }
        return error_answer(error.code or 500, error.description or error.name, headers=headers)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Any, int, dict[str, str]]:
        db.session.rollback()
        app.logger.exception("Unhandled error", exc_info=error)
        return error_answer(500, InternalServerError.description)

    @app.errorhandler(OperationalError)
    def busy(error: OperationalError) -> tuple[Any, int, dict[str, str]]:
        db.session.rollback()
        if not database_busy(error):
            return unexpected(error)
        return error_answer(503, BUSY, headers={"Retry-After": str(BUSY_RETRY_SECONDS)})
