"""The app served as `make run` serves it (gunicorn, 2 gevent workers), for the fault tests and
the benchmarks, `flask` commands run against its database, and a small HTTP client with
bounded timeouts.

The server and the `flask` commands run in their own processes, so a caller sees exactly what a
phone would.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from harness.database import drop_everything

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0
# The most sessions a page of `GET /api/sessions` lists.
SESSIONS_A_PAGE = 1000
# Every answer this process got from its servers, by status.
TALLY: Counter[int] = Counter()
_TALLY_LOCK = threading.Lock()
START_TIMEOUT = 30.0
STOP_TIMEOUT = 4.0
# What scorekeeper.serving logs once a worker has loaded the app.
READY = b"Worker ready (pid: "
SECRET_KEY = "faults"
SEATS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
T = TypeVar("T")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def flask_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "flask", "--app", "scorekeeper", *args]


def flask(database: str, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """`flask --app scorekeeper ARGS` against the database, as a separate process."""
    return subprocess.run(
        flask_command(*args),
        env=server_env(database),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def server_env(database: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database, "SECRET_KEY": SECRET_KEY}


def upgrade(database: str) -> None:
    done = flask(database, "db", "upgrade")
    if done.returncode != 0:
        raise RuntimeError(f"flask db upgrade failed:\n{done.stderr}")


def alive_in_group(group: int) -> bool:
    """Whether a process of the group still runs. A worker whose master was killed is reaped by
    init, which may take a second, but a dead process holds no port or file meanwhile: on Linux
    such zombies don't count."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for stat in proc.glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")".
            state, _, pgrp = stat.read_text().rpartition(")")[2].split()[:3]
            if int(pgrp) == group and state != "Z":
                return True
    return False


@dataclass
class LiveServer:
    """gunicorn serving the app on a free port, in its own process group: bound to `host`
    (this computer alone, or 0.0.0.0 as `make run` binds it), with `env` added to its
    environment."""

    database: str
    workers: int = 2
    port: int = 0
    host: str = "127.0.0.1"
    env: dict[str, str] = field(default_factory=dict)
    log: Path = field(default_factory=lambda: Path(tempfile.mkstemp(suffix=".log")[1]))
    process: subprocess.Popen[bytes] | None = None
    # Each request logged to `log` too, as `make run` logs it.
    access_log: bool = False

    def fresh_schema(self) -> None:
        """Empty the database (alembic_version too), then `flask db upgrade` it."""
        drop_everything(self.database)
        upgrade(self.database)

    def start(self, same_port: bool = False) -> None:
        """Start gunicorn and return once every worker has loaded the app and one answers: on a
        free port, or on the port it had (`same_port`), as a server restarted is."""
        if not (same_port and self.port):
            self.port = free_port()
        logged = self.log.stat().st_size
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "--bind",
                    f"{self.host}:{self.port}",
                    "--workers",
                    str(self.workers),
                    "--no-control-socket",
                    "--config",
                    "python:scorekeeper.serving",
                    *(["--access-logfile", "-"] if self.access_log else []),
                    "scorekeeper:create_app()",
                ],
                env={**server_env(self.database), **self.env},
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start:\n{self.log.read_text()}")
            with self.log.open("rb") as log:
                log.seek(logged)
                ready = log.read().count(READY)
            try:
                # Behind a proxy (TRUSTED_PROXIES), a request straight to the port is refused:
                # an answer of the app all the same.
                if ready >= self.workers and self.call(
                    "GET", "/api/sessions", timeout=2
                ).status in (200, 421):
                    return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT} s")

    def _signal(self, signum: int) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signum)

    def stop(self) -> None:
        """Stop gunicorn and its workers: SIGTERM to the group, SIGKILL if it lingers."""
        if self.process is None:
            return
        self._signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self._reap_group()
        self.process = None

    def kill(self) -> None:
        """kill -9 the whole process group, master and workers at once."""
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._reap_group()
        self.process = None

    def _reap_group(self) -> None:
        """Wait until no worker of the group is left holding the port or the database."""
        assert self.process is not None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if not alive_in_group(self.process.pid):
                return
            time.sleep(0.02)
        os.killpg(self.process.pid, signal.SIGKILL)

    def restart(self, same_port: bool = False) -> None:
        self.stop()
        self.start(same_port)

    def new_session(self, **given: Any) -> dict[str, Any]:
        answer = self.call("POST", "/api/sessions", {"players": SEATS, "rounds": 0, **given})
        assert answer.status == 201, answer.body
        return answer.json()  # type: ignore[no-any-return]

    def session(self, session_id: int) -> dict[str, Any]:
        answer = self.call("GET", f"/api/sessions/{session_id}")
        assert answer.status == 200, answer.body
        return answer.json()  # type: ignore[no-any-return]

    def sessions(self) -> list[dict[str, Any]]:
        """Every session's summary, newest first: `GET /api/sessions` a page at a time."""
        listed: list[dict[str, Any]] = []
        path: str | None = f"/api/sessions?limit={SESSIONS_A_PAGE}"
        while path:
            answer = self.call("GET", path)
            assert answer.status == 200, answer.body
            listed.extend(answer.json()["sessions"])
            path = answer.json().get("next")
        return listed

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        timeout: float = TIMEOUT,
    ) -> Answer:
        """One request on its own connection: `body` is sent as JSON, `raw` as it is."""
        sent = dict(headers or {})
        if body is not None:
            raw = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=raw, headers=sent)
            response = connection.getresponse()
            with _TALLY_LOCK:
                TALLY[response.status] += 1
            return Answer(
                response.status,
                {name.lower(): value for name, value in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()


def at_once(count: int, work: Callable[[int], T]) -> list[T]:
    """work(0) .. work(count - 1) on as many threads, released together; results in order.
    Every wait is bounded, so a hung request fails its test instead of hanging the suite."""
    start = threading.Barrier(count)

    def run(i: int) -> T:
        start.wait(timeout=TIMEOUT)
        return work(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(run, i) for i in range(count)]
        return [future.result(timeout=4 * TIMEOUT) for future in futures]
