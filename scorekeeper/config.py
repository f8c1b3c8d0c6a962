"""Configuration: defaults, then instance/config.py, then the environment, then test settings."""

from __future__ import annotations

import os
import secrets
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
    """A key generated once into the instance folder and kept there."""
    path = instance_path / SECRET_KEY_FILE
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///scorekeeper.sqlite3",
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
