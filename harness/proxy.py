"""The https proxies in front of the app, for the https tests: Caddy as `make run HTTPS=1` runs it
(`deploy/Caddyfile.lan`, which imports the README's `deploy/Caddyfile`), with a certificate
authority of its own, and nginx with the README's server block (`deploy/nginx.conf`) and the
certificate Caddy's authority made. Each runs as a child process in its own process group.

They serve a test name no resolver knows (`scores.test`, a name kept for tests by RFC 2606):
a client connects to 127.0.0.1 and asks for the name in its TLS handshake and Host header, and
trusts Caddy's authority alone, as a phone that installed its root does.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.live_server import Answer, free_port

ROOT = Path(__file__).resolve().parents[1]
# As `make run HTTPS=1` names it, from the checkout's top.
CADDYFILE = "deploy/Caddyfile.lan"
# The README's block for several app servers behind one Caddy.
SERVERS_CADDYFILE = ROOT / "deploy" / "Caddyfile.servers"
NGINX_SITE = ROOT / "deploy" / "nginx.conf"
TIMEOUT = 30.0
START_TIMEOUT = 30.0
STOP_TIMEOUT = 5.0
# What the README's nginx block names, and the test fills in.
NGINX_NAME = "scores.example.org"
NGINX_LISTEN = "listen 443 ssl;"
NGINX_CERTIFICATE = "/etc/letsencrypt/live/scores.example.org/fullchain.pem"
NGINX_KEY = "/etc/letsencrypt/live/scores.example.org/privkey.pem"
NGINX_APP = "http://127.0.0.1:5000;"


def caddy_path() -> str | None:
    return _found(os.environ.get("CADDY"), shutil.which("caddy"), "/usr/bin/caddy")


def nginx_path() -> str | None:
    return _found(os.environ.get("NGINX"), shutil.which("nginx"), "/usr/sbin/nginx")


def _found(*candidates: str | None) -> str | None:
    return next((c for c in candidates if c and Path(c).exists()), None)


def caddy_command(caddy: str) -> list[str]:
    """Caddy as `make run HTTPS=1` starts it, from the checkout's top."""
    return [caddy, "run", "--config", CADDYFILE, "--adapter", "caddyfile"]


class LoopbackHTTPSConnection(http.client.HTTPSConnection):
    """An https connection to a name, made to 127.0.0.1: the name is what the TLS handshake
    asks for, what the certificate is checked against and the Host header."""

    def __init__(
        self, host: str, port: int | None = None, *, context: ssl.SSLContext, timeout: float
    ) -> None:
        super().__init__(host, port, context=context, timeout=timeout)
        self.trusting = context

    def connect(self) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self.trusting.wrap_socket(raw, server_hostname=self.host)


class LoopbackHTTPSHandler(urllib.request.HTTPSHandler):
    """urllib's https, every name reached at 127.0.0.1, trusting the authority's root alone."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.trusting = ssl.create_default_context(cafile=str(root))

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        def connection(host: str, timeout: float = TIMEOUT) -> LoopbackHTTPSConnection:
            return LoopbackHTTPSConnection(host, context=self.trusting, timeout=timeout)

        return self.do_open(connection, req)  # type: ignore[arg-type]


def call(
    url: str,
    root: Path,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = TIMEOUT,
    raw: bytes | None = None,
) -> Answer:
    """One request to `url` (`https://name:port` reached at 127.0.0.1 trusting `root`, or
    `http://name:port`) on its own connection; `body` is sent as JSON, `raw` as it is."""
    scheme, _, where = url.partition("://")
    name, _, port = where.partition(":")
    sent = dict(headers or {})
    if body is not None:
        raw = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    connection: http.client.HTTPConnection
    if scheme == "https":
        trusting = ssl.create_default_context(cafile=str(root))
        connection = LoopbackHTTPSConnection(name, int(port), context=trusting, timeout=timeout)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=timeout)
        sent.setdefault("Host", where)
    try:
        connection.request(method, path, body=raw, headers=sent)
        response = connection.getresponse()
        return Answer(
            response.status,
            {name.lower(): value for name, value in response.getheaders()},
            response.read(),
        )
    finally:
        connection.close()


def _der_element(der: bytes, at: int) -> tuple[int, int, int]:
    """The tag of the DER element at `at`, where its value starts and where it ends."""
    tag, length, start = der[at], der[at + 1], at + 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(der[start : start + count], "big")
        start += count
    return tag, start, start + length


def spki_sha256(pem: str) -> str:
    """The base64 SHA-256 of a certificate's public key (its SubjectPublicKeyInfo), as
    Chromium's --ignore-certificate-errors-spki-list names the keys it trusts."""
    der = ssl.PEM_cert_to_DER_cert(pem)
    _tag, certificate, _end = _der_element(der, 0)
    _tag, at, _end = _der_element(der, certificate)
    if der[at] == 0xA0:  # the version, [0], which only version 1 leaves out
        at = _der_element(der, at)[2]
    for _field in ("serialNumber", "signature", "issuer", "validity", "subject"):
        at = _der_element(der, at)[2]
    end = _der_element(der, at)[2]
    return base64.b64encode(hashlib.sha256(der[at:end]).digest()).decode()


@dataclass
class Proxy:
    """A proxy process in its own process group, its output in `log`."""

    log: Path = field(default_factory=lambda: Path(tempfile.mkstemp(suffix=".log")[1]))
    process: subprocess.Popen[bytes] | None = None

    def _start(self, command: list[str], env: dict[str, str] | None = None) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def _wait_until(self, answers: Any, what: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"{what} exited at start:\n{self.log.read_text()}")
            with contextlib.suppress(OSError, ssl.SSLError, http.client.HTTPException):
                if answers():
                    return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(
            f"{what} did not answer within {START_TIMEOUT} s:\n{self.log.read_text()}"
        )

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None


@dataclass
class Caddy(Proxy):
    """Caddy as `make run HTTPS=1` runs it, for `name`, in front of the app on `app_port`:
    https on `https_port`, the install page over plain http on `http_port`, its authority and
    certificates kept in `data`."""

    caddy: str = "caddy"
    name: str = "scores.test"
    app_port: int = 0
    data: Path = field(default_factory=lambda: Path(tempfile.mkdtemp()) / "caddy")
    https_port: int = 0
    http_port: int = 0

    @property
    def environment(self) -> dict[str, str]:
        """What `make run HTTPS=1` tells Caddy, the names `deploy/Caddyfile.lan` reads."""
        return {
            "HTTPS_NAME": self.name,
            "PORT": str(self.app_port),
            "HTTPS_PORT": str(self.https_port),
            "HTTP_PORT": str(self.http_port),
            "CADDY_DATA": str(self.data),
        }

    @property
    def root(self) -> Path:
        """The authority's root certificate, which a phone trusts."""
        return self.data / "pki" / "authorities" / "local" / "root.crt"

    @property
    def intermediate(self) -> Path:
        """The authority's intermediate certificate, which signs the name's certificate."""
        return self.data / "pki" / "authorities" / "local" / "intermediate.crt"

    @property
    def certificate(self) -> tuple[Path, Path]:
        """The name's certificate (with the intermediate after it) and its key."""
        folder = self.data / "certificates" / "local" / self.name
        return folder / f"{self.name}.crt", folder / f"{self.name}.key"

    @property
    def url(self) -> str:
        return f"https://{self.name}:{self.https_port}"

    @property
    def plain_url(self) -> str:
        return f"http://{self.name}:{self.http_port}"

    def start(self) -> None:
        self.https_port, self.http_port = free_port(), free_port()
        self._start(caddy_command(self.caddy), {**os.environ, **self.environment})
        self._wait_until(
            lambda: self.root.exists() and self.call("GET", "/manifest.webmanifest").status > 0,
            "Caddy",
        )

    def call(self, method: str, path: str, **given: Any) -> Answer:
        return call(self.url, self.root, method, path, **given)

    def call_plain(self, method: str, path: str, **given: Any) -> Answer:
        return call(self.plain_url, self.root, method, path, **given)


@dataclass
class Nginx(Proxy):
    """nginx with the README's server block (`deploy/nginx.conf`) for `name`, in front of the
    app on `app_port`, listening on `port` with the certificate and key given. Its own files
    (the main configuration, pid, logs, temporary files) are kept in `folder`."""

    nginx: str = "nginx"
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp()))
    name: str = "scores.test"
    app_port: int = 0
    certificate: Path = Path()
    key: Path = Path()
    root: Path = Path()
    port: int = 0

    def site(self) -> str:
        """`deploy/nginx.conf` with what it names filled in."""
        text = NGINX_SITE.read_text(encoding="utf-8")
        for placeholder in (NGINX_LISTEN, NGINX_CERTIFICATE, NGINX_KEY, NGINX_APP):
            assert text.count(placeholder) == 1, f"{NGINX_SITE} no longer names {placeholder}"
        return (
            text.replace(NGINX_LISTEN, f"listen 127.0.0.1:{self.port} ssl;")
            .replace(NGINX_CERTIFICATE, str(self.certificate))
            .replace(NGINX_KEY, str(self.key))
            .replace(NGINX_APP, f"http://127.0.0.1:{self.app_port};")
            .replace(NGINX_NAME, self.name)
        )

    @property
    def main_config(self) -> Path:
        return self.folder / "nginx.conf"

    def write(self) -> None:
        """The main configuration, which holds the site in its http block."""
        self.port = self.port or free_port()
        folder = self.folder
        (folder / "site.conf").write_text(self.site(), encoding="utf-8")
        # Its workers run as whoever runs the test, who can read the folder.
        user = "user root;\n" if os.geteuid() == 0 else ""
        self.main_config.write_text(
            f"daemon off;\n{user}pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
            "events { worker_connections 64; }\n"
            "http {\n"
            "    access_log off;\n"
            f"    client_body_temp_path {folder}/client_body;\n"
            f"    proxy_temp_path {folder}/proxy;\n"
            f"    fastcgi_temp_path {folder}/fastcgi;\n"
            f"    uwsgi_temp_path {folder}/uwsgi;\n"
            f"    scgi_temp_path {folder}/scgi;\n"
            f"    include {folder}/site.conf;\n"
            "}\n",
            encoding="utf-8",
        )

    def command(self, *args: str) -> list[str]:
        return [
            self.nginx, "-p", str(self.folder), "-e", str(self.folder / "error.log"),
            "-c", str(self.main_config), *args,
        ]  # fmt: skip

    def check(self) -> subprocess.CompletedProcess[str]:
        """`nginx -t`: the configuration read and checked, certificates included."""
        self.write()
        return subprocess.run(
            self.command("-t"), capture_output=True, text=True, timeout=TIMEOUT, check=False
        )

    @property
    def url(self) -> str:
        return f"https://{self.name}:{self.port}"

    def start(self) -> None:
        self.write()
        self._start(self.command())
        self._wait_until(lambda: self.call("GET", "/manifest.webmanifest").status > 0, "nginx")

    def call(self, method: str, path: str, **given: Any) -> Answer:
        return call(self.url, self.root, method, path, **given)


@dataclass
class Balancer(Proxy):
    """Caddy with the README's block for several app servers (`deploy/Caddyfile.servers`), in
    turn to the app on each of `app_ports`, served over plain http on 127.0.0.1 at `port`: the
    servers' https is the same as one server's."""

    caddy: str = "caddy"
    app_ports: tuple[int, ...] = ()
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp()))
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.port = self.port or free_port()
        config = self.folder / "Caddyfile"
        config.write_text(
            "{\n\tadmin off\n"
            f"\tstorage file_system {self.folder / 'data'}\n}}\n"
            f"import {SERVERS_CADDYFILE}\n",
            encoding="utf-8",
        )
        servers = " ".join(f"127.0.0.1:{port}" for port in self.app_ports)
        env = {
            **os.environ,
            "HTTPS_NAME": self.url,
            "SERVERS": servers,
            # Where Caddy keeps what it saves of itself: here, not in the home folder.
            "XDG_CONFIG_HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder),
        }
        command = [self.caddy, "run", "--config", str(config), "--adapter", "caddyfile"]
        self._start(command, env)
        self._wait_until(lambda: self.call("GET", "/manifest.webmanifest").status == 200, "Caddy")

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        timeout: float = TIMEOUT,
    ) -> Answer:
        """As `LiveServer.call`, through Caddy."""
        return call(self.url, Path(), method, path, body, headers, timeout, raw)
