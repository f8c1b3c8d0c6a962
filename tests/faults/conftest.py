"""Fault tests run against a real gunicorn server with several workers, on SQLite and, when
TEST_DATABASE_URL is set, on PostgreSQL too (a database of their own beside it). Each test gets
a freshly upgraded database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def served(database: str) -> Iterator[LiveServer]:
    server = FaultServer(database)
    server.fresh_schema()
    server.start()
    try:
        yield server
    finally:
        server.kill()
        server.log.unlink(missing_ok=True)


def fault_url(backend: str, folder: Path) -> str:
    url = database_url(backend, folder)
    return fault_database(url) if backend == "postgresql" else url


@pytest.fixture(params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    with served(fault_url(request.param, tmp_path)) as live:
        yield live


@pytest.fixture(scope="module", params=BACKENDS)
def shared_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """One server for a module whose tests don't disturb each other."""
    with served(fault_url(request.param, tmp_path_factory.mktemp("db"))) as live:
        yield live
