"""What live updates cost: a phone's poll that finds nothing new, and idle phones polling.

Serves the app with gunicorn as `make run` does (2 gevent workers) on a fresh temporary
SQLite database and creates sessions of 20 and 200 hands through the API. For each session:

- the server's time for `GET /api/sessions/<id>` with `If-None-Match` naming its version (the
  304 every idle phone gets every 2 s), in-process through the Flask test client on the same
  database, so no network is counted: median and p95 of --runs;
- the same poll's round trip to gunicorn, one connection a request: median and p95;
- the bytes on the wire of one poll, headers included: the request as Chromium's fetch sends it
  (its headers, a session cookie among them) and the 304 read back from a raw socket.

Then --phones idle phones poll the 200-hand session every 2 s for --seconds, each request on
its own connection, spread over the 2 s, and the CPU time of gunicorn's processes (master and
workers, from /proc) is compared with the same time with no phone: requests/s, their latency,
and CPU ms per second for each phone.

    .venv/bin/python bench/live_poll.py [--runs 500] [--phones 20] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.hands import pick_bodies
from harness.live_server import LiveServer
from scorekeeper import create_app

EVERY_S = 2.0
HAND_COUNTS = (20, 200)
# The headers Chromium's fetch sent for a poll in the browser tests, Host and If-None-Match
# filled in per request.
CHROMIUM_HEADERS = (
    "Connection: keep-alive\r\n"
    "Pragma: no-cache\r\n"
    "Cache-Control: no-cache\r\n"
    'sec-ch-ua-platform: "Android"\r\n'
    'sec-ch-ua: "Not:A-Brand";v="8", "Chromium";v="156"\r\n'
    "sec-ch-ua-mobile: ?1\r\n"
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/156.0.0.0 Mobile Safari/537.36\r\n"
    "Accept: application/json\r\n"
    "Sec-Fetch-Site: same-origin\r\n"
    "Sec-Fetch-Mode: cors\r\n"
    "Sec-Fetch-Dest: empty\r\n"
    "Referer: http://{host}/sessions/{session}\r\n"
    "Accept-Encoding: gzip, deflate, br, zstd\r\n"
    "Accept-Language: en-US,en;q=0.9\r\n"
    "Cookie: session=eyJjc3JmX3Rva2VuIjoiYWU0N2Y3MzZlN2JmZmVkMzRkYmI2M2IxMzM4ZTFlOGVkMjlhZTgwYSJ9"
    ".awSYZw.8JmJdHfKOe8UMOBo9GNdVlNQt0M\r\n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500, help="polls timed per session")
    parser.add_argument("--phones", type=int, default=20, help="idle phones polling at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long they poll")
    given = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        server = LiveServer(database)
        server.fresh_schema()
        server.start()
        try:
            sessions = {count: session_of(server, count) for count in HAND_COUNTS}
            print("A poll that finds nothing new (304), SQLite, gunicorn, 2 gevent workers")
            for count, (session_id, etag) in sessions.items():
                one_session(server, database, session_id, etag, count, given.runs)
            session_id, etag = sessions[HAND_COUNTS[-1]]
            idle_phones(server, session_id, etag, given.phones, given.seconds)
        finally:
            server.stop()
            server.log.unlink(missing_ok=True)


def session_of(server: LiveServer, hand_count: int) -> tuple[int, str]:
    """A session of `hand_count` hands recorded through the API, and its ETag."""
    session_id = int(server.new_session()["id"])
    for body in pick_bodies(hand_count):
        answer = server.call("POST", f"/api/sessions/{session_id}/hands", body)
        assert answer.status == 201, answer.body
    etag = server.call("GET", f"/api/sessions/{session_id}").header("ETag")
    assert etag is not None
    return session_id, etag


def one_session(
    server: LiveServer, database: str, session_id: int, etag: str, hand_count: int, runs: int
) -> None:
    path = f"/api/sessions/{session_id}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    client = app.test_client()
    in_process = []
    for _ in range(runs):
        began = time.perf_counter()
        status = client.get(path, headers={"If-None-Match": etag}).status_code
        in_process.append(time.perf_counter() - began)
        assert status == 304, status
    round_trip = []
    for _ in range(runs):
        began = time.perf_counter()
        status = server.call("GET", path, headers={"If-None-Match": etag}).status
        round_trip.append(time.perf_counter() - began)
        assert status == 304, status
    sent, received = wire_bytes(server.port, session_id, etag)
    print(
        f"  {hand_count:>3} hands: server {ms(in_process, 0.5)} ms median, "
        f"{ms(in_process, 0.95)} ms p95; round trip {ms(round_trip, 0.5)} ms median, "
        f"{ms(round_trip, 0.95)} ms p95; {sent + received} bytes a poll "
        f"({sent} sent, {received} received, body 0)"
    )


def ms(seconds: list[float], quantile: float) -> str:
    ordered = sorted(seconds)
    return f"{1000 * ordered[round(quantile * (len(ordered) - 1))]:.2f}"


def wire_bytes(port: int, session_id: int, etag: str) -> tuple[int, int]:
    """The bytes of one poll as Chromium sends it, and of the 304 that answers it."""
    host = f"127.0.0.1:{port}"
    request = (
        f"GET /api/sessions/{session_id} HTTP/1.1\r\nHost: {host}\r\nIf-None-Match: {etag}\r\n"
        + CHROMIUM_HEADERS.format(host=host, session=session_id)
        + "\r\n"
    ).encode("latin-1")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 304"), head[:40]
    assert body == b"", body
    return len(request), len(head) + 4


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


def idle_phones(
    server: LiveServer, session_id: int, etag: str, phones: int, seconds: float
) -> None:
    assert server.process is not None
    group = server.process.pid
    path = f"/api/sessions/{session_id}"

    before = cpu_seconds(group)
    time.sleep(seconds)
    idle_cpu = cpu_seconds(group) - before

    latencies: list[float] = []
    statuses: list[int] = []
    lock = threading.Lock()
    start = time.monotonic() + 0.5

    def phone(number: int) -> None:
        at = start + EVERY_S * number / phones
        while at < start + seconds:
            time.sleep(max(0.0, at - time.monotonic()))
            began = time.perf_counter()
            status = server.call("GET", path, headers={"If-None-Match": etag}).status
            took = time.perf_counter() - began
            with lock:
                latencies.append(took)
                statuses.append(status)
            at += EVERY_S

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(phones)]
    time.sleep(max(0.0, start - time.monotonic()))
    before = cpu_seconds(group)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    busy_cpu = cpu_seconds(group) - before

    assert set(statuses) == {304}, set(statuses)
    per_phone = 1000 * (busy_cpu - idle_cpu) / seconds / phones
    print(
        f"{phones} idle phones polling every {EVERY_S:g} s for {seconds:g} s "
        f"(the 200-hand session): {len(statuses) / seconds:.1f} requests/s, "
        f"round trip {ms(latencies, 0.5)} ms median, {ms(latencies, 0.95)} ms p95"
    )
    print(
        f"  gunicorn CPU: {1000 * busy_cpu / seconds:.1f} ms/s with them, "
        f"{1000 * idle_cpu / seconds:.1f} ms/s with none: {per_phone:.2f} ms/s a phone "
        f"({per_phone / 1000 * 100:.3f}% of one core)"
    )


if __name__ == "__main__":
    main()
