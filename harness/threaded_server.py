"""The app served in a thread of this process, for the browser tests and the benchmarks that
need its app object at hand: werkzeug's server, with every answer closed however its connection
ended.

werkzeug 3.1's handler closes the app's answer only after reading what the client may still
send; when the client has reset the connection, that read raises, the close is skipped and the
answer's open file (a static file, an icon) or streamed CSV is left to the garbage collector,
whose ResourceWarning then lands in whatever test runs next. gunicorn, which serves the app for
real, closes it in a `finally`; this handler does the same.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

_answering = threading.local()


class _Answer:
    """The app's answer to one request, closed once, by the server or by the handler."""

    def __init__(self, answer: Iterable[bytes]) -> None:
        self.answer = answer
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            close = getattr(self.answer, "close", None)
            if close is not None:
                close()


class _ClosingHandler(WSGIRequestHandler):
    def run_wsgi(self) -> None:
        try:
            super().run_wsgi()
        finally:
            answer: _Answer | None = getattr(_answering, "answer", None)
            _answering.answer = None
            if answer is not None:
                answer.close()


def _keeping_answer(app: Flask) -> Any:
    def wsgi(environ: dict[str, Any], start_response: Any) -> _Answer:
        answer = _Answer(app(environ, start_response))
        _answering.answer = answer
        return answer

    return wsgi


def make_closing_server(app: Flask) -> BaseWSGIServer:
    """werkzeug's threaded server for `app` on a free local port, not yet serving."""
    return make_server(
        "127.0.0.1", 0, _keeping_answer(app), threaded=True, request_handler=_ClosingHandler
    )


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """The app served on a free local port, in a thread; yields its URL."""
    server = make_closing_server(app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
