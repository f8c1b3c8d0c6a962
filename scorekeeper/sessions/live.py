"""What the pages watching a session or an event are told as soon as it changes (the API's
streams, `api/live.py`): the state of everything watched in this process, kept by one watcher a
process, however many phones watch.

A session's state is its version; an event's is its version with the versions of its tables'
sessions, which change with every hand at its tables. On PostgreSQL the watcher listens on the
channel `LIVE_CHANNEL`, where the database tells every change to a session's or an event's
version at its commit (`models.LIVE_TRIGGERS`), to every process of every server on that
database; it reads the states of what it was told of, and of everything watched whenever it
(re)connects, since a change told while it was away is lost. On SQLite, on one computer, it reads
the states of everything watched every `LOOK_EVERY` seconds: one statement a process for all its
phones.

The watcher is a thread (a greenlet under gunicorn's gevent workers) started in the process that
serves, with the first watch, and ended when nothing is watched any more.
"""

from __future__ import annotations

import logging
import select as selecting
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from flask import Flask
from sqlalchemy import Engine, Executable, Select, func, literal, select, union_all

from .extensions import db
from .models import LIVE_CHANNEL, Event, Session

# What is watched: ("session", id) or ("event", id), as the database tells it.
Topic = tuple[str, int]
SESSION, EVENT = "session", "event"
# How often the SQLite watcher reads what is watched.
LOOK_EVERY = 0.5
# How long the PostgreSQL watcher waits for news before it checks that it is still wanted, and
# after losing the database before it connects again.
LISTEN_WAKE = 1.0
RECONNECT_AFTER = 1.0

log = logging.getLogger(__name__)


def states_query(topics: Iterable[Topic]) -> Executable | None:
    """One statement reading the state of every topic: rows of (kind, id, version, the sum of
    its tables' versions, how many tables it has), the last two 0 for a session."""
    sessions = sorted(number for kind, number in topics if kind == SESSION)
    events = sorted(number for kind, number in topics if kind == EVENT)
    parts: list[Select[str, int, int, int, int]] = []
    if sessions:
        parts.append(
            select(
                literal(SESSION).label("kind"),
                Session.id,
                Session.version,
                literal(0).label("tables"),
                literal(0).label("count"),
            ).where(Session.id.in_(sessions))
        )
    if events:
        parts.append(
            select(
                literal(EVENT).label("kind"),
                Event.id,
                Event.version,
                func.coalesce(func.sum(Session.version), 0),
                func.count(Session.id),
            )
            .select_from(Event)
            .outerjoin(Session, Session.event_id == Event.id)
            .where(Event.id.in_(events))
            .group_by(Event.id, Event.version)
        )
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return union_all(*parts)


def state_of(kind: str, version: int, tables: int, count: int) -> str:
    """A topic's state as its stream tells it: a session's version, or an event's with its
    tables'."""
    return str(version) if kind == SESSION else f"{version}.{tables}.{count}"


def read_states(executor: Any, topics: Iterable[Topic]) -> dict[Topic, str]:
    """The state of each topic that exists, through `executor` (a connection or `db.session`)."""
    query = states_query(topics)
    if query is None:
        return {}
    return {
        (str(kind), int(number)): state_of(str(kind), int(version), int(tables), int(count))
        for kind, number, version, tables, count in executor.execute(query)
    }


class Watch:
    """One phone's watch of a topic: its state as the process knows it, and a wait for the
    next change."""

    def __init__(self, hub: Hub, topic: Topic) -> None:
        self._hub = hub
        self.topic = topic

    def state(self) -> str | None:
        """The topic's state now; None when it is gone (a session deleted) or the server is
        stopping."""
        return self._hub.state(self.topic)

    def next_change(self) -> threading.Event:
        """What is set at the topic's next change: taken before its state is read, so that a
        change between the two is not missed."""
        return self._hub.next_change(self.topic)


class Hub:
    """Everything this process watches, and its one watcher."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._watching: Counter[Topic] = Counter()
        self._states: dict[Topic, str | None] = {}
        self._changes: dict[Topic, threading.Event] = {}
        self._running = False
        self.closed = False
        # How many times the watcher read the states, for the tests to count its statements by.
        self.looks = 0

    @property
    def engine(self) -> Engine:
        with self._app.app_context():
            return db.engine

    @contextmanager
    def watching(self, topic: Topic, state: str) -> Iterator[Watch]:
        """Watch `topic`, whose state the caller has just read, for as long as the block lasts."""
        with self._lock:
            self._watching[topic] += 1
            self._states.setdefault(topic, state)
            self._changes.setdefault(topic, threading.Event())
            start = not self._running
            self._running = True
        if start:
            threading.Thread(target=self._watch, name="live", daemon=True).start()
        try:
            yield Watch(self, topic)
        finally:
            with self._lock:
                self._watching[topic] -= 1
                if not self._watching[topic]:
                    del self._watching[topic]
                    self._states.pop(topic, None)
                    self._changes.pop(topic, None)

    @property
    def running(self) -> bool:
        """Whether the watcher runs: from the first watch until nothing is watched."""
        return self._running

    def state(self, topic: Topic) -> str | None:
        return None if self.closed else self._states.get(topic)

    def next_change(self, topic: Topic) -> threading.Event:
        with self._lock:
            return self._changes.get(topic) or threading.Event()

    def close(self) -> None:
        """End every stream of this process: the server is stopping."""
        self.closed = True
        with self._lock:
            for change in self._changes.values():
                change.set()

    def _watched(self) -> list[Topic]:
        with self._lock:
            return list(self._watching)

    def _still_wanted(self) -> bool:
        """Whether anything is still watched; the watcher ends when nothing is."""
        with self._lock:
            if self._watching and not self.closed:
                return True
            self._running = False
            return False

    def publish(self, states: dict[Topic, str], asked: Iterable[Topic]) -> None:
        """The states just read of the topics asked; a topic asked and not found is gone."""
        with self._lock:
            for topic in asked:
                if topic not in self._watching:
                    continue
                state = states.get(topic)
                if self._states.get(topic) == state:
                    continue
                self._states[topic] = state
                change = self._changes[topic]
                self._changes[topic] = threading.Event()
                change.set()

    def look(self, connection: Any, topics: list[Topic]) -> None:
        """Read the states of `topics` and tell what changed."""
        self.looks += 1
        self.publish(read_states(connection, topics), topics)

    def _watch(self) -> None:
        try:
            if self.engine.dialect.name == "postgresql":
                self._listen()
            else:
                self._poll()
        except Exception:
            log.exception("The live watcher stopped")
            with self._lock:
                self._running = False

    def _poll(self) -> None:
        while self._still_wanted():
            try:
                with self.engine.connect() as connection:
                    self.look(connection, self._watched())
            except Exception as error:  # the database busy or away: the next look tells
                log.warning("The live watcher could not read the database (%s)", error)
            time.sleep(LOOK_EVERY)

    def _listen(self) -> None:
        while self._still_wanted():
            try:
                self._listen_once()
            except Exception as error:  # a lost connection, the database restarting
                log.warning("The live watcher lost the database (%s); connecting again", error)
                time.sleep(RECONNECT_AFTER)

    def _listen_once(self) -> None:
        raw = self.engine.raw_connection()
        listener = raw.driver_connection
        # The listening connection is the watcher's own, never handed back to the pool.
        raw.detach()
        try:
            assert listener is not None
            listener.autocommit = True
            listener.execute(f"LISTEN {LIVE_CHANNEL}")
            # Whatever changed before the LISTEN took hold.
            with self.engine.connect() as connection:
                self.look(connection, self._watched())
            pgconn = listener.pgconn
            while self._still_wanted():
                # A wait on the socket itself: gevent's, under gunicorn, lets the other
                # connections go on meanwhile, whichever wait psycopg chose at its import.
                ready, _, _ = selecting.select([pgconn.socket], [], [], LISTEN_WAKE)
                if not ready:
                    continue
                pgconn.consume_input()
                told: set[Topic] = set()
                while (notice := pgconn.notifies()) is not None:
                    kind, _, number = notice.extra.decode().partition(" ")
                    told.add((kind, int(number)))
                watched = set(self._watched())
                if told & watched:
                    with self.engine.connect() as connection:
                        self.look(connection, sorted(told & watched))
        finally:
            with suppress(Exception):
                if listener is not None:
                    listener.close()
                raw.close()


def hub(app: Flask) -> Hub:
    """The app's hub, made with the app."""
    found: Hub = app.extensions["live"]
    return found


def register(app: Flask) -> None:
    app.extensions["live"] = Hub(app)
