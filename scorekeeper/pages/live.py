"""The streams a page keeps open to hear of a change at once (Server-Sent Events): the scoresheet
and the table view their session's (`static/live.js`), a club event's board the event's
(`static/board.js`). A stream names the state first, then again at each change and every
`KEEPALIVE_SECONDS` (so that a proxy keeps the connection and a phone can tell a stream that
went silent); it ends after `STREAM_SECONDS`, when what it watches is gone and when the server
stops, and the browser opens it again after `RETRY_MS`. While a stream waits it holds neither a
thread (a greenlet, under gunicorn's gevent workers) nor a database connection: the process's
one watcher (`sessions/live.py`) reads the database for every stream of the process."""

from __future__ import annotations

import time
from collections.abc import Iterator

from flask import Response, current_app

from ..sessions import live, loading
from ..sessions.database import check_id, no_such
from ..sessions.extensions import db
from .blueprint import bp

RETRY_MS = 2000
KEEPALIVE_SECONDS = 20
STREAM_SECONDS = 300


@bp.get("/sessions/<id(session):session_id>/live")
def session_stream(session_id: int) -> Response:
    version = loading.session_version(session_id)
    return stream((live.SESSION, session_id), str(version))


@bp.get("/events/<id(event):event_id>/live")
def event_stream(event_id: int) -> Response:
    check_id("event", event_id)
    topic = (live.EVENT, event_id)
    state = live.read_states(db.session, [topic]).get(topic)
    if state is None:
        no_such("event", event_id)
    return stream(topic, state)


def stream(topic: live.Topic, state: str) -> Response:
    return Response(
        messages(live.hub(current_app), topic, state),
        mimetype="text/event-stream",
        # Nothing between the server and the phone keeps a stream back: nginx would buffer it
        # (X-Accel-Buffering), a cache would keep it.
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def messages(hub: live.Hub, topic: live.Topic, state: str) -> Iterator[bytes]:
    with hub.watching(topic, state) as watch:
        yield f"retry: {RETRY_MS}\n\n".encode()
        ends = time.monotonic() + STREAM_SECONDS
        while True:
            change = watch.next_change()
            now = watch.state()
            if now is None:
                return
            yield f"data: {now}\n\n".encode()
            left = ends - time.monotonic()
            if left <= 0:
                return
            change.wait(min(KEEPALIVE_SECONDS, left))
