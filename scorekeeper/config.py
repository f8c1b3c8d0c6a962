"""Configuration: defaults, then instance/config.py, then the environment, then test settings."""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

from .web import hosts

SECRET_KEY_FILE = "secret_key"
MB = 1024 * 1024
SIZE = re.compile(r"(\d+)\s*(MB|M|KB|K|B)?", re.ASCII | re.IGNORECASE)
UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "m": MB, "mb": MB}
DEFAULT_CURRENCY = "$"
MAX_PROXIES = 5


def database_url(url: str) -> str:
    """Point plain PostgreSQL URLs at psycopg 3, the driver the app ships with."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def upload_limit(text: str) -> int:
    """A size in bytes, or with a unit: 64MB, 500KB."""
    match = SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"UPLOAD_LIMIT must be a size such as 64MB or 1048576, not {text!r}.")
    return int(match[1]) * UNITS[(match[2] or "").lower()]


def proxy_count(text: str) -> int:
    if not text.strip().isdigit() or int(text) > MAX_PROXIES:
        raise ValueError(
            f"TRUSTED_PROXIES must be how many proxies stand in front, 0 to {MAX_PROXIES}, "
            f"not {text!r}."
        )
    return int(text)


def proxy_addresses(text: str) -> list[str]:
    """The addresses of proxies on other computers, comma-separated: each an IP address or a
    network (`10.0.0.5`, `10.0.0.0/24`)."""
    found = []
    for part in (part.strip() for part in text.split(",")):
        if not part:
            continue
        try:
            found.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise ValueError(
                "PROXY_ADDRESSES must be the addresses of the proxies in front, comma-separated "
                f"IP addresses or networks such as 10.0.0.5 or 10.0.0.0/24, not {part!r}."
            ) from None
    return found


def currency(text: str) -> str:
    """A currency symbol or code to write before amounts: $, €, £, CHF."""
    symbol = text.strip()
    if not 1 <= len(symbol) <= 4 or not symbol.isprintable():
        raise ValueError(f"CURRENCY must be a symbol such as $, € or CHF, not {text!r}.")
    return symbol


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
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Bytes: any request body (JSON, forms), except uploads of a backup or a hands CSV.
        BODY_LIMIT=MB,
        UPLOAD_LIMIT=64 * MB,
        # Characters of path and query string: a 414 from the app, below gunicorn's own limit
        # on the request line (8190 bytes, `make run`), whose 414 is JSON too.
        URL_LIMIT=8000,
        # Pages, styles and scripts go compressed to a phone that asks for it; the API's JSON
        # and downloads go as they are, so the API's ETags stay the session's version and a
        # download streams.
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "image/svg+xml",
            "application/manifest+json",
        ],
        COMPRESS_STREAMS=False,
        # Brotli at 6 sends a page about 9% smaller than at 4 (its default), for 0.1 ms more.
        COMPRESS_BR_LEVEL=6,
        # Written before every amount of money: the stake and the settle-up.
        CURRENCY=DEFAULT_CURRENCY,
        # Names the app is served under besides IP addresses, localhost and this computer's
        # own names (`hosts.py`): a write under any other is refused.
        ALLOWED_HOSTS=[],
        # How many reverse proxies stand in front of the app: their X-Forwarded-For and
        # X-Forwarded-Proto are believed (`create_app`), no one else's.
        TRUSTED_PROXIES=0,
        # Where the proxy in front connects from when it runs on another computer (networks,
        # as text): with TRUSTED_PROXIES set, a request from anywhere else but this computer
        # went around it (`web/security.py`).
        PROXY_ADDRESSES=[],
        # Whether the server can be reached on this computer's network address: links for
        # other phones go there (`hosts.lan_url`). The gunicorn worker sets it from its binds.
        LISTENS_ON_NETWORK=True,
        # The root certificate of the authority that signs this server's https certificate,
        # for phones to trust (`/install`): Caddy's `tls internal`, as `make run HTTPS=1` runs it.
        CA_ROOT=None,
        # How the ratings are recomputed after a write that changed the history other than by
        # a hand at its end (`sessions.ratings.MODES`): in a process of their own.
        RATING_RECOMPUTE="process",
        # How passcodes and API tokens' secrets are hashed, as Werkzeug names its methods:
        # scrypt, slow on purpose against guessing. A hash keeps its method, so a stored one is
        # checked as it was made whatever this says later.
        PASSWORD_HASH="scrypt",
    )
    app.config.from_pyfile("config.py", silent=True)
    if url := os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if key := os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = key
    if limit := os.environ.get("UPLOAD_LIMIT"):
        app.config["UPLOAD_LIMIT"] = upload_limit(limit)
    if symbol := os.environ.get("CURRENCY"):
        app.config["CURRENCY"] = currency(symbol)
    if allowed := os.environ.get("ALLOWED_HOSTS"):
        app.config["ALLOWED_HOSTS"] = hosts.names(allowed)
    if proxies := os.environ.get("TRUSTED_PROXIES"):
        app.config["TRUSTED_PROXIES"] = proxy_count(proxies)
    if addresses := os.environ.get("PROXY_ADDRESSES"):
        app.config["PROXY_ADDRESSES"] = proxy_addresses(addresses)
    if root := os.environ.get("CA_ROOT"):
        app.config["CA_ROOT"] = root
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["ALLOWED_HOSTS"] = sorted(hosts.own_names() | set(app.config["ALLOWED_HOSTS"]))
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
