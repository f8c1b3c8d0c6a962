"""What every request and answer goes through before the views: size, type, host and origin
checks, a request that went around the proxy, JSON answers to OPTIONS under /api/, security
headers and cookie flags."""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, has_request_context, jsonify, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import (
    Forbidden,
    LengthRequired,
    MisdirectedRequest,
    RequestEntityTooLarge,
    RequestURITooLarge,
    UnsupportedMediaType,
)

from . import errors, hosts, stylesheet

# style-src also allows the stylesheets inside the pages by their hashes (`stylesheet.py`).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' {style}; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
# Sent over https alone: a browser that has seen it opens this name over https only, for a year.
STRICT_TRANSPORT = "max-age=31536000"
# The headers a proxy in front adds to every request it passes on (Caddy's and nginx's alike).
FORWARDED = ("X-Forwarded-For", "X-Forwarded-Proto")
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
BODY_METHODS = {"POST", "PUT", "PATCH"}
# What takes a file: a backup to restore, a hands CSV or a spreadsheet of nights to import.
UPLOAD_ENDPOINTS = {
    "pages.restore_backup",
    "pages.import_csv",
    "pages.import_nights",
    "api.import_nights",
}
# The API's writes that also take their body as CSV.
CSV_ENDPOINTS = {"api.import_nights"}
# A share link's page, which anyone may open: it sets no cookie, so it gives a phone nothing
# that reaches another page.
COOKIELESS_ENDPOINTS = {"pages.shared_page"}
DEFAULT_PORTS = {"http": 80, "https": 443}
# What the pages' scripts read in the background: the live streams, and the looks they set off.
BACKGROUND_READS = {
    "pages.session_stream",
    "pages.event_stream",
    "api.get_session",
    "api.get_event",
}
MB = 1024 * 1024


class CrossSite(Forbidden):
    description = "This change came from another site, so it was refused."


class UntrustedHost(Forbidden):
    def __init__(self, host: str) -> None:
        super().__init__(
            f"This scorekeeper is not served at {hosts.shown(host)}, so the change was refused. "
            "Open it at its own address; a server reached by that name lists it in ALLOWED_HOSTS."
        )


class AroundTheProxy(MisdirectedRequest):
    description = (
        "This scorekeeper answers through its https address alone, not at this port: "
        "open it at its https address."
    )


class UrlTooLong(RequestURITooLarge):
    description = "The address is too long for this scorekeeper."


class NoLength(LengthRequired):
    description = "Send the form with its length (a Content-Length header), as browsers do."


class NotJson(UnsupportedMediaType):
    description = "Send the body as JSON, with the header Content-Type: application/json."


class NotJsonOrCsv(UnsupportedMediaType):
    description = (
        "Send the body as CSV, with the header Content-Type: text/csv, or as JSON, with "
        "Content-Type: application/json."
    )


class SessionCookie(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the page was asked for over HTTPS. An answer to a
    page's script watching in the background sends it back only when it changed it: such a
    request may cross a sign-out tapped meanwhile, which its cookie as it was would undo."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)

    def save_session(self, app: Flask, session: Any, response: Response) -> None:
        if has_request_context() and request.endpoint in COOKIELESS_ENDPOINTS:
            return
        super().save_session(app, session, response)

    def should_set_cookie(self, app: Flask, session: Any) -> bool:
        if has_request_context() and request.endpoint in BACKGROUND_READS:
            return bool(session.modified)
        return super().should_set_cookie(app, session)


def is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:
        port = None
    return scheme, (parts.hostname or ""), port


def from_another_site(req: Request) -> bool:
    """True when the Origin header names a site other than this one ("null" is another site).
    No Origin header at all (scripts, curl, older browsers) is not refused."""
    origin = req.headers.get("Origin")
    if origin is None:
        return False
    served = _origin(req.host_url)
    return origin.strip().lower() == "null" or _origin(origin.strip()) != served


def around_the_proxy(req: Request) -> bool:
    """Whether a request reached the app without passing through its proxy. With
    TRUSTED_PROXIES set and the app listening on the network, every request comes from the proxy
    on this computer (or at one of PROXY_ADDRESSES, on another), with its X-Forwarded-For and
    X-Forwarded-Proto: any other, from another computer or with no such headers, went around
    it, and may not claim a phone's address or https for itself."""
    config = current_app.config
    if not config["TRUSTED_PROXIES"] or not config["LISTENS_ON_NETWORK"]:
        return False
    # The address the connection came from, before ProxyFix put the forwarded one in its place.
    peer = req.environ.get("werkzeug.proxy_fix.orig", {}).get("REMOTE_ADDR") or ""
    forwarded = all(name in req.headers for name in FORWARDED)
    return not (forwarded and (hosts.is_loopback(peer) or from_a_proxy(peer)))


def from_a_proxy(peer: str) -> bool:
    """Whether a connection came from an address PROXY_ADDRESSES names."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(
        address in ipaddress.ip_network(network)
        for network in current_app.config["PROXY_ADDRESSES"]
    )


def body_limit(req: Request) -> int:
    config = current_app.config
    limit = config["UPLOAD_LIMIT"] if req.endpoint in UPLOAD_ENDPOINTS else config["BODY_LIMIT"]
    return int(limit)


def shown_size(limit: int) -> str:
    """A size in bytes as a page says it: "64 MB", or "500,000 bytes"."""
    return f"{limit // MB} MB" if limit >= MB and limit % MB == 0 else f"{limit:,} bytes"


def too_large(limit: int) -> RequestEntityTooLarge:
    if is_api(request.path):
        return RequestEntityTooLarge(
            f"The body is larger than {shown_size(limit)}, the most this scorekeeper accepts."
        )
    return RequestEntityTooLarge(
        f"The file is larger than {shown_size(limit)}, the most this scorekeeper accepts. "
        "Choose a smaller file."
    )


def _has_body(req: Request) -> bool:
    chunked = "chunked" in req.headers.get("Transfer-Encoding", "").lower()
    return chunked or bool(req.content_length)


def check_request() -> Response | None:
    """Refusals that need nothing of the body: they answer before any of it is read."""
    if around_the_proxy(request):
        raise AroundTheProxy()
    url_length = len(request.path) + len(request.query_string)
    if url_length > current_app.config["URL_LIMIT"]:
        raise UrlTooLong()
    if request.method not in SAFE_METHODS:
        if not hosts.is_trusted(request.host):
            raise UntrustedHost(request.host)
        if from_another_site(request):
            raise CrossSite()
    limit = body_limit(request)
    # Werkzeug stops reading a streamed (chunked) body at this limit too.
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise too_large(limit)
    if not is_api(request.path):
        # A streamed form would be cut at the limit without a word, then read as another form.
        if request.content_length is None and _has_body(request):
            raise NoLength()
        return None
    has_body = request.method in BODY_METHODS and _has_body(request)
    if has_body and request.mimetype != "application/json":
        if request.endpoint not in CSV_ENDPOINTS:
            raise NotJson()
        if request.mimetype != "text/csv":
            raise NotJsonOrCsv()
    if request.method == "OPTIONS" and request.routing_exception is None:
        return options_answer()
    return None


def options_answer() -> Response:
    adapter = current_app.create_url_adapter(request)
    assert adapter is not None
    allowed = sorted(adapter.allowed_methods())
    answer = jsonify({"allow": allowed})
    answer.headers["Allow"] = ", ".join(allowed)
    return answer


def _cookie_with_flags(cookie: str, secure: bool) -> str:
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    if "httponly" not in attributes:
        cookie += "; HttpOnly"
    if "samesite" not in attributes:
        cookie += "; SameSite=Lax"
    if secure and "secure" not in attributes:
        cookie += "; Secure"
    return cookie


def content_security_policy() -> str:
    return CONTENT_SECURITY_POLICY.format(style=stylesheet.sources())


def finish_response(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", content_security_policy())
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT)
    cookies = response.headers.getlist("Set-Cookie")
    if cookies:
        response.headers.remove("Set-Cookie")
        for cookie in cookies:
            response.headers.add("Set-Cookie", _cookie_with_flags(cookie, request.is_secure))
    return response


def register(app: Flask) -> None:
    app.session_interface = SessionCookie()
    # Before every other check, CSRF protection's included, since that one reads the form.
    app.before_request_funcs.setdefault(None, []).insert(0, check_request)
    app.after_request(finish_response)

    @app.errorhandler(RequestEntityTooLarge)
    def refuse_too_large(_error: RequestEntityTooLarge) -> tuple[Any, int, dict[str, str]]:
        # Werkzeug's own 413 (a streamed body past the limit) in the words of ours.
        return errors.error_answer(413, too_large(body_limit(request)).description or "")
