"""Lighthouse's accessibility and best-practices scores, mobile form factor, for the home page,
a scoresheet with three hands and the record-hand form, served locally on a new database.

Runs Lighthouse 12 from the npm registry through npx with Debian's Chromium (the first run
downloads it). A bench, not a test: it prints the scores and exits 1 if any is under 100.

    .venv/bin/python bench/lighthouse.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.threaded_server import make_closing_server
from scorekeeper import create_app
from scorekeeper.sessions.extensions import db

CATEGORIES = ("accessibility", "best-practices")
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")


def api(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = Request(base + path, data=json.dumps(body).encode(), method="POST",
                      headers={"Content-Type": "application/json"})  # fmt: skip
    with urlopen(request) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def scores(url: str, out: Path) -> dict[str, int]:
    subprocess.run(
        [
            "npx", "--yes", "lighthouse@12", url,
            f"--only-categories={','.join(CATEGORIES)}",
            "--form-factor=mobile", "--output=json", f"--output-path={out}", "--quiet",
            "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-dev-shm-usage",
        ],
        check=True,
        env={**os.environ, "CHROME_PATH": CHROME},
    )  # fmt: skip
    report = json.loads(out.read_text())
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                print(f"  {category}: {audit['id']}: {audit['title']}")
    return {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3", "SECRET_KEY": "bench"}
        )
        with app.app_context():
            db.create_all()
        server = make_closing_server(app)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        players = ["Ann", "Bob", "Cat", "Dan", "Eve"]
        session = api(base, "/api/sessions", {"players": players, "rounds": 0, "name": "Bench"})
        for picker, partner, points in (("Ann", "Bob", 75), ("Bob", "Cat", 30), ("Cat", "Dan", 95)):
            hand = {"kind": "pick", "picker": picker, "partner": partner, "picking_points": points}
            api(base, f"/api/sessions/{session['id']}/hands", hand)
        pages = {
            "home": "/",
            "scoresheet": f"/sessions/{session['id']}",
            "record hand": f"/sessions/{session['id']}/hands/new",
        }
        worst = 100
        for name, path in pages.items():
            found = scores(base + path, Path(folder) / "report.json")
            worst = min(worst, *found.values())
            print(f"{name}: " + ", ".join(f"{c} {s}" for c, s in found.items()), flush=True)
        server.shutdown()
    return 0 if worst == 100 else 1


if __name__ == "__main__":
    sys.exit(main())
