"""Configuration: defaults, then instance/config.py, then the environment, then test settings."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

SECRET_KEY_FILE = "secret_key"


def database_url(url: str) -> str:
    """Point plain PostgreSQL URLs at psycopg 3, the driver the app ships with."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def instance_secret_key(instance_path: Path) -> str:
    """A key generated once into the instance folder and kept there. It is written whole to a
    temporary file and linked into place, which fails if another worker got there first, so
    workers starting together all read the same complete key."""
    path = instance_path / SECRET_KEY_FILE
    if not path.exists():
        with tempfile.NamedTemporaryFile("w", dir=instance_path, delete=False) as draft:
            draft.write(secrets.token_hex(32))
        try:
            os.link(draft.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft.name)
    return path.read_text().strip()


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///scorekeeper.sqlite3",
        # A form may stay open on a phone for a whole evening; its token lasts the browser session.
        WTF_CSRF_TIME_LIMIT=None,
    )
    app.config.from_pyfile("config.py", silent=True)
    if url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = key
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
