"""The proxies' configurations in deploy/ are the README's blocks, and `make run HTTPS=1` runs
Caddy as the https tests (tests/browser/test_https.py) run it: the same command and file, told
the same things."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from harness.proxy import CADDYFILE, ROOT, Caddy, caddy_command

DEPLOY = ROOT / "deploy"
FENCED = re.compile(r"^```[a-z]*\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def readme_blocks() -> list[str]:
    return FENCED.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_shows_the_caddy_and_nginx_blocks_the_tests_serve_through() -> None:
    blocks = readme_blocks()
    for name in ("Caddyfile", "nginx.conf", "Caddyfile.servers"):
        assert (DEPLOY / name).read_text(encoding="utf-8") in blocks, name
    # make run HTTPS=1 serves the README's Caddy block, with its own authority around it.
    lan = (ROOT / CADDYFILE).read_text(encoding="utf-8")
    assert "\nimport Caddyfile\n" in lan
    assert "\tlocal_certs\n" in lan and "\tskip_install_trust\n" in lan


def test_make_run_https_runs_caddy_as_the_https_tests_do() -> None:
    caddy = Caddy(
        caddy="caddy",
        name="scores.test",
        app_port=5123,
        data=Path("/srv/club/caddy"),
        https_port=8443,
        http_port=8080,
    )
    told = {**caddy.environment, "CADDY": "caddy"}
    dry = subprocess.run(
        [
            "make",
            "--dry-run",
            "run",
            "HTTPS=1",
            *(f"{name}={value}" for name, value in told.items()),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    # The recipe's lines, each command whole.
    script = re.sub(r"\\\n\s*", " ", dry.stdout)
    line = next(line for line in script.splitlines() if " caddy run " in line)
    words = shlex.split(line.partition(" & ")[0])
    command = caddy_command("caddy")
    assert words[-len(command) :] == command
    given = dict(word.split("=", 1) for word in words[: -len(command)])
    assert given == caddy.environment
    # gunicorn listens on this computer alone, behind Caddy, believes it, and offers its root.
    served = shlex.split(line.partition(" & ")[2].rpartition("; ")[2])
    assert served[:3] == ["TRUSTED_PROXIES=1", "ALLOWED_HOSTS=scores.test", f"CA_ROOT={caddy.root}"]
    assert served[3:6] == [".venv/bin/gunicorn", "--bind", "127.0.0.1:5123"]
