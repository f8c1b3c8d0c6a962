"""The pages of nights kept without hands: a night added from paper (refused with the API's
sentence, keeping what was typed; a look-alike name confirmed; saved once however often it is
sent), its page, its edit with the Changes page telling it and undoing it, every other page of a
session answering a night sensibly, and the sessions list and home page showing it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.test import TestResponse

from scorekeeper.insights.dates import today
from scorekeeper.web import hosts

from ..helpers.api import Api, pick, session_with
from ..helpers.pages import FormPage, get_page, page, redirected_page

NEW = "/sessions/nights/new"
NIGHT = {"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5}
CYRILLIC_ANN = "\u0410nn"
WRITE_KEY = "night-form-key-0001"


def night_form(
    lines: Sequence[tuple[str, str]], played_on: str = "2010-12-29", name: str = "", **more: Any
) -> dict[str, Any]:
    """The form as a browser sends it: a line a player, then the blank lines left empty."""
    blank = [("", "")] * 3
    return {
        "played_on": played_on,
        "name": name,
        "player": [who for who, _ in [*lines, *blank]],
        "net": [net for _, net in [*lines, *blank]],
        "write_key": WRITE_KEY,
        **more,
    }


def typed(nets: Mapping[str, int]) -> list[tuple[str, str]]:
    return [(name, str(net)) for name, net in nets.items()]


def api_night(client: FlaskClient, **given: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/sessions", json={"played_on": "2010-12-29", "totals": NIGHT, **given}
    )
    assert answer.status_code == 201, answer.json
    return answer.json  # type: ignore[no-any-return]


def refused(response: TestResponse) -> FormPage:
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    return FormPage(response.text)


def lines_of(form: FormPage) -> list[tuple[str, str]]:
    """The lines the form shows filled in."""
    pairs = zip(form.fields["player"], form.fields["net"], strict=True)
    return [(who, net) for who, net in pairs if who or net]


def day_of_session(session: Mapping[str, Any]) -> str:
    return datetime.fromisoformat(session["created_at"]).astimezone().date().isoformat()


def test_the_form_starts_on_today_with_the_roster_to_tap(client: FlaskClient) -> None:
    api_night(client)
    form = get_page(client, NEW)
    assert form.fields["played_on"] == [today().isoformat()]
    assert lines_of(form) == []
    assert len(form.fields["player"]) == 8
    assert form.texts["output"] == ["Two players at least"]
    html = client.get(NEW).text
    for name in NIGHT:
        assert f'<input type="checkbox" value="{name}">' in html
    assert 'name="write_key"' in html
    sessions = client.get("/sessions").text
    assert f'href="{NEW}"' in sessions and "Add a night from paper" in sessions


def test_a_night_from_paper_is_saved_and_lands_on_its_page(client: FlaskClient, api: Api) -> None:
    sent = night_form(
        [("Mark", "5"), ("Dave", "\u22122"), ("Jacob", " -3 "), ("Greg", "")], name="Bowling"
    )
    response = client.post(NEW, data=sent)
    made = client.get("/api/sessions").json["sessions"]
    assert len(made) == 1
    night = api.session(made[0]["id"])
    assert night["totals_only"] is True
    assert night["totals"] == {"Mark": 5, "Dave": -2, "Jacob": -3, "Greg": 0}
    assert (night["name"], day_of_session(night)) == ("Bowling", "2010-12-29")
    shown = redirected_page(client, response, f"/sessions/{night['id']}")
    assert shown.flashes == ["Night saved."]
    night_page = page(client, f"/sessions/{night['id']}")
    assert night_page.rows("standings") == [
        ["Place", "Player", "Net"],
        ["1", "Mark Winner", "+5"],
        ["2", "Greg", "0"],
        ["3", "Dave", "-2"],
        ["4", "Jacob", "-3"],
    ]
    assert "Kept without hands Wed 29 Dec 2010 · 4 players" in night_page.text
    players = {p["name"]: p["id"] for p in client.get("/api/players").json["players"]}
    html = client.get(f"/sessions/{night['id']}").text
    for name, player_id in players.items():
        assert f'<a href="/players/{player_id}">{name}</a>' in html
    sid = night["id"]
    for link in (
        f"/sessions/{sid}/settle-up",
        f"/sessions/{sid}/night",
        f"/sessions/{sid}/changes",
        f"/sessions/{sid}/delete",
        f"/sessions/{sid}/standings.csv",
    ):
        assert f'href="{link}"' in html
    for absent in ("Record hand", "Add a round", "Seats", "Rename / rounds", "End session"):
        assert absent not in night_page.text


def test_a_night_without_a_name_or_a_date_is_todays(client: FlaskClient, api: Api) -> None:
    response = client.post(NEW, data=night_form(typed({"Ann": 1, "Bob": -1}), played_on=""))
    assert response.status_code == 302
    night = api.session(client.get("/api/sessions").json["sessions"][0]["id"])
    assert (night["name"], day_of_session(night)) == ("", today().isoformat())
    assert page(client, response.location).words[:4] == f"{today():%a %d %b %Y}".split()


def test_equal_nets_say_they_share_the_place(client: FlaskClient) -> None:
    response = client.post(NEW, data=night_form(typed({"Ann": 2, "Bob": 2, "Cat": -4})))
    shown = page(client, response.location)
    assert "Ann and Bob both +2, so they share 1st place." in shown.text


@pytest.mark.parametrize(
    ("lines", "played_on", "body", "field"),
    [
        pytest.param(
            typed({"Ann": 2, "Bob": 1}),
            "2010-12-29",
            {"totals": {"Ann": 2, "Bob": 1}},
            "totals-error",
            id="off by 3",
        ),
        pytest.param(
            [("Ann", "0")], "2010-12-29", {"totals": {"Ann": 0}}, "totals-error", id="one player"
        ),
        pytest.param(
            [("Ann", "lots"), ("Bob", "-1")],
            "2010-12-29",
            {"totals": {"Ann": "lots", "Bob": -1}},
            "totals-error",
            id="not a number",
        ),
        pytest.param(
            [("Ann", "100001"), ("Bob", "-100001")],
            "2010-12-29",
            {"totals": {"Ann": 100001, "Bob": -100001}},
            "totals-error",
            id="too big",
        ),
        pytest.param(
            [("Ann", "1"), ("ann", "-1")],
            "2010-12-29",
            {"totals": {"Ann": 1, "ann": -1}},
            "totals-error",
            id="listed twice",
        ),
        pytest.param(
            [("Ann", "1"), ("", "-1")],
            "2010-12-29",
            {"totals": {"Ann": 1, "": -1}},
            "totals-error",
            id="a net without a name",
        ),
        pytest.param(
            typed({"Ann": 1, "Bob": -1}),
            "29/12/2010",
            {"totals": {"Ann": 1, "Bob": -1}, "played_on": "29/12/2010"},
            "played_on-error",
            id="not a date",
        ),
    ],
)
def test_a_night_that_cant_be_is_refused_with_the_apis_sentence_keeping_what_was_typed(
    client: FlaskClient,
    lines: list[tuple[str, str]],
    played_on: str,
    body: dict[str, Any],
    field: str,
) -> None:
    form = refused(client.post(NEW, data=night_form(lines, played_on=played_on, name="Redo")))
    api = client.post("/api/sessions", json={"played_on": "2010-12-29", **body})
    assert api.status_code == 400
    assert form.errors == [api.json["error"]]
    assert form.error_ids == [field]
    assert lines_of(form) == lines
    assert (form.fields["played_on"], form.fields["name"]) == ([played_on], ["Redo"])
    assert client.get("/api/sessions").json["sessions"] == []


def test_the_page_says_how_far_off_the_nets_are(client: FlaskClient) -> None:
    form = refused(client.post(NEW, data=night_form(typed({"Ann": 2, "Bob": 1}))))
    assert form.errors == ["The nets add up to 3, not 0."]
    assert form.texts["output"] == ["Off by 3"]
    negative = refused(client.post(NEW, data=night_form(typed({"Ann": -5, "Bob": 1}))))
    assert negative.texts["output"] == ["Off by -4"]


def test_more_lines_saves_nothing_and_keeps_the_lines(client: FlaskClient) -> None:
    lines = [(f"P{i}", "0") for i in range(1, 9)]
    more = client.post(NEW, data={**night_form(lines), "more": "1"})
    assert more.status_code == 200
    form = FormPage(more.text)
    assert lines_of(form) == lines
    assert len(form.fields["player"]) == 16
    assert form.errors == []
    assert client.get("/api/sessions").json["sessions"] == []


def test_a_new_name_like_a_players_is_confirmed_as_a_new_player(
    client: FlaskClient, api: Api
) -> None:
    api_night(client, totals={"Ann": 1, "Bob": -1})
    sent = night_form(typed({CYRILLIC_ANN: 3, "Bob": -3}), played_on="2011-01-05")
    response = client.post(NEW, data=sent)
    form = refused(response)
    looks_like = client.post(
        "/api/sessions", json={"played_on": "2011-01-05", "totals": {CYRILLIC_ANN: 3, "Bob": -3}}
    )
    assert looks_like.status_code == 400
    assert form.errors == [looks_like.json["error"]]
    assert f"Confirm {CYRILLIC_ANN} as a new player" in form.text
    assert f'<input type="checkbox" name="new_player" value="{CYRILLIC_ANN}">' in response.text
    assert len(client.get("/api/sessions").json["sessions"]) == 1
    saved = client.post(NEW, data={**sent, "new_player": CYRILLIC_ANN})
    assert saved.status_code == 302
    night = api.session(int(saved.location.rsplit("/", 1)[1]))
    assert night["totals"] == {CYRILLIC_ANN: 3, "Bob": -3}
    names = sorted(p["name"] for p in client.get("/api/players").json["players"])
    assert names == sorted(["Ann", "Bob", CYRILLIC_ANN])


def test_a_night_sent_twice_is_saved_once(client: FlaskClient) -> None:
    sent = night_form(typed(NIGHT))
    first = client.post(NEW, data=sent)
    assert first.status_code == 302
    again = client.post(NEW, data=sent)
    shown = redirected_page(client, again, first.location)
    assert shown.flashes == ["Night saved."]
    assert len(client.get("/api/sessions").json["sessions"]) == 1


# --- editing a night


def test_the_edit_form_holds_the_night_as_kept(client: FlaskClient) -> None:
    made = api_night(client, name="Bowling")
    form = get_page(client, f"/sessions/{made['id']}/night")
    assert lines_of(form) == typed(NIGHT)
    assert (form.fields["played_on"], form.fields["name"]) == (["2010-12-29"], ["Bowling"])
    assert form.fields["version"] == [str(made["version"])]
    assert form.texts["output"] == ["Adds up to 0"]


def test_an_edit_shows_on_the_changes_page_in_words_and_is_undone(
    client: FlaskClient, api: Api
) -> None:
    made = api_night(client)
    sid = made["id"]
    path = f"/sessions/{sid}/night"
    form = get_page(client, path)
    changed = [("Dave", "-2"), ("Greg", "1"), ("Jacob", "-4"), ("Mark", "5")]
    sent = {**night_form(changed, played_on="2011-01-05", name="Redo")}
    sent["version"] = form.fields["version"][0]
    sent["write_key"] = form.fields["write_key"][0]
    shown = redirected_page(client, client.post(path, data=sent), f"/sessions/{sid}")
    assert shown.flashes == ["Night saved."]
    night = api.session(sid)
    assert night["totals"] == {"Dave": -2, "Greg": 1, "Jacob": -4, "Mark": 5}
    assert (night["name"], day_of_session(night)) == ("Redo", "2011-01-05")
    changes = get_page(client, f"/sessions/{sid}/changes")
    said = "Night changed: named “Redo”, date 2010-12-29 → 2011-01-05, Greg 0 → 1, Jacob -3 → -4"
    assert said in changes.text
    undo = {"change": changes.fields["change"][0], "write_key": changes.fields["write_key"][0]}
    undone = client.post(f"/sessions/{sid}/changes/0/restore", data=undo)
    back = redirected_page(client, undone, f"/sessions/{sid}")
    assert back.flashes == [
        "Night changed back: name “Redo” taken off, date 2011-01-05 → 2010-12-29, "
        "Greg 1 → 0, Jacob -4 → -3."
    ]
    assert api.session(sid)["totals"] == NIGHT
    assert (
        "Night changed back: name “Redo” taken off"
        in get_page(client, f"/sessions/{sid}/changes").text
    )


def test_an_edit_that_adds_and_takes_off_players_says_so(client: FlaskClient) -> None:
    made = api_night(client, name="Bowling")
    path = f"/sessions/{made['id']}/night"
    sent = night_form(
        [("Greg", "0"), ("Jacob", "-3"), ("Mark", "5"), ("Zoe", "-2")], name="Bowling night"
    )
    assert client.post(path, data=sent).status_code == 302
    said = get_page(client, f"/sessions/{made['id']}/changes").text
    assert (
        "Night changed: name “Bowling” → “Bowling night”, Dave taken off (was -2), Zoe added at -2"
        in said
    )


def test_an_edit_that_doesnt_add_up_is_refused_and_changes_nothing(
    client: FlaskClient, api: Api
) -> None:
    made = api_night(client)
    path = f"/sessions/{made['id']}/night"
    lines = [("Dave", "-2"), ("Greg", "1"), ("Jacob", "-3"), ("Mark", "5")]
    form = refused(client.post(path, data=night_form(lines)))
    patched = client.patch(f"/api/sessions/{made['id']}", json={"totals": dict(
        (who, int(net)) for who, net in lines)})  # fmt: skip
    assert patched.status_code == 400
    assert form.errors == [patched.json["error"]] == ["The nets add up to 1, not 0."]
    assert lines_of(form) == lines
    assert form.texts["output"] == ["Off by 1"]
    assert api.session(made["id"]) == made


def test_an_edit_with_nothing_changed_says_so(client: FlaskClient, api: Api) -> None:
    made = api_night(client)
    path = f"/sessions/{made['id']}/night"
    shown = redirected_page(
        client, client.post(path, data=night_form(typed(NIGHT))), f"/sessions/{made['id']}"
    )
    assert shown.flashes == ["Nothing changed."]
    assert api.session(made["id"]) == made


def test_an_edit_made_meanwhile_on_another_phone_is_shown_not_overwritten(
    client: FlaskClient, api: Api
) -> None:
    made = api_night(client)
    sid = made["id"]
    path = f"/sessions/{sid}/night"
    form = get_page(client, path)
    theirs = {"Dave": -1, "Greg": 0, "Jacob": -4, "Mark": 5}
    assert client.patch(f"/api/sessions/{sid}", json={"totals": theirs}).status_code == 200
    mine = [("Dave", "-2"), ("Greg", "1"), ("Jacob", "-4"), ("Mark", "5")]
    sent = {**night_form(mine), "version": form.fields["version"][0]}
    response = client.post(path, data=sent)
    assert response.status_code == 409
    again = FormPage(response.text)
    assert (
        "This night was changed on another phone while you edited it: it is now 2010-12-29, "
        "Dave -1, Greg 0, Jacob -4, Mark 5." in again.text
    )
    assert lines_of(again) == mine
    assert api.session(sid)["totals"] == theirs
    assert again.fields["version"] == [str(made["version"] + 1)]
    sent["version"] = again.fields["version"][0]
    assert client.post(path, data=sent).status_code == 302
    assert api.session(sid)["totals"] == {"Dave": -2, "Greg": 1, "Jacob": -4, "Mark": 5}


def test_a_session_with_hands_is_edited_on_its_own_form(client: FlaskClient, api: Api) -> None:
    session_id = session_with(api, [pick("Ann", "Bob", 75)])
    before = api.session(session_id)
    for method in ("GET", "POST"):
        answer = client.open(f"/sessions/{session_id}/night", method=method,
                             data=night_form(typed(NIGHT)))  # fmt: skip
        assert answer.status_code == 302
        assert answer.location == f"/sessions/{session_id}/edit"
    assert api.session(session_id) == before


# --- every other page of a session, for a night

NO_SEATS = "A night kept without hands has no seats: Edit changes its players and their nets."
NO_HANDS = "This night was kept without hands, so it takes none: change its totals instead."
NIGHT_CHANGES = (
    "A night kept without hands has no rounds, seats or rules, and is never ended or reopened: "
    "change its name, date or totals."
)


@pytest.mark.parametrize(
    ("method", "rest", "data", "status", "said"),
    [
        ("GET", "/hands/new", {}, 302, NO_HANDS),
        ("POST", "/hands/new", {"kind": "pick", "number": "1"}, 409, NO_HANDS),
        ("POST", "/hands/preview", {"kind": "pass"}, 200, NO_HANDS),
        ("GET", "/hands/1/edit", {}, 404, "has no hand 1."),
        ("GET", "/hands/1/delete", {}, 404, "has no hand 1."),
        ("POST", "/undo", {"number": "1"}, 302, None),
        ("GET", "/seats", {}, 302, NO_SEATS),
        ("POST", "/seats", {"seat": ["Dave", "Greg"], "save": "1"}, 409, NO_SEATS),
        ("POST", "/settle-leaver", {"player": "Dave"}, 409, NO_SEATS),
        ("GET", "/edit", {}, 302, None),
        ("POST", "/edit", {"name": "x", "rounds": "2"}, 302, None),
        ("POST", "/rounds", {}, 409, NIGHT_CHANGES),
        ("POST", "/end", {}, 409, NIGHT_CHANGES),
        ("POST", "/reopen", {}, 409, NIGHT_CHANGES),
        ("POST", "/settle-up", {"stake": "0.25"}, 409, NIGHT_CHANGES),
        ("GET", "/table", {}, 302,
         "A night kept without hands has no table view: its standings are on its page."),
        ("GET", "/export.csv", {}, 302,
         "A night kept without hands has no hands to download: Standings (CSV) holds its nets."),
    ],
)  # fmt: skip
def test_every_page_of_a_session_answers_a_night_sensibly_and_changes_nothing(
    client: FlaskClient,
    api: Api,
    method: str,
    rest: str,
    data: dict[str, Any],
    status: int,
    said: str | None,
) -> None:
    made = api_night(client)
    sid = made["id"]
    answer = client.open(f"/sessions/{sid}{rest}", method=method, data=data)
    assert answer.status_code == status, answer.text
    if status == 302:
        edit = rest == "/edit"
        assert answer.location == f"/sessions/{sid}" + ("/night" if edit else "")
        landed = get_page(client, answer.location)
        assert landed.flashes == ([said] if said else [])
    elif said is not None:
        assert said in answer.text
    assert api.session(sid) == made


def test_the_pages_that_make_sense_for_a_night_show_it(client: FlaskClient) -> None:
    made = api_night(client)
    sid = made["id"]
    settle = page(client, f"/sessions/{sid}/settle-up")
    assert "Kept without hands · in points" in settle.text
    assert "Jacob pays Mark 3 points" in settle.text
    assert "Set stake" not in settle.text
    assert (
        "Dave, Greg, Jacob, Mark · kept without hands"
        in page(client, f"/sessions/{sid}/delete").text
    )
    assert page(client, f"/sessions/{sid}/changes").items == []
    assert "No changes yet." in page(client, f"/sessions/{sid}/changes").text
    standings = client.get(f"/sessions/{sid}/standings.csv")
    assert standings.status_code == 200
    assert standings.text.splitlines()[1] == "1,Mark,5,0,"
    assert client.get(f"/sessions/{sid}/invite").status_code == 200
    deleted = client.post(f"/sessions/{sid}/delete", data={"write_key": WRITE_KEY})
    assert deleted.status_code == 302
    assert client.get("/api/sessions").json["sessions"] == []
    assert "Dave, Greg, Jacob, Mark · kept without hands · deleted" in page(client, "/trash").text


# --- the sessions list and the home page


def test_the_sessions_list_and_home_show_a_night_with_its_winner(
    client: FlaskClient, api: Api
) -> None:
    session_with(api, [pick("Ann", "Bob", 75)], rounds=1)
    made = api_night(client, played_on=today().isoformat())
    for path in ("/sessions", "/"):
        items = [" ".join(item) for item in page(client, path).items]
        line = next(item for item in items if "kept without hands" in item)
        assert line == (
            f"{today():%a %d %b %Y} {today().isoformat()} · Dave, Greg, Jacob, Mark · "
            "kept without hands Won by Mark"
        ), path
    html = client.get("/sessions").text
    assert f'href="/sessions/{made["id"]}"' in html


@pytest.mark.parametrize(
    ("query", "nights"),
    [
        ("plain=y", 1),
        ("bump=y", 0),
        ("player=Mark", 1),
        ("player=Ann", 0),
        ("from=2010-12-29&to=2010-12-29", 1),
        ("from=2010-12-30", 0),
    ],
)
def test_the_sessions_lists_filters_find_nights(
    client: FlaskClient, api: Api, query: str, nights: int
) -> None:
    session_with(api, [pick("Ann", "Bob", 75)], rules={"bump": True})
    api_night(client, name="Paper night")
    text = page(client, f"/sessions?{query}").text
    assert text.count("kept without hands") == nights, text


# --- a phone invited to a night


@pytest.mark.parametrize(("role", "edits"), [("reader", False), ("scorer", True)])
def test_an_invited_phone_sees_the_night_as_its_role_allows(
    app: Flask,
    client: FlaskClient,
    runner: FlaskCliRunner,
    monkeypatch: pytest.MonkeyPatch,
    role: str,
    edits: bool,
) -> None:
    monkeypatch.setattr(hosts, "lan_address", lambda: "192.168.1.20")
    made = api_night(client)
    sid = made["id"]
    args = ["access", "set-passcode", "--role", "scorer", "--passcode", "Sheep-1234"]
    assert runner.invoke(args=args).exit_code == 0
    owner = app.test_client()
    assert owner.post("/sign-in", data={"passcode": "Sheep-1234"}).status_code == 303
    invite = owner.post(f"/api/sessions/{sid}/invites", json={"role": role}).json
    phone = app.test_client()
    assert phone.get(invite["url"].removeprefix("http://192.168.1.20")).status_code == 303
    shown = page(phone, f"/sessions/{sid}").text.split()
    assert ("Edit" in shown) is edits
    assert "Delete" not in shown
    assert "Changes" in shown and "Settle" in shown
    sent = night_form([("Dave", "-2"), ("Greg", "1"), ("Jacob", "-4"), ("Mark", "5")])
    answer = phone.post(f"/sessions/{sid}/night", data=sent)
    assert answer.status_code == (302 if edits else 403)
    totals = owner.get(f"/api/sessions/{sid}").json["totals"]
    assert (totals["Greg"] == 1) is edits
