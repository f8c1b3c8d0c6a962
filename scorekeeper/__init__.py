"""The Sheepshead scorekeeper: a Flask app for recording hands at the card table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from . import access, api, pages
from .commands import register_commands
from .config import configure
from .sessions import live
from .sessions.database import register_database
from .sessions.extensions import compress, csrf, db, migrate
from .web import errors, ids, logs, scripts, security, stylesheet

PACKAGE = Path(__file__).parent


def asset_folder(name: str) -> str:
    """Templates and static files: inside the installed package, else the checkout's top level."""
    packaged = PACKAGE / name
    return str(packaged if packaged.is_dir() else PACKAGE.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=asset_folder("templates"),
        static_folder=asset_folder("static"),
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    configure(app, test_config)
    if proxies := app.config["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    register_extensions(app)
    # The security checks come first: they refuse hostile requests before anything reads the
    # database, the access check included.
    security.register(app)
    stylesheet.register(app)
    scripts.register(app)
    app.url_map.converters["id"] = ids.IdConverter
    access.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    errors.register(app)
    register_commands(app)
    logs.register(app)
    return app


def register_extensions(app: Flask) -> None:
    db.init_app(app)
    register_database(app)
    live.register(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    csrf.exempt(api.bp)
    compress.init_app(app)
    # Registered after Compress so that it runs before it.
    app.after_request(read_static_file_whole)


def read_static_file_whole(response: Response) -> Response:
    """A static file (a few KB: the icons and the service worker too) read whole and closed at
    once, so that it is compressed like a page and no open file waits on a phone that hung up;
    a file answer is otherwise a stream, which goes uncompressed."""
    if (
        request.endpoint in ("static", "pages.favicon", "pages.service_worker")
        and response.is_streamed
        and response.status_code == 200
    ):
        opened = response.response
        response.direct_passthrough = False
        response.make_sequence()
        getattr(opened, "close", lambda: None)()
    return response
