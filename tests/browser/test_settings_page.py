"""The settings page in Chromium at phone size: a backup downloaded from one scorekeeper and
restored into an empty one, and a session imported from its CSV."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from harness.threaded_server import serving

from ..helpers.api import SEATS
from ..helpers.browser import (
    Shot,
    api,
    app_on_new_database,
    assert_phone_friendly,
    axe_violations,
)


@pytest.fixture(scope="module")
def empty_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second scorekeeper, on an empty database, to restore into."""
    with app_on_new_database(tmp_path_factory.mktemp("restore")) as app, serving(app) as url:
        yield url


def every_answer(url: str) -> dict[str, object]:
    listing = api(url, "GET", "/api/sessions")
    return {
        "list": listing,
        **{str(s["id"]): api(url, "GET", f"/api/sessions/{s['id']}") for s in listing["sessions"]},
    }


def test_backup_downloaded_and_restored_into_an_empty_scorekeeper(
    page: Page, base_url: str, empty_url: str, shot: Shot, tmp_path: Path
) -> None:
    session = api(base_url, "POST", "/api/sessions",
                  {"players": SEATS, "rounds": 1, "name": "Backed up",
                   "rules": {"no_bid": "doubler"}})  # fmt: skip
    for hand in (
        {"kind": "pass"},
        {"kind": "pick", "picker": "Cat", "partner": None, "picking_points": 95,
         "cracked_by": "Dan", "recracked": True, "blitzes": ["black"]},
    ):  # fmt: skip
        api(base_url, "POST", f"/api/sessions/{session['id']}/hands", hand)

    page.goto("/settings")
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    assert_phone_friendly(page)
    shot(page, "settings", full_page=True)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download backup").tap()
    download = download_info.value
    assert download.suggested_filename.startswith("sheepshead-backup-")
    backup = tmp_path / download.suggested_filename
    download.save_as(backup)

    page.goto(f"{empty_url}/settings")
    page.get_by_label("Backup file").set_input_files(backup)
    page.get_by_role("button", name="Restore backup").tap()
    expect(page.get_by_role("heading", name="Backup restored")).to_be_visible()
    expect(page.get_by_role("heading", name="Restoring the backup")).to_be_hidden()
    # The other tests' sessions are in the backup too (practice tables and nights included,
    # which the sessions list leaves out): counted from the file.
    sessions = json.loads(backup.read_text(encoding="utf-8"))["sessions"]
    hands = sum(len(kept["hands"]) for kept in sessions)
    counted = [
        f"{n} {noun}{'' if n == 1 else 's'}"
        for n, noun in ((len(sessions), "session"), (hands, "hand"))
    ]
    restored = f"Backup restored: {counted[0]} with {counted[1]}, "
    expect(page.get_by_text(restored)).to_be_visible()
    count = len(sessions)
    noun = counted[0].split()[1]
    expect(page.get_by_text(f"{count} of {count} {noun}", exact=True)).to_be_visible()
    expect(page.get_by_text(f"0 of {count} {noun}", exact=True)).to_be_hidden()
    assert page.get_by_role("progressbar", name="Sessions restored").count() == 1
    assert_phone_friendly(page)
    assert axe_violations(page) == []
    shot(page, "settings-restored", full_page=True)
    page.get_by_role("link", name="See the sessions").tap()
    expect(page).to_have_url(f"{empty_url}/")
    assert every_answer(empty_url) == every_answer(base_url)

    page.goto(f"{empty_url}/settings")
    page.get_by_label("Backup file").set_input_files(backup)
    page.get_by_role("button", name="Restore backup").tap()
    expect(page.locator("#backup-error")).to_contain_text(
        "Restore a backup into an empty one, or merge it into what is here."
    )
    assert_phone_friendly(page)
    shot(page, "settings-restore-refused", full_page=True)
    page.emulate_media(color_scheme="dark")
    shot(page, "settings-restore-refused-dark", full_page=True)
    page.emulate_media(color_scheme="light")

    # A hand the rules refuse is found by the check before the page answers: the form comes
    # back with the reason, nothing written.
    content = json.loads(backup.read_text())
    last = content["sessions"][-1]
    last["hands"].append({"kind": "pick"})
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(content))
    page.get_by_label("Backup file").set_input_files(damaged)
    page.get_by_label("Merge into the sessions here").check()
    with page.expect_response(f"{empty_url}/settings/restore") as answered:
        page.get_by_role("button", name="Restore backup").tap()
    assert answered.value.status == 400
    expect(page.get_by_role("heading", name="Restoring the backup")).to_be_hidden()
    expect(page.locator("#backup-error")).to_contain_text(
        f"Session {last['id']}, hand {len(last['hands'])}: "
    )
    expect(page.get_by_label("Merge into the sessions here")).to_be_checked()
    assert page.get_by_role("progressbar").count() == 0
    assert_phone_friendly(page)
    assert axe_violations(page) == []
    shot(page, "settings-restore-refused-by-check", full_page=True)
    assert every_answer(empty_url) == every_answer(base_url)


def test_session_imported_from_its_csv(
    page: Page, base_url: str, empty_url: str, shot: Shot, tmp_path: Path
) -> None:
    session = api(base_url, "POST", "/api/sessions",
                  {"players": SEATS, "rounds": 0,
                   "rules": {"partner": "called_ace", "no_bid": "leaster"}})  # fmt: skip
    for hand in (
        {"kind": "pick", "picker": "Bob", "partner": "Eve", "called_card": "AH",
         "picking_points": 70},
        {"kind": "leaster", "winner": "Dan"},
        {"kind": "pick", "picker": "Ann", "partner": None, "picking_points": 31,
         "cracked_by": "Cat"},
    ):  # fmt: skip
        api(base_url, "POST", f"/api/sessions/{session['id']}/hands", hand)
    page.goto(f"/sessions/{session['id']}")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Hands (CSV)").tap()
    hands = tmp_path / "hands.csv"
    download_info.value.save_as(hands)

    page.goto(f"{empty_url}/settings")
    page.get_by_role("link", name="Import a session").tap()
    expect(page.get_by_role("heading", name="Import a session")).to_be_visible()
    page.get_by_label("Hands CSV").set_input_files(hands)
    page.get_by_label("Name (optional)").fill("From the CSV")
    page.get_by_label("Called ace").check()
    page.get_by_label("Leaster").check()
    assert_phone_friendly(page)
    shot(page, "import-session", full_page=True)
    page.get_by_role("button", name="Import session").tap()
    expect(page.get_by_text("hands.csv is imported as a new session.")).to_be_visible()
    shot(page, "import-session-done")
    imported = api(empty_url, "GET", page.url.replace(empty_url, "/api"))
    assert imported["totals"] == api(base_url, "GET", f"/api/sessions/{session['id']}")["totals"]

    # The same file with the default rules: every row that doesn't fit is refused.
    page.goto(f"{empty_url}/sessions/import")
    page.get_by_label("Hands CSV").set_input_files(hands)
    page.get_by_role("button", name="Import session").tap()
    refusals = page.locator(".refusal li")
    expect(refusals).to_have_text(
        [
            "Row 2: The called card is one of JD, JC, JS, JH.",
            "Row 3: This session doesn't play a leaster when everyone passes.",
        ]
    )
    assert_phone_friendly(page)
    shot(page, "import-session-refused", full_page=True)
