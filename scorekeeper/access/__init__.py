"""Optional access: off until a passcode is set; then a sign-in for pages and bearer tokens for
the API guard every change (role scorer) or every request (role reader). An invite, or a token
made for one session, reaches that session alone."""

from __future__ import annotations

from flask import Flask

from ..sessions.extensions import csrf
from . import models  # noqa: F401  (the tables join the metadata)
from .commands import access, how_to_set_a_passcode
from .guard import guard, may_change, scope, status
from .invite_routes import api_bp as invites_api_bp
from .invite_routes import bp as invites_bp
from .invite_routes import local_time, scorer_code, table_code
from .pages import bp
from .state import SIGN_IN_LIFETIME


def init_app(app: Flask) -> None:
    # The sign-in cookie is Flask's permanent session: signed, HttpOnly, SameSite=Lax, 30 days.
    app.config["PERMANENT_SESSION_LIFETIME"] = SIGN_IN_LIFETIME
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.register_blueprint(bp)
    app.register_blueprint(invites_bp)
    app.register_blueprint(invites_api_bp)
    csrf.exempt(invites_api_bp)
    app.before_request(guard)
    app.add_template_global(status, "access_status")
    app.add_template_global(scope, "access_scope")
    app.add_template_global(may_change)
    app.add_template_global(how_to_set_a_passcode)
    app.add_template_global(table_code)
    app.add_template_global(scorer_code)
    app.add_template_filter(local_time)
    app.cli.add_command(access)
