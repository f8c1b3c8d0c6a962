"""What lets a phone keep the scoresheet with no network: the service worker, served from the
top so that its scope is the whole app, the web app manifest, and what the worker keeps: the
scripts, a page's in one file (`scorekeeper/web/scripts.py`), and the stylesheets a page links
(`scorekeeper/web/stylesheet.py`)."""

from __future__ import annotations

from flask import Response, current_app, jsonify, request, send_from_directory, url_for

from ..sessions.errors import NotFound
from ..web import scripts, stylesheet
from .blueprint import bp

# style.css's --bg and --accent (light), the colours the phone paints around the app.
BACKGROUND = "#f7f5ef"
THEME = "#1d6b4c"


@bp.get("/sw.js")
def service_worker() -> Response:
    assert current_app.static_folder is not None
    answer = send_from_directory(current_app.static_folder, "sw.js", max_age=0)
    answer.headers["Content-Type"] = "text/javascript; charset=utf-8"
    # A new worker is looked for at every visit, never kept in a cache.
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/scripts/<name>.js")
def page_scripts(name: str) -> Response:
    if name not in scripts.BUNDLES:
        raise NotFound(f"There is no script {name}.js.")
    held = scripts.bundle(name)
    answer = Response(held.text, mimetype="text/javascript")
    answer.set_etag(held.etag)
    # Asked again at every visit, like the files of static/, and answered 304 when unchanged.
    answer.headers["Cache-Control"] = "no-cache"
    answer.make_conditional(request)
    return answer


@bp.get("/styles/<name>.css")
def linked_stylesheet(name: str) -> Response:
    if f"{name}.css" not in stylesheet.NAMES:
        raise NotFound(f"There is no stylesheet {name}.css.")
    held = stylesheet.current(f"{name}.css")
    answer = Response(held.text, mimetype="text/css")
    if request.args.get("v") == held.version:
        # The address names this very text: a phone keeps it without asking again.
        answer.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        answer.set_etag(held.version)
        answer.headers["Cache-Control"] = "no-cache"
        answer.make_conditional(request)
    return answer


def _icon(name: str, size: int, purpose: str) -> dict[str, str]:
    return {
        "src": url_for("static", filename=f"icons/{name}.png"),
        "sizes": f"{size}x{size}",
        "type": "image/png",
        "purpose": purpose,
    }


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone installs: opened from its home screen, the app starts at the home page,
    whose first card resumes the session in progress."""
    answer = jsonify(
        {
            "id": "/",
            "name": "Sheepshead Scorekeeper",
            "short_name": "Sheepshead",
            "description": "Keep the score of a Sheepshead game at the card table.",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": THEME,
            "icons": [
                _icon("icon-192", 192, "any"),
                _icon("icon-512", 512, "any"),
                # The picture inside the middle 80%, which every shape a phone cuts keeps.
                _icon("icon-maskable-512", 512, "maskable"),
            ],
        }
    )
    answer.mimetype = "application/manifest+json"
    return answer
