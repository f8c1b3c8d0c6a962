"""Phones watching sessions live while tables record hands: what a hand's save, a phone's look
at its session and a change reaching every phone cost when 2,000 phones watch at once.

Serves the app as `make run` does (gunicorn, 2 gevent workers) on a fresh temporary SQLite
database, or on an emptied PostgreSQL database with --database, on 127.0.0.1. It starts
--sessions sessions of five players, then --phones simulated phones (an asyncio client,
aiohttp, each phone with connections of its own, as a browser has) watch them, as many to each,
doing what `static/live.js` does:

- `stream` (what live.js does now): the phone keeps `GET /sessions/<id>/live` open, a
  stream of Server-Sent Events naming the session's version; when the version is newer than
  the one it shows, it asks `GET /api/sessions/<id>` with If-None-Match and fetches the page;
- `poll` (what live.js did before the stream): every 2 s the phone asks
  `GET /api/sessions/<id>` with If-None-Match, and fetches the page when the version changed.

Meanwhile --tables of the sessions each record a hand every --every seconds (their first hands
spread over that time), through `POST /api/sessions/<id>/hands`. After --warmup seconds it
measures for --seconds, then prints: the p50 and p95 of a hand's save and of a phone's look
(the poll, or the look a stream's news sets off), how long after a save was sent every phone
of its session showed it (p50, p95, max, and any phone that never did), the answers by status,
and the CPU time of gunicorn's processes (master and workers, from /proc) and of this client.

    .venv/bin/python bench/live_load.py [--mode stream|poll] [--phones 2000] [--sessions 400]
        [--tables 40] [--every 30] [--warmup 15] [--seconds 60] [--database URL]

--database empties the database it is given (every table, alembic_version included).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.hands import pick_bodies
from harness.live_server import LiveServer

POLL_EVERY_S = 2.0
# How long a phone waits for any one answer before it counts as failed.
REQUEST_TIMEOUT_S = 30.0
# A browser's connections to one host.
CONNECTIONS_A_PHONE = 6
SEATS_HANDS = 3


@dataclass
class Tally:
    """What the run saw, from the end of the warm-up to the end of the measure."""

    measuring_from: float = 0.0
    measuring_to: float = float("inf")
    writes: list[float] = field(default_factory=list)
    looks: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    # (session, version) -> when the save that made that version was sent.
    saved_at: dict[tuple[int, int], float] = field(default_factory=dict)
    # (session, version) -> when each phone first showed it (or a later version).
    seen: dict[tuple[int, int], list[float]] = field(default_factory=lambda: defaultdict(list))
    streams_open: int = 0

    def measuring(self, at: float) -> bool:
        return self.measuring_from <= at <= self.measuring_to

    def count(self, what: str, status: int | str) -> None:
        self.statuses[f"{what} {status}"] += 1


def version_of(etag: str | None) -> int:
    return int((etag or '"0"').removeprefix("W/").strip('"'))


class Phone:
    """One phone watching one session, showing the version it last fetched the page at."""

    def __init__(self, base: str, session_id: int, version: int, tally: Tally) -> None:
        self.base = base
        self.session_id = session_id
        self.shows = version
        self.tally = tally
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=CONNECTIONS_A_PHONE, force_close=False),
            timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S),
        )

    async def look(self) -> None:
        """Ask whether the session changed; fetch the page when it did."""
        began = time.monotonic()
        try:
            async with self.http.get(
                f"{self.base}/api/sessions/{self.session_id}",
                headers={"If-None-Match": f'"{self.shows}"', "Accept": "application/json"},
            ) as answer:
                await answer.read()
                status, etag = answer.status, answer.headers.get("ETag")
        except (aiohttp.ClientError, TimeoutError) as error:
            self.tally.count("look", type(error).__name__)
            return
        if self.tally.measuring(began):
            self.tally.looks.append(time.monotonic() - began)
            self.tally.count("look", status)
        if status != 200 or version_of(etag) <= self.shows:
            return
        fetched = time.monotonic()
        try:
            async with self.http.get(f"{self.base}/sessions/{self.session_id}") as page:
                await page.read()
                page_status = page.status
        except (aiohttp.ClientError, TimeoutError) as error:
            self.tally.count("page", type(error).__name__)
            return
        now = time.monotonic()
        if self.tally.measuring(fetched):
            self.tally.pages.append(now - fetched)
            self.tally.count("page", page_status)
        if page_status != 200:
            return
        for version in range(self.shows + 1, version_of(etag) + 1):
            self.tally.seen[(self.session_id, version)].append(now)
        self.shows = version_of(etag)

    async def poll(self, start: float, until: float) -> None:
        at = start
        while at < until:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            await self.look()
            at += POLL_EVERY_S

    async def stream(self, start: float, until: float) -> None:
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        while time.monotonic() < until:
            try:
                await self._stream_once(until)
            except (aiohttp.ClientError, TimeoutError) as error:
                self.tally.count("stream", type(error).__name__)
                await asyncio.sleep(POLL_EVERY_S)

    async def _stream_once(self, until: float) -> None:
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=REQUEST_TIMEOUT_S)
        async with self.http.get(
            f"{self.base}/sessions/{self.session_id}/live",
            headers={"Accept": "text/event-stream"},
            timeout=timeout,
        ) as answer:
            self.tally.count("stream", answer.status)
            if answer.status != 200:
                await asyncio.sleep(POLL_EVERY_S)
                return
            self.tally.streams_open += 1
            try:
                while time.monotonic() < until:
                    left = until - time.monotonic()
                    try:
                        line = await asyncio.wait_for(answer.content.readline(), left)
                    except TimeoutError:
                        return
                    if not line:
                        return
                    text = line.decode().strip()
                    if text.startswith("data:") and int(text[5:]) > self.shows:
                        asyncio.get_running_loop().create_task(self.look())
            finally:
                self.tally.streams_open -= 1

    async def close(self) -> None:
        await self.http.close()


async def table(
    base: str, session_id: int, first: float, every: float, until: float, tally: Tally
) -> None:
    """A table recording a hand every `every` seconds from `first`."""
    async with aiohttp.ClientSession(
        timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_S)
    ) as http:
        bodies = iter(pick_bodies(1000, offset=SEATS_HANDS))
        at = first
        while at < until:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            sent = time.monotonic()
            try:
                async with http.post(
                    f"{base}/api/sessions/{session_id}/hands", json=next(bodies)
                ) as answer:
                    body = await answer.json()
                    status = answer.status
            except (aiohttp.ClientError, TimeoutError) as error:
                tally.count("write", type(error).__name__)
                at += every
                continue
            if tally.measuring(sent):
                tally.writes.append(time.monotonic() - sent)
                tally.count("write", status)
            if status == 201:
                # A hand's answer names its number; the version is the hand count plus the
                # session's start (one write made it, and SEATS_HANDS hands before the run).
                tally.saved_at[(session_id, 1 + int(body["number"]))] = sent
            at += every


async def run(base: str, sessions: dict[int, int], given: argparse.Namespace) -> Tally:
    tally = Tally()
    ids = sorted(sessions)
    now = time.monotonic()
    start = now + 1.0
    tally.measuring_from = start + given.warmup
    tally.measuring_to = tally.measuring_from + given.seconds
    until = tally.measuring_to
    phones = [
        Phone(base, ids[n % len(ids)], sessions[ids[n % len(ids)]], tally)
        for n in range(given.phones)
    ]
    work = []
    for n, phone in enumerate(phones):
        begins = start + POLL_EVERY_S * n / len(phones)
        if given.mode == "poll":
            work.append(phone.poll(begins, until))
        else:
            work.append(phone.stream(begins, until))
    for n, session_id in enumerate(ids[: given.tables]):
        first = tally.measuring_from - given.warmup / 2 + given.every * n / given.tables
        work.append(table(base, session_id, first, given.every, until, tally))
    cpu = asyncio.get_running_loop().create_task(measure_cpu(given.group, tally))
    await asyncio.gather(*work)
    # The last saves' news, and the looks it sets off, still on their way.
    await asyncio.sleep(3.0)
    await asyncio.gather(*(phone.close() for phone in phones))
    given.cpu = await cpu
    return tally


async def measure_cpu(group: int, tally: Tally) -> tuple[float, float, float]:
    """gunicorn's CPU seconds and this client's over the measure, and its length."""
    await asyncio.sleep(max(0.0, tally.measuring_from - time.monotonic()))
    server, client, began = cpu_seconds(group), own_cpu(), time.monotonic()
    await asyncio.sleep(max(0.0, tally.measuring_to - time.monotonic()))
    took = time.monotonic() - began
    return cpu_seconds(group) - server, own_cpu() - client, took


def own_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def cpu_seconds(group: int) -> float:
    """User and system CPU time of every process in a process group, from /proc."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def quantiles(seconds: list[float]) -> str:
    if not seconds:
        return "none"
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return 1000 * ordered[round(q * (len(ordered) - 1))]

    return f"p50 {at(0.5):.0f} ms, p95 {at(0.95):.0f} ms, max {at(1.0):.0f} ms ({len(ordered)})"


def report(tally: Tally, given: argparse.Namespace, watching: dict[int, int]) -> None:
    server_cpu, client_cpu, took = given.cpu
    print(
        f"{given.phones} phones on {given.sessions} sessions ({given.mode}), {given.tables} "
        f"tables recording a hand every {given.every:g} s, {given.backend}, gunicorn, "
        f"2 gevent workers, {given.seconds:g} s measured after {given.warmup:g} s"
    )
    print(f"  hand saved:   {quantiles(tally.writes)}")
    print(f"  phone looks:  {quantiles(tally.looks)}")
    print(f"  page fetched: {quantiles(tally.pages)}")
    delays: list[float] = []
    missed = 0
    for (session_id, version), sent in tally.saved_at.items():
        if not tally.measuring(sent) or sent > tally.measuring_to - 5:
            continue
        seen = tally.seen.get((session_id, version), [])
        delays.extend(at - sent for at in seen)
        missed += watching[session_id] - len(seen)
    print(f"  change seen by every phone of its session, from the save sent: {quantiles(delays)}")
    print(f"    phones that never showed a save: {missed}")
    print("  answers: " + ", ".join(f"{k}: {n}" for k, n in sorted(tally.statuses.items())))
    print(
        f"  gunicorn CPU: {server_cpu / took * 100:.0f}% of one core "
        f"({server_cpu:.1f} s in {took:.0f} s); this client: {client_cpu / took * 100:.0f}%; "
        f"{os.cpu_count()} CPUs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("stream", "poll"), default="stream")
    parser.add_argument("--phones", type=int, default=2000)
    parser.add_argument("--sessions", type=int, default=400)
    parser.add_argument("--tables", type=int, default=40, help="sessions recording hands")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between a table's hands")
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long it measures")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a new SQLite file)")
    given = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(given.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        given.backend = server.database.split(":", 1)[0].split("+")[0]
        server.fresh_schema()
        server.start()
        try:
            sessions = {}
            for _ in range(given.sessions):
                session_id = int(server.new_session()["id"])
                for body in pick_bodies(SEATS_HANDS):
                    answer = server.call("POST", f"/api/sessions/{session_id}/hands", body)
                    assert answer.status == 201, answer.body
                etag = server.call("GET", f"/api/sessions/{session_id}").header("ETag")
                sessions[session_id] = version_of(etag)
                assert sessions[session_id] == 1 + SEATS_HANDS, etag
            assert server.process is not None
            given.group = server.process.pid
            watching = Counter(sorted(sessions)[n % len(sessions)] for n in range(given.phones))
            tally = asyncio.run(run(f"http://127.0.0.1:{server.port}", sessions, given))
            report(tally, given, watching)
        finally:
            server.stop()
            server.log.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
