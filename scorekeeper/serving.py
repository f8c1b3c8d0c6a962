"""How gunicorn serves the app, read with `gunicorn --config python:scorekeeper.serving` by
`make run`, the fault tests and the benchmarks.

The worker is gevent's: a connection waiting for a slow or stalled client holds a greenlet, not
one of a few threads, so clients trickling their headers or body never keep a phone at the table
waiting. Every read from a client has a deadline all the same: its headers within
`HEADER_SECONDS` (gunicorn's keep-alive), each read of a body or write of an answer within
`IDLE_SECONDS`, and a whole body at no less than `MIN_BODY_RATE` after `BODY_GRACE_SECONDS`. A
long answer lets the worker's other connections go on between its parts. The worker's own
refusals (a request line or headers too long for it to read) answer JSON like the app's, instead
of gunicorn's HTML page. A page's live stream (`pages/live.py`) holds a connection for minutes
while waiting costs nothing, so a worker holds `worker_connections` of them, its open files
raised to match, and a stopping worker ends its streams at once rather than wait them out,
finishes the answers under way and goes (gunicorn's own waits a second more).
Before any worker starts, a restore that a crash cut short is undone.
The logs (`--access-logfile`, the error log) keep no invite's or share link's secret
and no credentials (`Logger`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import resource
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import gevent
import gevent.event
import gevent.local
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn import glogging, sock, util  # type: ignore[import-untyped]
from gunicorn.http.errors import (  # type: ignore[import-untyped]
    LimitRequestHeaders,
    LimitRequestLine,
)
from gunicorn.workers.base_async import AsyncWorker  # type: ignore[import-untyped]
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]
from werkzeug.exceptions import RequestTimeout

from . import create_app
from .exchange import journal
from .sessions import live, ratings
from .web import hosts, logs

HEADER_SECONDS = 10
IDLE_SECONDS = 30
BODY_GRACE_SECONDS = 30
# Bytes a second: a 64 MB backup may take 17 minutes, a 1 MB form 46 seconds.
MIN_BODY_RATE = 64 * 1024
# How long, and how much, a connection closed on an unread body reads before it closes.
LINGER_SECONDS = 2
LINGER_BYTES = 1024 * 1024
# Files a worker opens besides its connections: the database, logs, the app's own.
OTHER_FILES = 256
# Answers to a request whose body was left unread.
UNREAD_BODY = ("408", "411", "413")
BODY_TOO_SLOW = "The request's body came too slowly, so it was not read. Send it again."

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


def body_seconds(length: int | None) -> float:
    """How long a body of `length` bytes may take to arrive (one of unknown length: the grace)."""
    return BODY_GRACE_SECONDS + (length or 0) / MIN_BODY_RATE


class TimedBody:
    """A request's body that must arrive by a deadline: a read past it raises the 408 the app
    answers, as does a client that stops sending for `IDLE_SECONDS`."""

    def __init__(self, body: Any, seconds: float) -> None:
        self._body = body
        self._deadline = time.monotonic() + seconds

    def _within(self, read: Callable[..., Any], *args: Any) -> Any:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise RequestTimeout(BODY_TOO_SLOW)
        try:
            with gevent.Timeout(remaining, RequestTimeout(BODY_TOO_SLOW)):
                return read(*args)
        except TimeoutError:
            raise RequestTimeout(BODY_TOO_SLOW) from None

    def read(self, size: int | None = -1) -> bytes:
        return self._within(self._body.read, size)  # type: ignore[no-any-return]

    def readline(self, size: int | None = -1) -> bytes:
        return self._within(self._body.readline, size)  # type: ignore[no-any-return]

    def readlines(self, hint: int | None = -1) -> list[bytes]:
        return self._within(self._body.readlines, hint)  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


# The request each greenlet is answering, for `closing_refusals`.
_answering = gevent.local.local()


def with_body_deadline(
    app: Callable[..., Any], seconds: Callable[[int | None], float] = body_seconds
) -> Callable[..., Any]:
    def timed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        length = environ.get("CONTENT_LENGTH")
        allowed = seconds(int(length) if length and length.isdigit() else None)
        environ["wsgi.input"] = TimedBody(environ["wsgi.input"], allowed)
        return app(environ, start_response)

    return timed


def closing_refusals(app: Callable[..., Any]) -> Callable[..., Any]:
    """A body refused unread (too large, too slow, of no length) is not read afterwards either,
    as gunicorn would to reach the connection's next request: the connection closes."""

    def closing(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: Any, exc_info: Any = None) -> Any:
            if status[:3] in UNREAD_BODY:
                _answering.request.must_close = True
                _answering.request.left_unread = True
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return closing


class TakingTurns:
    """An answer whose parts let the worker's other connections go on between them: gevent
    switches only where a greenlet waits, and a long answer made as it is sent (every hand as
    CSV, a restore's progress, a backup) may never wait while it computes."""

    def __init__(self, answer: Iterable[bytes]) -> None:
        self._answer = answer

    def __iter__(self) -> Iterator[bytes]:
        for part in self._answer:
            yield part
            gevent.sleep(0)

    def close(self) -> None:
        close = getattr(self._answer, "close", None)
        if close is not None:
            close()


def taking_turns(app: Callable[..., Any]) -> Callable[..., Any]:
    def turns(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        answer = app(environ, start_response)
        file_wrapper = environ.get("wsgi.file_wrapper")
        if file_wrapper is not None and isinstance(answer, file_wrapper):
            return answer
        return TakingTurns(answer)

    return turns


def linger(sock: socket.socket) -> None:
    """Close a connection whose request is left unread so that the client still reads the
    answer: say no more is coming, then read and drop what the client is still sending, for a
    while, before the close (a close with unread bytes would reset the connection)."""
    deadline = time.monotonic() + LINGER_SECONDS
    dropped = 0
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_WR)
        while dropped < LINGER_BYTES and (remaining := deadline - time.monotonic()) > 0:
            sock.settimeout(remaining)
            chunk = sock.recv(65536)
            if not chunk:
                return
            dropped += len(chunk)


def listens_on_network(bound: Any) -> bool:
    """Whether a listening socket's address, `(host, port, ...)` or a Unix socket's path,
    reaches beyond this computer (0.0.0.0 or an address of its network)."""
    if not isinstance(bound, tuple):
        return False
    return not hosts.is_loopback(str(bound[0]))


def cooperative_database_waits() -> None:
    """psycopg chose how to wait for PostgreSQL when the master imported it (`on_starting`),
    before gevent patched the worker's `select`: a wait that holds the whole worker. Choose
    again, as psycopg does once `select` is patched, so that a connection waiting for the
    database lets the worker's others go on."""
    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and waiting._is_select_patched():
        waiting.wait = waiting.wait_poll  # type: ignore[attr-defined]


class Worker(GeventWorker):  # type: ignore[misc]
    def load_wsgi(self) -> None:
        cooperative_database_waits()
        super().load_wsgi()
        flask_app = self.wsgi  # type: ignore[has-type]
        self.live = live.hub(flask_app)
        self.stopping = gevent.event.Event()
        flask_app.config["LISTENS_ON_NETWORK"] = any(
            listens_on_network(listener.getsockname()) for listener in self.sockets
        )
        app = with_body_deadline(flask_app)
        self.wsgi = taking_turns(closing_refusals(app))

    def handle_exit(self, sig: Any, frame: Any) -> None:
        super().handle_exit(sig, frame)
        # Out of the signal handler, as gunicorn's gevent worker does with its own.
        gevent.spawn(self.live.close)
        gevent.spawn(self.stopping.set)

    def run(self) -> None:
        """As gunicorn's gevent worker runs (its servers, then a tick a second to its master
        until it stops, then the answers under way finished within `graceful_timeout`), but a
        stop wakes it at once and the answers under way are looked at every tenth of a second:
        a server stopped with nothing under way is gone in a moment, not two seconds."""
        servers = []
        for listener in self.sockets:
            listener.setblocking(1)
            server = StreamServer(
                listener,
                handle=functools.partial(self.handle, listener),
                spawn=Pool(self.worker_connections),
                **({"ssl_context": sock.ssl_context(self.cfg)} if self.cfg.is_ssl else {}),
            )
            if self.cfg.workers > 1:
                server.max_accept = 1
            server.start()
            servers.append(server)
        while self.alive:
            self.notify()
            self.stopping.wait(1.0)
        for server in servers:
            server.close()
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while any(server.pool.free_count() != server.pool.size for server in servers):
            if time.monotonic() > deadline:
                self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
                for server in servers:
                    server.stop(timeout=1)
                return
            self.notify()
            gevent.sleep(0.1)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        _answering.request = req
        try:
            kept = super().handle_request(listener_name, req, sock, addr)
            if not self.alive:
                # Stopping: a stream just ended, or any answer, and its connection with it.
                raise StopIteration
            return kept
        except StopIteration:
            if getattr(req, "left_unread", False):
                linger(sock)
            raise

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        # In place of gevent's blocking socket: a client silent this long is let go.
        client.settimeout(IDLE_SECONDS)
        AsyncWorker.handle(self, listener, client, addr)

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


def open_files_for(connections: int) -> None:
    """Raise this process's limit of open files (its workers inherit it) to hold `connections`
    and what else a worker opens, as far as the system allows: often 1,024 unless raised."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + OTHER_FILES
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def on_starting(server: Any) -> None:
    """Undo a restore that a crash cut short, before any worker serves (see `journal`), and
    have stale ratings recomputed in the background (see `sessions.ratings`)."""
    open_files_for(server.cfg.worker_connections)
    app = create_app()
    said = journal.undo_at_start(app)
    if said is not None:
        server.log.warning(said)
    if ratings.recompute_at_start(app):
        server.log.info("The ratings are being recomputed from the history.")


def post_worker_init(worker: Any) -> None:
    """Say when a worker has loaded the app: until then it answers nothing, and a signal to
    stop reaches only its master's handlers."""
    worker.log.info("Worker ready (pid: %s)", worker.pid)


# Request and answer headers that carry credentials, as a log format may name them.
CREDENTIALS = re.compile(r"cookie|authorization", re.IGNORECASE)


class MaskedAtoms(glogging.SafeAtoms):  # type: ignore[misc]
    """An access log line's values: any header that carries credentials masked whole."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key.startswith("{") and CREDENTIALS.search(key) and value != "-":
            return logs.MASK
        return value


class Logger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logs, with an invite's or a share link's secret masked in every line
    (`web.logs`)."""

    atoms_wrapper_class = MaskedAtoms

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(logs.MASK_SECRETS)


# gunicorn settings (the names are gunicorn's).
worker_class = "scorekeeper.serving.Worker"
logger_class = "scorekeeper.serving.Logger"
# Each phone watching a session live holds one, besides its requests: 2,000 phones on two
# workers, with room for one worker taking more than its half.
worker_connections = 4000
# Also how long a connection may take to send a request's headers.
keepalive = HEADER_SECONDS
limit_request_line = 8190
