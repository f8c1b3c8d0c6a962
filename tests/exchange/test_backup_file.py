"""A backup's file read a piece at a time refuses exactly what `json.loads` of the whole file
refuses, in the same sentence at the same line and column, whatever the size of the pieces; and a
restore reads its sessions from the file again rather than holding them."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.exchange import backup_file
from scorekeeper.exchange.backup_file import BackupFile, Streamed
from scorekeeper.exchange.json_in import LONE_SURROGATE
from scorekeeper.exchange.restore import Restore, open_backup, read_backup
from scorekeeper.rules import RuleError

from ..helpers.api import Api
from ..helpers.backups import (
    answers,
    assert_same_answers,
    backup_of,
    build_sessions,
    count_rows,
)
from ..helpers.database import Fresh

PARTS = {
    "players": "Player",
    "sessions": "Session",
    "rule_sets": "Rule set",
    "trash": "Trashed session",
}


def holds_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return LONE_SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(map(holds_lone_surrogate, [*value, *value.values()]))
    if isinstance(value, list):
        return any(map(holds_lone_surrogate, value))
    return False


def parts_of(data: Any) -> list[tuple[str, Any]]:
    if not isinstance(data, dict):
        return [("This backup", data)]
    parts = []
    for key, value in data.items():
        if key in PARTS and isinstance(value, list):
            parts += [(f"{PARTS[key]} {n} of the backup", v) for n, v in enumerate(value, start=1)]
        else:
            parts.append(("This backup", [key, value]))
    return parts


def read_whole(raw: bytes) -> tuple[str, Any]:
    """What reading the whole file with `json.loads` gives: its JSON, or the refusal."""
    values = sum(raw.count(mark.encode()) for mark in backup_file.VALUE_MARKS)
    try:
        backup_file.check_density(len(raw), values)
        try:
            data = json.loads(raw, parse_int=backup_file.backup_int)
        except json.JSONDecodeError as error:
            raise backup_file.not_json(error.msg, error.lineno, error.colno) from None
        except UnicodeDecodeError:
            raise RuleError(backup_file.NOT_TEXT) from None
    except RuleError as refusal:
        return "refused", refusal.message
    for where, part in parts_of(data):
        if holds_lone_surrogate(part):
            return "refused", f"{where}: {backup_file.LONE_SURROGATE_HELD}"
    return "read", data


def read_in_pieces(raw: bytes) -> tuple[str, Any]:
    try:
        return "read", BackupFile(io.BytesIO(raw)).whole()
    except RuleError as refusal:
        return "refused", refusal.message


BACKUP: dict[str, Any] = {
    "format": "sheepshead-scorekeeper-backup",
    "version": 1,
    "players": [{"id": 1, "name": "Ann", "active": True}, {"id": 2, "name": "Zoë", "active": True}],
    "sessions": [
        {"id": n, "name": f"Night {n} ✓", "hands": [{"kind": "pass", "seats": ["Ann", "Zoë"]}] * n}
        for n in range(1, 7)
    ],
    "rule_sets": [],
    "trash": [{"id": 9, "session": {"name": "x"}, "numbers": [1, -2.5, 3e4, True, None]}],
    "merges": [],
}
TEXTS = [
    json.dumps(BACKUP),
    json.dumps(BACKUP, ensure_ascii=False, indent=1),
    json.dumps(BACKUP, separators=(",", ":")),
    '[1, 2, {"a": "b"}]',
    '"backup"',
    '{"sessions": [1, 2], "sessions": [3], "players": "\\ud800"}',
    '{"sessions": [{"n": "\\ud800"}], "trash": ["\\udc00"]}',
    '{"trash": [{"n": "\\ud83d\\ude00"}], "sessions": {"a": 1}}',
]
DAMAGE = [
    *'{}[]:,"\\ \n0123456789-eE.tfnul',
    "\\u",
    "\\ud800",
    '"sessions"',
    '"trash"',
    "true",
    "9" * 25,
    "\x01",
    "é",
]


def damaged(rng: random.Random) -> bytes:
    text = rng.choice(TEXTS)
    at = rng.randrange(len(text) + 1)
    change = rng.random()
    if change < 0.25:
        text = text[:at]
    elif change < 0.6:
        text = text[:at] + rng.choice(DAMAGE) + text[at:]
    elif change < 0.9:
        text = text[:at] + text[at + rng.randint(1, 3) :]
    encoding = rng.choice(["utf-8", "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32"])
    return text.encode(encoding, "surrogatepass")


@pytest.mark.parametrize("seed", range(4))
def test_a_file_read_in_pieces_reads_as_json_loads_reads_it_whole(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        raw = damaged(rng)
        monkeypatch.setattr(backup_file, "CHUNK", rng.choice([1, 2, 3, 5, 8, 64, 4096]))
        assert read_in_pieces(raw) == read_whole(raw), raw


def test_a_file_too_dense_or_not_text_is_refused_before_it_is_read() -> None:
    dense = b'{"sessions": [' + b"[]," * 100_000 + b"[]]"
    assert read_in_pieces(dense) == read_whole(dense)
    assert read_in_pieces(dense)[1].endswith("where a backup holds one every 7 or more.")
    broken = json.dumps(BACKUP).encode()[:-1] + b"\xff}"
    assert read_in_pieces(broken) == ("refused", backup_file.NOT_TEXT) == read_whole(broken)


def test_a_backup_held_in_memory_reads_as_json_loads_reads_it() -> None:
    text = json.dumps(BACKUP, ensure_ascii=False)
    assert read_backup(text) == read_backup(text.encode()) == BACKUP
    with pytest.raises(RuleError, match=r"\(line 1, column 1: Unexpected UTF-8 BOM"):
        read_backup("\ufeff" + text)


def test_the_sessions_and_trash_stay_in_the_file_and_are_read_again_from_where_they_lie(
    tmp_path: Path,
) -> None:
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(BACKUP), "utf-8")
    with file.open("rb") as opened:
        data = open_backup(opened)
        sessions, trash = data["sessions"], data["trash"]
        assert isinstance(sessions, Streamed) and isinstance(trash, Streamed)
        assert (len(sessions), len(trash)) == (6, 1)
        assert data["players"] == BACKUP["players"]
        assert list(sessions) == list(sessions) == BACKUP["sessions"]
        assert list(trash) == BACKUP["trash"]
    raw = file.read_bytes()
    assert [json.loads(raw[start:end]) for start, end in sessions.spans()] == BACKUP["sessions"]


def test_a_restore_from_a_file_holds_no_session_between_its_check_and_its_batches(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path
) -> None:
    build_sessions(api)
    original, backup = answers(api.client), backup_of(app)
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup), "utf-8")
    target = fresh()
    with target.app_context(), file.open("rb") as opened:
        restore = Restore(open_backup(opened))
        assert list(restore.check()) == [5]
        assert not any(
            isinstance(value, list) and len(value) >= 5 for value in vars(restore).values()
        )
        assert list(restore.batches()) == [5]
        assert str(restore.restored) == "5 sessions with 19 hands, and 11 new players"
    assert_same_answers(answers(target.test_client()), original)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_restore_reads_each_session_again_from_where_it_lies_in_any_encoding(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path, workers: int
) -> None:
    """The check reads each session from its span of the file's bytes (in the worker that
    checks it, when there are workers): with a byte order mark and two bytes a character too."""
    build_sessions(api)
    original, backup = answers(api.client), backup_of(app)
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup, ensure_ascii=False, indent=1), "utf-16")
    target = fresh()
    with target.app_context(), file.open("rb") as opened:
        restore = Restore(open_backup(opened))
        assert sum(restore.check(workers)) == 5
        assert sum(restore.batches()) == 5
    assert_same_answers(answers(target.test_client()), original)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_file_changed_after_it_was_read_is_refused_by_the_check(
    app: Flask, api: Api, fresh: Fresh, tmp_path: Path, workers: int
) -> None:
    build_sessions(api)
    file = tmp_path / "backup.json"
    file.write_text(json.dumps(backup_of(app)), "utf-8")
    target = fresh()
    with target.app_context(), file.open("rb") as opened:
        restore = Restore(open_backup(opened))
        raw = file.read_bytes()
        at = raw.rindex(b'"hands"')
        file.write_bytes(raw[:at] + b"#" + raw[at + 1 :])
        with pytest.raises(RuleError, match=f"^{backup_file.CHANGED}$"):
            list(restore.check(workers))
    assert count_rows(target) == (0, 0, 0)
