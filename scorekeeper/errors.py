"""One place that turns refusals and HTTP errors into answers: JSON under /api/, pages elsewhere."""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException, InternalServerError

from .extensions import db
from .rules import RuleError, SessionComplete
from .writes import Conflict, NotFound, VersionMismatch

CONFLICT = "Someone else changed this session at the same moment. Reload and try again."
STALE_FORM = (
    "This form could not be checked (it may be older than the app's last restart). "
    "Go back, reload the page and try again."
)


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_answer(status: int, message: str, field: str | None = None) -> tuple[Any, int]:
    if _wants_json():
        body: dict[str, Any] = {"error": message}
        if field is not None:
            body["field"] = field
        return body, status
    return render_template("error.html", status=status, message=message), status


def register(app: Flask) -> None:
    @app.errorhandler(RuleError)
    def refused(error: RuleError) -> tuple[Any, int]:
        db.session.rollback()
        status = 400
        if isinstance(error, SessionComplete | Conflict):
            status = 409
        elif isinstance(error, VersionMismatch):
            status = 412
        elif isinstance(error, NotFound):
            status = 404
        return error_answer(status, error.message, error.field)

    @app.errorhandler(IntegrityError)
    def conflict(_error: IntegrityError) -> tuple[Any, int]:
        db.session.rollback()
        return error_answer(409, CONFLICT)

    @app.errorhandler(CSRFError)
    def stale_form(_error: CSRFError) -> tuple[Any, int]:
        return error_answer(400, STALE_FORM)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Any, int]:
        return error_answer(error.code or 500, error.description or error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[Any, int]:
        db.session.rollback()
        app.logger.exception("Unhandled error", exc_info=error)
        return error_answer(500, InternalServerError.description)
