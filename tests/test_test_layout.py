"""The tests mirror the app and share their builders from tests/helpers/: a folder for each layer
of the package (tests/rules/, tests/sessions/, ...) beside the browser and server tests; no test
module imports another test module or a conftest.py, and neither bench/ nor harness/ imports
anything of tests/ (what they share with the tests is in harness/)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(folder: str) -> Iterator[Path]:
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "vendor" not in path.relative_to(ROOT).parts:
            yield path


def imported(path: Path, source: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """Each module the file imports (or `source`, read as if it were the file), as its dotted
    name's parts from the repository's root, with the line that imports it. `from . import x`
    counts x as a module."""
    package = list(path.relative_to(ROOT).parent.parts)
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            parts = base + (node.module.split(".") if node.module else [])
            yield node.lineno, parts
            for alias in node.names:
                yield node.lineno, [*parts, alias.name]


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def is_test_module(parts: list[str]) -> bool:
    return bool(parts) and parts[0] == "tests" and parts[-1].startswith("test_")


def packages(folder: Path) -> set[str]:
    return {path.parent.name for path in folder.glob("*/__init__.py")}


def test_each_folder_of_tests_is_a_layer_of_the_app_or_a_kind_of_test() -> None:
    """Only the tests of the project as a whole sit at the top."""
    kinds = {"browser", "faults", "helpers"}
    assert packages(ROOT / "tests") - kinds == packages(ROOT / "scorekeeper") - {"migrations"}
    assert sorted(path.name for path in (ROOT / "tests").glob("test_*.py")) == [
        "test_deploy.py",
        "test_layers.py",
        "test_test_databases.py",
        "test_test_layout.py",
        "test_test_server.py",
    ]


def test_no_test_module_imports_another_or_a_conftest() -> None:
    found = [
        f"{where(path, line)} imports {'.'.join(parts)}"
        for path in modules("tests")
        for line, parts in imported(path)
        if parts[:1] == ["tests"]
        and (is_test_module(parts) or (path.name.startswith("test_") and parts[-1] == "conftest"))
    ]
    assert found == []


def test_bench_and_harness_import_nothing_of_the_tests() -> None:
    found = [
        f"{where(path, line)} imports {'.'.join(parts)}"
        for folder in ("bench", "harness")
        for path in modules(folder)
        for line, parts in imported(path)
        if parts[:1] == ["tests"]
    ]
    assert found == []


def test_the_walk_sees_what_it_forbids() -> None:
    """The checks above read relative and absolute imports alike."""
    source = (
        "from .test_table import api\n"
        "from ..conftest import BACKENDS\n"
        "from . import test_live\n"
        "import tests.test_rules\n"
        "from ..helpers.api import Api\n"
    )
    parts = [p for _line, p in imported(ROOT / "tests" / "browser" / "test_x.py", source)]
    assert ["tests", "browser", "test_table"] in parts
    assert ["tests", "conftest"] in parts
    assert ["tests", "browser", "test_live"] in parts
    assert ["tests", "test_rules"] in parts
    assert ["tests", "helpers", "api", "Api"] in parts
