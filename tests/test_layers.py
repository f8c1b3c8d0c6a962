"""The package's layers, held by import-linter's contracts in pyproject.toml: each layer imports
only those below it, exchange/ and insights/ not each other, and the rules engine nothing of
Flask or the database. And no module over 600 lines but those named with the one idea each
holds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(package_parent: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=package_parent,
        env=os.environ | {"PYTHONPATH": str(package_parent)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_package_keeps_its_layers() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def with_import(tmp_path: Path, module: str, line: str) -> Path:
    """A copy of the package with one import added to `module`."""
    shutil.copytree(
        ROOT / "scorekeeper", tmp_path / "scorekeeper", ignore=shutil.ignore_patterns("__pycache__")
    )
    path = tmp_path / "scorekeeper" / module
    path.write_text(path.read_text() + f"\n{line}\n")
    return tmp_path


def test_an_import_up_a_layer_is_refused(tmp_path: Path) -> None:
    run = lint_imports(with_import(tmp_path, "sessions/loading.py", "from ..pages import words"))
    assert run.returncode != 0
    assert "scorekeeper.sessions.loading -> scorekeeper.pages.words" in run.stdout


def test_an_import_between_exchange_and_insights_is_refused(tmp_path: Path) -> None:
    run = lint_imports(with_import(tmp_path, "insights/stats.py", "from ..exchange import csv_out"))
    assert run.returncode != 0
    assert "scorekeeper.insights.stats -> scorekeeper.exchange.csv_out" in run.stdout


def test_the_rules_engine_imports_nothing_of_flask_or_the_database(tmp_path: Path) -> None:
    run = lint_imports(with_import(tmp_path, "rules/sheet.py", "import sqlalchemy"))
    assert run.returncode != 0
    assert "scorekeeper.rules.sheet -> sqlalchemy" in run.stdout


# The modules over 600 lines, each with the one idea it holds; a module that grows past 600 is
# split along its seams or named here with its idea.
LONG_MODULES = {
    "api/openapi/schemas.py": "the OpenAPI document's data shapes, answers and request bodies",
    "api/openapi/paths.py": "the OpenAPI document's operations",
    "sessions/models.py": "the tables, as typed models",
    "sessions/writes.py": "the one write path of a session",
    "pages/event_pages.py": "an event's pages",
    "sessions/ratings.py": "the players' ratings, kept and recomputed",
    "pages/forms.py": "the pages' forms, read into the engine's input",
}


def test_a_module_over_600_lines_holds_one_idea() -> None:
    package = ROOT / "scorekeeper"
    long = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "migrations" not in path.parts
        and len(path.read_text(encoding="utf-8").splitlines()) > 600
    }
    assert long == set(LONG_MODULES)
