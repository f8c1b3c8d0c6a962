"""Named rule sets: stored by name (case ignored), checked by the rules engine, listed in words,
used and shared as the new-session page's address and as a QR code of it, deleted after a
confirmation, and carried by the backup."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper import rules
from scorekeeper.exchange import rule_sets
from scorekeeper.exchange.backup import Written, backup_text
from scorekeeper.pages.words import rules_words
from scorekeeper.rules import RuleError
from scorekeeper.sessions.extensions import db
from scorekeeper.sessions.models import RuleSet
from scorekeeper.sessions.writes import roster_write

from ..helpers.api import Api, default_rules
from ..helpers.backups import export_backup, restore
from ..helpers.database import NewApp
from ..helpers.pages import FormPage, assert_kept, filled, get_page, html_page, redirected_page

PAGE = "/rule-sets"
NIGHT = "2026-01-02T20:00:00"

SEED_RULES = default_rules()
FRIDAY_RULES = {
    **default_rules(),
    "partner": "called_ace",
    "no_bid": "leaster",
    "cracking": True,
    "blitzing": False,
    "sitting_out": "none",
    "bump": True,
    "schwarz": "tricks",
    "doublers": "stack",
    "max_multiplier": 8,
    "penalties": True,
    "stake": 125,
}


def query_of(rules_json: dict[str, Any]) -> str:
    """The new-session page's query for rules as the API gives them: every option by its API
    key in the options' order, a flag as true or false, the stake in cents."""
    said = {True: "true", False: "false"}
    return "&".join(
        f"{name}={said[value] if isinstance(value, bool) else value}"
        for name in rules.OPTION_NAMES
        for value in [rules_json[name]]
    )


FRIDAY_QUERY = query_of(FRIDAY_RULES)
FRIDAY_WORDS = (
    "Called ace partner · all pass: leaster · no blitzing · bump doubles a loss · cap x8 · "
    "schwarz by tricks · penalty hands · six or seven: all play · $1.25 a point"
)
# The form's taps for FRIDAY_RULES: blitzing unticked (absent), the rest chosen.
FRIDAY_TAPS = {
    "name": "Friday rules",
    "partner": "called_ace",
    "no_bid": "leaster",
    "sitting_out": "none",
    "bump": "y",
    "schwarz": "tricks",
    "doublers": "stack",
    "max_multiplier": "8",
    "penalties": "y",
    "stake": "1.25",
}


def stored_rule_sets(app: Flask) -> list[tuple[str, dict[str, Any]]]:
    with app.app_context():
        return [(r.name, r.rules) for r in db.session.scalars(select(RuleSet).order_by(RuleSet.id))]


def friday_form(client: FlaskClient, **taps: str) -> dict[str, str]:
    sent = filled(client, PAGE, {**FRIDAY_TAPS, **taps})
    del sent["blitzing"]
    return sent


def save_friday(client: FlaskClient) -> int:
    response = client.post(PAGE, data=friday_form(client))
    assert response.status_code == 302
    match = re.fullmatch(r"/rule-sets#rule-set-(\d+)", response.location)
    assert match, response.location
    return int(match[1])


# --- Storage and the engine's checks


def test_a_rule_set_keeps_every_option_under_its_name(app: Flask) -> None:
    options = rules.options_from(**FRIDAY_RULES)
    with app.app_context(), roster_write():
        saved_id = rule_sets.save("  Friday rules ", options).id
    with app.app_context():
        found = rule_sets.named("FRIDAY RULES")
        assert found is not None and found.id == saved_id
        assert found.name == "Friday rules"
        assert found.rules == FRIDAY_RULES
        assert rule_sets.options_of(found) == options
        assert rule_sets.named("Saturday rules") is None


def test_a_name_is_taken_once_whatever_its_case(app: Flask) -> None:
    with app.app_context(), roster_write():
        rule_sets.save("Friday rules", rules.Options())
    with pytest.raises(RuleError) as refused, app.app_context(), roster_write():
        rule_sets.save("friday RULES", rules.options_from(bump=True))
    assert (refused.value.message, refused.value.field) == (
        "There is a rule set named Friday rules already: choose another name, "
        "or delete that one first.",
        "name",
    )
    assert stored_rule_sets(app) == [("Friday rules", SEED_RULES)]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "A rule set's name must be 1 to 40 characters long."),
        ("   ", "A rule set's name must be 1 to 40 characters long."),
        ("x" * 41, "A rule set's name must be 1 to 40 characters long."),
        (
            "Friday\nrules",
            "A rule set's name can't hold control or invisible characters; "
            "this one holds a line break.",
        ),
        (
            "Fri\x00day",
            "A rule set's name can't hold control or invisible characters; this one holds U+0000.",
        ),
        (
            "Fri\u202eday",
            "A rule set's name can't hold control or invisible characters; "
            "this one holds U+202E (right-to-left override).",
        ),
    ],
)
def test_a_name_must_be_one_to_forty_printable_characters(name: str, message: str) -> None:
    with pytest.raises(RuleError) as refused:
        rule_sets.rule_set_name(name)
    assert (refused.value.message, refused.value.field) == (message, "name")
    assert rule_sets.rule_set_name(" " + "x" * 40 + " ") == "x" * 40


def test_rules_json_names_every_option_and_refuses_what_the_api_refuses() -> None:
    assert rule_sets.rules_json({}) == SEED_RULES
    assert rule_sets.rules_json({"bump": True, "stake": 5}) == {
        **SEED_RULES,
        "bump": True,
        "stake": 5,
    }
    for given, message in [
        ({"max_multiplier": 3}, "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64."),
        ({"stake": 10_001}, "The stake is a whole number of cents per point from 0 to 10000."),
        ({"bump": "yes"}, "The bump rule must be true or false."),
        ({"colour": "red"}, "There is no rule option colour; the options are "),
        (["bump"], "Rules must be an object of rule options."),
    ]:
        with pytest.raises(RuleError) as refused:
            rule_sets.rules_json(given)
        assert refused.value.message.startswith(message)


def test_the_new_session_query_has_the_api_keys_booleans_and_cents() -> None:
    assert rule_sets.new_session_query(rules.options_from(**FRIDAY_RULES)) == FRIDAY_QUERY
    assert rule_sets.new_session_query(rules.Options()) == query_of(SEED_RULES)


def test_rules_in_words() -> None:
    assert " · ".join(rules_words(rules.options_from(**FRIDAY_RULES))) == FRIDAY_WORDS
    assert rules_words(rules.Options()) == [
        "Jack of diamonds partner",
        "all pass: the dealer picks",
        "six or more: five play, the dealer and those just before sitting out",
        "no stake",
    ]


def qr_of(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "svg"
    return root


def test_the_qr_code_is_an_svg_named_by_its_text() -> None:
    link = (
        "http://table.local:5000/sessions/new?partner=called_ace&no_bid=leaster&cracking=true"
        "&blitzing=false&sitting_out=none&bump=true&schwarz=tricks&doublers=stack"
        "&max_multiplier=8&penalties=true&stake=125"
    )
    svg = str(rule_sets.qr_svg(link))
    assert svg.startswith("<svg ")
    root = qr_of(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == link
    assert root.findtext("title") == link
    # Version 10 (57 modules) for this link, with the quiet zone of 4 around it.
    assert root.get("viewBox") == "0 0 65 65"
    paths = root.findall("path")
    assert [p.get("fill") for p in paths[:1]] == ["#fff"]
    assert paths[1].get("stroke") == "#000" and len(paths[1].get("d") or "") > 1000
    assert 'aria-label="a&lt;b&amp;c&#34;"' in str(rule_sets.qr_svg('a<b&c"'))


# --- The page


def test_the_page_saves_a_rule_set_and_lists_it_with_use_and_share(
    app: Flask, client: FlaskClient
) -> None:
    empty = get_page(client, PAGE)
    assert "Rule sets" in empty.text and "No rule sets yet" in empty.text
    assert empty.fields["partner"] == ["jack_of_diamonds"]
    assert empty.fields["max_multiplier"] == ["0"]
    assert empty.fields["stake"] == [""]
    assert "bump" not in empty.fields and empty.fields["cracking"] == ["y"]

    sent = friday_form(client)
    response = client.post(PAGE, data=sent)
    page = redirected_page(client, response, "/rule-sets#rule-set-1")
    assert page.flashes == ["Friday rules saved."]
    assert stored_rule_sets(app) == [("Friday rules", FRIDAY_RULES)]
    assert FRIDAY_WORDS in page.text
    raw = client.get(PAGE).text
    assert f'href="/sessions/new?{html.escape(FRIDAY_QUERY)}"' in raw
    assert 'href="/rule-sets/1/share"' in raw and 'href="/rule-sets/1/delete"' in raw

    # The same form again (a double tap) saves nothing more.
    again = redirected_page(client, client.post(PAGE, data=sent), "/rule-sets#rule-set-1")
    assert again.flashes == ["Friday rules saved."]
    assert len(stored_rule_sets(app)) == 1


def test_an_untouched_form_saves_the_seed_rules(app: Flask, client: FlaskClient) -> None:
    sent = filled(client, PAGE, {"name": "House"})
    assert client.post(PAGE, data=sent).status_code == 302
    assert stored_rule_sets(app) == [("House", SEED_RULES)]


@pytest.mark.parametrize(
    ("taps", "field", "message"),
    [
        ({"name": " "}, "name", "A rule set's name must be 1 to 40 characters long."),
        (
            {"stake": "1.255"},
            "stake",
            "The stake is money per point such as 0.25, from $0.00 to $100.00.",
        ),
        (
            {"stake": "100.01"},
            "stake",
            "The stake is money per point such as 0.25, from $0.00 to $100.00.",
        ),
        (
            {"max_multiplier": "3"},
            "max_multiplier",
            "The multiplier cap is 0 (no cap) or one of 2, 4, 8, 16, 32, 64.",
        ),
        (
            {"doublers": "pile"},
            "doublers",
            "How doublers double is one of queue, stack.",
        ),
    ],
)
def test_a_refusal_is_the_engines_sentence_at_its_field_keeping_what_was_typed(
    app: Flask, client: FlaskClient, taps: dict[str, str], field: str, message: str
) -> None:
    sent = friday_form(client, **taps)
    page = html_page(client.post(PAGE, data=sent))
    assert page.errors == [message]
    assert page.error_ids == [f"{field}-error"]
    # A choice the page doesn't offer can't be shown again; what was typed is.
    offered = field not in ("max_multiplier", "doublers")
    assert_kept(page, {k: v for k, v in sent.items() if offered or k != field})
    assert stored_rule_sets(app) == []


def test_a_taken_name_is_refused_on_the_page(app: Flask, client: FlaskClient) -> None:
    save_friday(client)
    page = html_page(client.post(PAGE, data=friday_form(client, name="FRIDAY rules", bump="")))
    assert page.errors == [
        "There is a rule set named Friday rules already: choose another name, "
        "or delete that one first."
    ]
    assert page.fields["name"] == ["FRIDAY rules"]
    assert len(stored_rule_sets(app)) == 1


def test_the_share_page_shows_the_absolute_link_and_its_qr_code(client: FlaskClient) -> None:
    rule_set_id = save_friday(client)
    response = client.get(f"/rule-sets/{rule_set_id}/share")
    page = html_page(response)
    link = f"http://localhost/sessions/new?{FRIDAY_QUERY}"
    assert re.search(r"<h1>Friday rules</h1>", response.text)
    assert f'<input type="text" id="link" value="{html.escape(link)}" readonly>' in response.text
    assert page.texts["button"] == ["Share the link"]
    svg = re.search(r"<svg .*?</svg>", response.text, re.S)
    assert svg is not None
    root = qr_of(svg[0])
    assert root.get("aria-label") == link and root.findtext("title") == link
    assert FRIDAY_WORDS in page.text

    assert client.get("/rule-sets/99/share").status_code == 404


def test_delete_asks_first_then_deletes_once(app: Flask, client: FlaskClient) -> None:
    rule_set_id = save_friday(client)
    path = f"/rule-sets/{rule_set_id}/delete"
    confirm = get_page(client, path)
    assert "Delete this rule set?" in confirm.text and FRIDAY_WORDS in confirm.text
    assert confirm.texts["button"] == ["Delete rule set"]
    assert len(stored_rule_sets(app)) == 1  # asking deletes nothing

    sent = {"write_key": confirm.fields["write_key"][0]}
    done = redirected_page(client, client.post(path, data=sent), PAGE)
    assert done.flashes == ["Friday rules deleted."]
    assert stored_rule_sets(app) == []
    # The same form again is answered as the first; another says it is gone.
    replayed = redirected_page(client, client.post(path, data=sent), PAGE)
    assert replayed.flashes == ["Friday rules deleted."]
    gone = redirected_page(client, client.post(path, data={}), PAGE)
    assert gone.flashes == ["That rule set was deleted already."]
    assert client.get(path).status_code == 404


def test_a_deleted_rule_sets_id_never_names_another(app: Flask, client: FlaskClient) -> None:
    """A share link names a rule set by its id: once deleted, the link finds nothing."""
    deleted = save_friday(client)
    assert client.post(f"/rule-sets/{deleted}/delete").status_code == 302
    saturday = client.post(PAGE, data=friday_form(client, name="Saturday rules"))
    assert saturday.location != f"/rule-sets#rule-set-{deleted}"
    assert client.get(f"/rule-sets/{deleted}/share").status_code == 404


def test_settings_and_new_session_pages_link_to_rule_sets(client: FlaskClient) -> None:
    for path in ("/settings", "/sessions/new"):
        assert f'href="{PAGE}"' in client.get(path).text


def test_saving_needs_the_csrf_token(database: str, new_app: NewApp) -> None:
    with new_app(database, csrf=True) as app:
        client = app.test_client()
        form = FormPage(client.get(PAGE).text)
        sent = {**{k: v[0] for k, v in form.fields.items()}, "name": "Friday rules"}
        refused = client.post(PAGE, data={k: v for k, v in sent.items() if k != "csrf_token"})
        assert refused.status_code == 400 and stored_rule_sets(app) == []
        assert client.post(PAGE, data=sent).status_code == 302
        assert stored_rule_sets(app) == [("Friday rules", SEED_RULES)]


# --- The backup


@pytest.fixture
def other_database(database: str, tmp_path: Path, new_app: NewApp) -> Iterator[Any]:
    """An app on another empty database: another SQLite file, or for PostgreSQL the same
    database emptied, so make it only once the source is exported."""

    def make() -> Flask:
        url = database
        if database.startswith("sqlite"):
            url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return stack.enter_context(new_app(url))

    with ExitStack() as stack:
        yield make


def test_a_backup_carries_rule_sets_and_restores_them(
    app: Flask, client: FlaskClient, other_database: Any
) -> None:
    Api(client).new_session(rules={"bump": True})
    save_friday(client)
    client.post(PAGE, data=filled(client, PAGE, {"name": "Cutthroat", "partner": "alone"}))
    written = Written()
    with app.app_context():
        backup = json.loads("".join(backup_text(written)))
        created = [r.created_at for r in db.session.scalars(select(RuleSet).order_by(RuleSet.id))]
    assert [(r["name"], r["rules"]) for r in backup["rule_sets"]] == [
        ("Friday rules", FRIDAY_RULES),
        ("Cutthroat", {**SEED_RULES, "partner": "alone"}),
    ]
    assert [datetime.fromisoformat(r["created_at"]) for r in backup["rule_sets"]] == [
        c.replace(tzinfo=UTC) if c.tzinfo is None else c for c in created
    ]
    assert str(written) == "1 session with 0 hands, 5 players, and 2 rule sets"

    target = other_database()
    assert restore(target, backup) == ("1 session with 0 hands, 5 new players, and 2 rule sets")
    with target.app_context():
        assert export_backup()["rule_sets"] == backup["rule_sets"]

    # Merged again: the names are here already, so nothing is added twice.
    assert restore(target, backup, merge=True) == (
        "0 sessions with 0 hands, and 0 new players (1 session was here already)"
    )
    assert len(stored_rule_sets(target)) == 2


def test_a_merge_adds_rule_sets_by_name_keeping_those_here(
    app: Flask, client: FlaskClient, other_database: Any
) -> None:
    save_friday(client)
    client.post(PAGE, data=filled(client, PAGE, {"name": "Cutthroat", "partner": "alone"}))
    with app.app_context():
        backup = export_backup()
    target = other_database()
    with target.app_context(), roster_write():
        rule_sets.save("friday RULES", rules.Options())
    assert restore(target, backup, merge=True) == (
        "0 sessions with 0 hands, 0 new players, and 1 rule set"
    )
    assert stored_rule_sets(target) == [
        ("friday RULES", SEED_RULES),
        ("Cutthroat", {**SEED_RULES, "partner": "alone"}),
    ]


def test_a_backup_without_rule_sets_restores_as_before(
    app: Flask, client: FlaskClient, other_database: Any
) -> None:
    Api(client).new_session()
    with app.app_context():
        backup = export_backup()
    del backup["rule_sets"]
    assert str(Written(sessions=1, players=5)) == "1 session with 0 hands, and 5 players"
    target = other_database()
    assert restore(target, backup) == "1 session with 0 hands, and 5 new players"
    assert stored_rule_sets(target) == []


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"rule_sets": {}}, "This backup is damaged: its rule sets are not a list."),
        ({"rule_sets": [{"rules": {}}]}, "Rule set 1 of the backup: It has no name."),
        (
            {
                "rule_sets": [
                    {
                        "name": "A",
                        "rules": {"max_multiplier": 3},
                        "created_at": "2026-01-02T20:00:00",
                    }
                ]
            },
            "Rule set 1 of the backup: The multiplier cap is 0 (no cap) or one of 2, 4, 8, "
            "16, 32, 64.",
        ),
        (
            {"rule_sets": [{"name": "A", "rules": {}, "created_at": "Friday"}]},
            "Rule set 1 of the backup: Its created_at must be a date and time in ISO 8601, "
            "such as 2024-03-01T19:30:00+00:00.",
        ),
        (
            {"rule_sets": [{"name": "", "rules": {}, "created_at": NIGHT}]},
            "Rule set 1 of the backup: A rule set's name must be 1 to 40 characters long.",
        ),
    ],
)
def test_a_bad_rule_set_refuses_the_whole_backup(
    app: Flask, client: FlaskClient, given: dict[str, Any], message: str
) -> None:
    Api(client).new_session()
    with app.app_context():
        backup = {**export_backup(), **given}
        backup["sessions"] = []
    with pytest.raises(RuleError) as refused:
        restore(app, backup, merge=True)
    assert refused.value.message == message
    with app.app_context():
        assert db.session.scalar(select(func.count(RuleSet.id))) == 0
