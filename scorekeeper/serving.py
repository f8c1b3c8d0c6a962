"""How gunicorn serves the app, read with `gunicorn --config python:scorekeeper.serving` by
`make run`, the fault tests and the benchmark: a worker whose own refusals (a request line or
headers too long for it to read) answer JSON like the app's, instead of gunicorn's HTML page."""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.http.errors import (  # type: ignore[import-untyped]
    LimitRequestHeaders,
    LimitRequestLine,
)
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from . import create_app, journal

REFUSALS: dict[type[Exception], tuple[int, str, str]] = {
    LimitRequestLine: (414, "URI Too Long", "The address is too long for this scorekeeper."),
    LimitRequestHeaders: (
        431,
        "Request Header Fields Too Large",
        "The request's headers are too large for this scorekeeper.",
    ),
}


def json_refusal(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class JsonErrorWorker(ThreadWorker):  # type: ignore[misc]
    def handle_error(self, req: Any, client: Any, addr: Any, exc: Exception) -> None:
        refusal = next((r for kind, r in REFUSALS.items() if isinstance(exc, kind)), None)
        if refusal is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            util.write_nonblock(client, json_refusal(*refusal))
        except OSError:
            self.log.debug("Failed to send error message.")


def on_starting(server: Any) -> None:
    """Undo a restore that a crash cut short, before any worker serves (see `journal`)."""
    said = journal.undo_at_start(create_app())
    if said is not None:
        server.log.warning(said)


# gunicorn settings (the names are gunicorn's).
worker_class = "scorekeeper.serving.JsonErrorWorker"
limit_request_line = 8190
