"""What lets a phone keep the scoresheet with no network: the service worker, served from the
top so that its scope is the whole app, and the web app manifest."""

from __future__ import annotations

from flask import Response, current_app, send_from_directory

from . import bp

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


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    answer = current_app.json.response(
        {
            "name": "Sheepshead Scorekeeper",
            "short_name": "Sheepshead",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": BACKGROUND,
            "theme_color": THEME,
            "icons": [
                {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            ],
        }
    )
    answer.mimetype = "application/manifest+json"
    return answer
