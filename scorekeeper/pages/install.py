"""Install on a phone: how a phone trusts the certificate authority of a scorekeeper served with
its own (`make run HTTPS=1`, Caddy's `tls internal`), once, and then installs the app from the
browser's menu. The authority's root certificate is offered for download when `CA_ROOT` names
it."""

from __future__ import annotations

import hashlib
import ssl
from pathlib import Path

from flask import Response, current_app, render_template, request

from ..exchange.rule_sets import qr_svg
from ..sessions.errors import NotFound
from ..web.hosts import lan_url
from .blueprint import bp

ROOT_FILE_NAME = "scorekeeper-root.crt"
NO_AUTHORITY = (
    "This scorekeeper has no certificate authority of its own: "
    "served with make run HTTPS=1, it has one."
)


def authority_root() -> bytes | None:
    """The root certificate (PEM) `CA_ROOT` names, or None without one."""
    path = current_app.config["CA_ROOT"]
    if not path:
        return None
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def fingerprint(pem: bytes) -> str:
    """The certificate's SHA-256 fingerprint as a phone shows it: hex pairs, spaced."""
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem.decode("ascii"))).hexdigest().upper()
    return " ".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@bp.get("/install")
def install() -> str:
    root = authority_root()
    address = lan_url("pages.install")
    return render_template(
        "settings/install.html",
        address=address,
        qr=qr_svg(address),
        fingerprint=fingerprint(root) if root is not None else None,
        secure=request.is_secure,
    )


@bp.get("/install/root.crt")
def install_root() -> Response:
    root = authority_root()
    if root is None:
        raise NotFound(NO_AUTHORITY)
    answer = Response(root, mimetype="application/x-x509-ca-cert")
    answer.headers["Content-Disposition"] = f"attachment; filename={ROOT_FILE_NAME}"
    answer.headers["Cache-Control"] = "no-cache"
    return answer
