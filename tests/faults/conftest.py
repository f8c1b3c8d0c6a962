"""Fault tests run against a real gunicorn server with several workers, on SQLite and, when
TEST_DATABASE_URL is set, on PostgreSQL too (a database of their own beside it). Each test gets
its backend's server on emptied tables: started once a process, since starting gunicorn took
longer than many a test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.live_server import TALLY, LiveServer

from ..helpers.database import BACKENDS, database_url
from .server import FaultServer, fault_database


@pytest.fixture(scope="session", autouse=True)
def tally(request: pytest.FixtureRequest) -> Iterator[None]:
    """Say how many requests the fault suite sent, and what came back."""
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None and TALLY:
        with capture.global_and_fixture_disabled():
            reporter.write_line(
                f"\nfault suite: {TALLY.total()} requests to gunicorn, "
                f"answers {dict(sorted(TALLY.items()))}"
            )


def fault_url(backend: str, folder: Path) -> str:
    url = database_url(backend, folder)
    return fault_database(url) if backend == "postgresql" else url


@pytest.fixture(scope="session")
def servers() -> Iterator[dict[str, FaultServer]]:
    """Each backend's server, started when a test first asks for it."""
    running: dict[str, FaultServer] = {}
    yield running
    for live in running.values():
        live.kill()
        live.log.unlink(missing_ok=True)


def ready_server(
    backend: str, servers: dict[str, FaultServer], tmp_path_factory: pytest.TempPathFactory
) -> FaultServer:
    """The backend's server on emptied tables, started again if a test before stopped it."""
    live = servers.get(backend)
    if live is None:
        live = FaultServer(fault_url(backend, tmp_path_factory.mktemp("db")))
        live.fresh_schema()
        servers[backend] = live
    else:
        live.empty()
    if live.process is not None and live.process.poll() is not None:
        live.stop()
    if live.process is None:
        live.start()
    return live


@pytest.fixture(params=BACKENDS)
def server(
    request: pytest.FixtureRequest,
    servers: dict[str, FaultServer],
    tmp_path_factory: pytest.TempPathFactory,
) -> LiveServer:
    return ready_server(request.param, servers, tmp_path_factory)


@pytest.fixture(scope="module", params=BACKENDS)
def shared_server(
    request: pytest.FixtureRequest,
    servers: dict[str, FaultServer],
    tmp_path_factory: pytest.TempPathFactory,
) -> LiveServer:
    """The server for a module whose tests don't disturb each other, emptied once for them."""
    return ready_server(request.param, servers, tmp_path_factory)
