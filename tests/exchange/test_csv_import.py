"""Importing a session from a hands CSV: the round trip through the export, and every refusal."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from scorekeeper import rules
from scorekeeper.exchange.csv_in import CsvRefused, import_session, undefuse
from scorekeeper.exchange.csv_out import HEADER
from scorekeeper.sessions.writes import roster_write

from ..helpers.api import SEATS, Api, default_rules, pick
from ..helpers.backups import ODD_NAMES, build_sessions
from ..helpers.database import Fresh
from ..helpers.pages import FormPage
from ..helpers.tables import (
    FIRST_SEATS,
    HOUSE_RULES,
    TOTALS,
    WITH_GUS,
    WITHOUT_DAN,
    house_rules_night,
    play_the_night,
)

COLUMNS = ",".join(HEADER)


def form(content: bytes, rules: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """The import form as a browser sends it: the file, and the rules ticked."""
    chosen = {"partner": "jack_of_diamonds", "no_bid": "forced_pick", "cracking": True,
              "blitzing": True, **(rules or {})}  # fmt: skip
    return {
        "hands": (io.BytesIO(content), "hands.csv"),
        "partner": chosen["partner"],
        "no_bid": chosen["no_bid"],
        **{flag: "y" for flag in ("cracking", "blitzing") if chosen[flag]},
        **fields,
    }


def import_page(client: FlaskClient, content: bytes, **given: Any) -> Any:
    return client.post("/sessions/import", data=form(content, **given))


def comparable(session: dict[str, Any]) -> dict[str, Any]:
    """A session's answer without what a new session can't share: its id, creation time and
    version, and the leaster points and tricks, which the CSV has no columns for."""
    kept = {k: v for k, v in session.items() if k not in ("id", "created_at", "version")}
    kept["hands"] = [{**h, "points": None, "tricks": None} for h in session["hands"]]
    return kept


def test_an_exported_session_imports_with_the_same_hands_and_totals(
    client: FlaskClient, api: Api
) -> None:
    for session_id in build_sessions(api):
        original = api.session(session_id)
        exported = client.get(f"/sessions/{session_id}/export.csv").data
        response = import_page(
            client,
            exported,
            rules=original["rules"],
            name=original["name"],
            rounds=str(original["rounds"]),
            first_dealer="" if original["hands"] else original["first_dealer"],
        )
        assert response.status_code == 302, response.text
        new_id = int(response.location.rsplit("/", 1)[1])
        assert new_id != session_id
        imported = api.session(new_id)
        assert comparable(imported) == comparable(original), original["name"]
        assert imported["totals"] == original["totals"]
        assert client.get(f"/sessions/{new_id}/export.csv").data == exported
    assert "hands.csv is imported as a new session." in client.get("/").text


def test_names_that_were_defused_come_back_as_they_were(client: FlaskClient, api: Api) -> None:
    session_id = api.new_session(players=ODD_NAMES)["id"]
    api.record(session_id, **pick("-Dan, Jr.", "=SUM(A1)", 75, cracked_by="@eve"))
    exported = client.get(f"/sessions/{session_id}/export.csv").data
    assert exported.startswith(
        f'{COLUMNS},result,penalized,seats,\'=SUM(A1),"Zoë ""Z"" O\'Neil",'.encode()
    )
    response = import_page(client, exported)
    imported = api.session(int(response.location.rsplit("/", 1)[1]))
    assert imported["players"] == ODD_NAMES
    (hand,) = imported["hands"]
    assert (hand["dealer"], hand["picker"], hand["partner"], hand["cracked_by"]) == (
        "=SUM(A1)", "-Dan, Jr.", "=SUM(A1)", "@eve"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("cell", "expected"),
    [("'=1+1", "=1+1"), ("'-x", "-x"), ("'@y", "@y"), ("'+cmd", "+cmd"), ("'\tx", "\tx"),
     ("'Bob", "'Bob"), ("Ann", "Ann"), ("'", "'"), ("", "")],
)  # fmt: skip
def test_undefuse(cell: str, expected: str) -> None:
    assert undefuse(cell) == expected


def csv_file(*rows: str, players: str = ",".join(SEATS)) -> bytes:
    return "\r\n".join([f"{COLUMNS},{players}", *rows, ""]).encode()


def row(number: int | str, dealer: str, kind: str = "pick", *scores: str, **cells: str) -> str:
    """A line of a hands CSV; the score cells empty unless given."""
    values = {"hand": str(number), "dealer": dealer, "kind": kind, **cells}
    return ",".join([*(values.get(column, "") for column in HEADER), *(scores or [""] * 5)])


def test_hand_made_file_without_results_and_with_empty_rounds(
    client: FlaskClient, api: Api
) -> None:
    """The output-only cells may be left empty; empty rounds mean as many as the hands fill."""
    content = csv_file(
        *(row("", dealer, picker="Bob", partner="Cat", picking_points="75") for dealer in SEATS),
        row("", "Ann", picker="Bob", picking_points="60"),
        "",
    )
    response = import_page(client, content, name="  From paper  ")
    assert response.status_code == 302, response.text
    imported = api.session(int(response.location.rsplit("/", 1)[1]))
    assert (imported["name"], imported["rounds"], imported["complete"]) == ("From paper", 2, False)
    assert imported["totals"] == {"Ann": -4, "Bob": 6, "Cat": 6, "Dan": -4, "Eve": -4}
    assert imported["next_dealer"] == "Bob"


def refusal(app: Flask, content: bytes, **given: Any) -> list[str]:
    """The reasons a file is refused by the import, checking that nothing was written."""
    arguments = {"name": "", "rounds": None, "first_dealer": None,
                 "options": rules.Options(), **given}  # fmt: skip
    with app.app_context():
        before = app.test_client().get("/api/sessions").json
        with pytest.raises(CsvRefused) as refused, roster_write():
            import_session(content, **arguments)
        assert app.test_client().get("/api/sessions").json == before
    return refused.value.reasons


def test_every_bad_row_is_refused_with_its_number_and_reason(app: Flask, api: Api) -> None:
    api.new_session()
    pair = {"picker": "Bob", "partner": "Cat", "picking_points": "75"}
    content = csv_file(
        row(1, "Ann", "pick", "-1", "2", "1", "-1", "-1", **pair, called_card="JD", multiplier="1"),
        row(2, "Bob", picker="Cat", picking_points="119"),
        row(3, "Cat", picker="Eve", picking_points="75", cracked_by="Dan"),
        row(4, "Dan", picker="Eve", picking_points="sixty"),
        row(5, "Eve", "leaster", winner="Ann"),
        row(6, "Ann", **pair, multiplier="x"),
        row(7, "Bob", picker="Zed", picking_points="75"),
        row(8, "Cat", **pair, forced="true"),
        row(9, "", **pair),
        row(10, "Eve", "pick", "abc", "", "", "", "", **pair),
        "11,Ann,pick,Bob,Cat,,,75,,,,",
        row(13, "Bob", "pass"),
        row(13, "Cat", "pass"),
        row(14, "Dan", picker="Bob", partner="Bob", picking_points="75"),
    )
    assert refusal(app, content) == [
        "Row 3: Picking team points can't be 119: no set of cards is worth exactly 1 point.",
        "Row 4: Dan bid before Eve, so Dan can't crack.",
        "Row 5: Picking team points must be a whole number from 0 to 120.",
        "Row 6: This session doesn't play a leaster when everyone passes.",
        "Row 7: The multiplier must be a whole number, not x.",
        "Row 8: Zed is not playing in this hand.",
        "Row 9: Forced is yes or empty, not true.",
        "Row 10: Say who dealt the hand.",
        "Row 11: Ann's score must be a whole number, not abc.",
        "Row 12: It has 12 cells, and the header has 18.",
        "Row 13: It is hand 13, but the hands before it make it hand 12. The rows must be "
        "every hand, in order.",
        "Row 14: This session doesn't re-deal when everyone passes, so a hand can't be a pass.",
        "Row 15: Bob picked and can't also be the partner; choose Alone instead.",
    ]
    assert api.session(1)["hands"] == []


def test_blank_rows_are_skipped_and_still_counted(app: Flask) -> None:
    content = csv_file(
        row(1, "Ann", picker="Bob", picking_points="75"),
        ",,,,,,,,,,,,,,,,,",
        row(2, "Bob", picker="Cat", picking_points="1"),
    )
    assert refusal(app, content) == [
        "Row 4: Picking team points can't be 1: no set of cards is worth exactly 1 point."
    ]


def test_results_that_disagree_with_the_rules_chosen_are_refused(
    app: Flask, client: FlaskClient, api: Api
) -> None:
    session_id = api.new_session(rules={"no_bid": "doubler"})["id"]
    for hand in ({"kind": "pass"}, pick("Cat", "Dan", 75), pick("Eve", "Ann", 30)):
        api.record(session_id, **hand)
    exported = client.get(f"/sessions/{session_id}/export.csv").data
    assert refusal(app, exported, options=rules.Options(no_bid=rules.NoBid.REDEAL)) == [
        "Row 3: The file says the multiplier is 2, but by the rules chosen here it is 1. "
        "Choose the rules the session was played with."
    ]
    tampered = exported.replace(
        b"\r\n3,Cat,pick,Eve,Ann,,,30,,,,1,,lost_schneider,,1 2 3 4 5,-2,",
        b"\r\n3,Cat,pick,Eve,Ann,,,30,,,,1,,lost_schneider,,1 2 3 4 5,+5,",
    )
    assert tampered != exported
    assert refusal(app, tampered, options=rules.Options(no_bid=rules.NoBid.DOUBLER)) == [
        "Row 4: The file gives Ann +5, but by the rules chosen here Ann scores -2. Choose the "
        "rules the session was played with."
    ]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "The file is empty."),
        (b" \r\n\r\n", "The file is empty."),
        (b"\xff\xfeh\x00a\x00", "The file is not text in UTF-8. Save it from the spreadsheet as "
         "CSV (UTF-8)."),
        (b"name,score\r\nAnn,3\r\n", f"Row 1 must be the header of a hands CSV: {COLUMNS}, then "
         "one column per player."),
        (b"\xef\xbb\xbf" + csv_file(players="Ann,Bob"),
         "Row 1: A table seats 3 to 8 players, not 2."),
        (csv_file(players="Ann,Bob,Cat,Dan,ann"), "Row 1: ann has two columns."),
        (csv_file(players="Ann,Bob,,Dan,Eve"), "Row 1: Every player column needs a name; "
         "player column 3 has none."),
        (csv_file("1," + "x" * 200_000), "The file can't be read as CSV: field larger than "
         "field limit (131072)."),
        (csv_file(*(f"{n},Ann,pick,Bob,Cat,,,75,,,,,,,,,," for n in range(1, 7))),
         "Row 7: This session is complete: its round is played. Add a round to record another "
         "hand."),
    ],
)  # fmt: skip
def test_a_file_that_is_not_a_hands_csv_is_refused(app: Flask, content: bytes, reason: str) -> None:
    assert refusal(app, content, rounds=1) == [reason]


def test_first_dealer_rounds_and_name_are_refused_at_their_fields(
    client: FlaskClient, api: Api
) -> None:
    api.new_session()
    before = client.get("/api/sessions").json
    content = csv_file("1,Ann,pick,Bob,Cat,,,75,,,,,,,,,,")
    page = import_page(client, content, first_dealer="Zed", rounds="two", name="N" * 101)
    assert page.status_code == 200
    assert '<p class="error" id="rounds-error">Rounds must be a whole number from 0 to 100' in (
        page.text
    )
    page = import_page(client, content, first_dealer="Zed")
    assert (
        '<p class="error" id="first_dealer-error">Zed is not playing in this session.</p>'
        in page.text
    )
    page = import_page(client, content, name="N" * 101)
    assert (
        '<p class="error" id="name-error">A session name can be at most 100 characters long.</p>'
        in page.text
    )
    page = client.post("/sessions/import", data={"partner": "jack_of_diamonds"})
    assert "Choose the CSV file of the hands." in page.text
    assert client.get("/api/sessions").json == before


def test_the_page_lists_every_refused_row(client: FlaskClient, api: Api) -> None:
    content = csv_file("1,Ann,pick,Bob,Cat,,,119,,,,,,,,,,", "2,Bob,pick,Cat,Cat,,,75,,,,,,,,,,")
    page = import_page(client, content, rules={"cracking": False}, name="Kept")
    assert page.status_code == 200
    assert "Nothing was imported." in page.text
    items = re.findall(r"<li>(.*?)</li>", page.text)
    assert items == [
        "Row 2: Picking team points can&#39;t be 119: no set of cards is worth exactly 1 point.",
        "Row 3: Cat picked and can&#39;t also be the partner; choose Alone instead.",
    ]
    assert 'value="Kept"' in page.text
    assert re.search(r'name="cracking" value="y"(?! checked)', page.text)
    assert client.get("/api/sessions").json == {"sessions": []}


def test_the_import_page_shows_the_rule_options(client: FlaskClient) -> None:
    page = client.get("/sessions/import")
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.text
    for value in ("jack_of_diamonds", "called_ace", "forced_pick", "redeal", "doubler", "leaster"):
        assert f'value="{value}"' in page.text
    assert 'name="cracking" value="y" checked' in page.text


def test_import_needs_the_csrf_token(fresh: Fresh) -> None:
    client = fresh(csrf=True).test_client()
    content = csv_file("1,Ann,pick,Bob,Cat,,,75,,,,,,,,,,")
    assert import_page(client, content).status_code == 400
    assert client.get("/api/sessions").json == {"sessions": []}
    token = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/sessions/import").text
    )
    assert token is not None
    assert import_page(client, content, csrf_token=token[1]).status_code == 302


CELLS = st.one_of(
    st.sampled_from(["", "Ann", "'=Ann", "pick", "pass", "leaster", "yes", "75", "-1", "120", "x",
                     "black red", "JD", "AC", "0", "1", "2", "\n", '"', ","]),
    st.text(max_size=6),
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(st.lists(CELLS, min_size=0, max_size=20), max_size=5),
    no_bid=st.sampled_from(list(rules.NoBid)),
)
def test_any_file_is_imported_or_refused_never_an_error(
    client: FlaskClient, rows: list[list[str]], no_bid: rules.NoBid
) -> None:
    text = io.StringIO()
    csv.writer(text).writerows([[*HEADER, *SEATS], *rows])
    response = import_page(client, text.getvalue().encode(), rules={"no_bid": no_bid.value})
    assert response.status_code in (200, 302)


def test_import_session_command(
    client: FlaskClient, api: Api, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    played = api.new_session(rules={"no_bid": "doubler", "cracking": False}, first_dealer="Cat")
    for hand in ({"kind": "pass"}, pick("Ann", "Bob", 95), pick("Dan", None, 20)):
        api.record(played["id"], **hand)
    exported = tmp_path / "hands.csv"
    exported.write_bytes(client.get(f"/sessions/{played['id']}/export.csv").data)

    result = runner.invoke(
        args=["import-session", str(exported), "--name", "Again", "--no-bid", "doubler",
              "--no-cracking", "--rounds", "0"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    new_id = int(re.findall(r"Imported session (\d+)\.", result.output)[0])
    again = api.session(new_id)
    assert again["name"] == "Again"
    assert again["totals"] == api.session(played["id"])["totals"]
    assert again["rules"] == {**played["rules"]}

    refused = runner.invoke(args=["import-session", str(exported)])  # the default rules
    assert refused.exit_code == 1
    assert "Nothing was imported." in refused.output
    assert "Row 2:" in refused.output
    assert len(api.client.get("/api/sessions").json["sessions"]) == 2


# --- tables that change


def round_trip(client: FlaskClient, api: Api, session_id: int) -> dict[str, Any]:
    """Export a session, import the file with the session's rules and rounds, and compare."""
    original = api.session(session_id)
    exported = client.get(f"/sessions/{session_id}/export.csv").data
    options = rules.options_from(**original["rules"])
    app = client.application
    with app.app_context(), roster_write():
        new_id = import_session(exported, original["name"], original["rounds"], None, options)
    imported = api.session(new_id.session_id)
    assert comparable(imported) == comparable(original)
    assert client.get(f"/sessions/{imported['id']}/export.csv").data == exported
    return imported


def test_a_night_with_an_arrival_and_a_departure_comes_back_the_same(
    client: FlaskClient, api: Api
) -> None:
    night = play_the_night(api)
    imported = round_trip(client, api, night)
    assert [hand["seats"] for hand in imported["hands"]] == [FIRST_SEATS] * 2 + [WITH_GUS] * 2 + [
        WITHOUT_DAN
    ] * 2
    assert [hand["dealer"] for hand in imported["hands"]] == [
        "Ann",
        "Bob",
        "Cat",
        "Gus",
        "Eve",
        "Fay",
    ]
    assert imported["players"] == WITHOUT_DAN
    assert imported["totals"] == TOTALS
    assert [(s["player"], s["seated"]) for s in imported["standings"]][-1] == ("Dan", False)
    # And through the import page.
    exported = client.get(f"/sessions/{night}/export.csv").data
    response = import_page(client, exported, rounds="1")
    assert response.status_code == 302, response.text
    again = api.session(int(response.location.rsplit("/", 1)[1]))
    assert comparable(again) == comparable(imported)


def test_leaving_coming_back_and_sitting_out_only_come_back_the_same(
    client: FlaskClient, api: Api
) -> None:
    """Fay deals the first hand, sits it out and leaves; Dan leaves and comes back in another
    seat; everyone plays with seven (sitting out none), then three play alone."""
    session_id = api.new_session(
        players=[*SEATS, "Fay"], first_dealer="Fay", rules={"sitting_out": "none"}
    )["id"]
    steps: list[tuple[list[str] | None, dict[str, Any]]] = [
        (None, pick("Ann", "Bob", 75)),
        (["Ann", "Bob", "Cat", "Eve"], pick("Cat", "Ann", 61)),
        (["Ann", "Dan", "Bob", "Cat", "Eve", "Gus", "Hal"], pick("Hal", "Dan", 95)),
        (
            ["Ann", "Dan", "Bob", "Cat", "Eve"],
            {"kind": "pick", "picker": "Eve", "partner": None, "picking_points": 20},
        ),
    ]
    for seats, hand in steps:
        if seats is not None:
            patched = api.client.patch(f"/api/sessions/{session_id}", json={"players": seats})
            assert patched.status_code == 200, patched.json
        api.record(session_id, **hand)
    imported = round_trip(client, api, session_id)
    assert [len(hand["seats"]) for hand in imported["hands"]] == [6, 4, 7, 5]
    assert imported["hands"][0]["sitting_out"] == []
    assert "Fay" in imported["hands"][0]["seats"] and "Fay" in imported["totals"]


def test_a_file_without_seats_seats_the_players_with_scores_and_the_dealer(
    client: FlaskClient, api: Api
) -> None:
    """Six players, the dealer sitting out with an empty cell; Gus arrives at hand 3 (Bob, who
    dealt hand 2, has left, and sits out: no cell)."""
    content = csv_file(
        "1,Ann,pick,Bob,Cat,,,75,,,,1,,,2,1,-1,-1,-1,",
        "2,Bob,pick,Cat,Dan,,,45,,,,1,,1,,-2,-1,1,1,",
        "3,Cat,pick,Gus,,,,95,,,,1,,-2,,,-2,-2,-2,8",
        players="Ann,Bob,Cat,Dan,Eve,Fay,Gus",
    )
    response = import_page(client, content)
    assert response.status_code == 302, response.text
    imported = api.session(int(response.location.rsplit("/", 1)[1]))
    assert [hand["seats"] for hand in imported["hands"]] == [
        FIRST_SEATS,
        FIRST_SEATS,
        ["Ann", "Cat", "Dan", "Eve", "Fay", "Gus"],
    ]
    assert [hand["sitting_out"] for hand in imported["hands"]] == [["Ann"], ["Bob"], ["Cat"]]
    assert imported["players"] == ["Ann", "Cat", "Dan", "Eve", "Fay", "Gus"]
    assert imported["rounds"] == 1
    assert imported["totals"] == {
        "Ann": -1, "Bob": 2, "Cat": -1, "Dan": -4, "Eve": -2, "Fay": -2, "Gus": 8
    }  # fmt: skip


def test_a_file_without_seats_seats_who_sat_out(client: FlaskClient, api: Api) -> None:
    """Seven at the table: the dealer and the player before them sit out, each `out`, so the
    hand is seated with all seven as exported, where an empty cell would have left Bob out."""
    content = csv_file(
        "1,Cat,pick,Dan,Eve,,,75,,,,1,,-1,out,out,2,1,-1,-1",
        players="Ann,Bob,Cat,Dan,Eve,Fay,Gus",
    )
    response = import_page(client, content)
    assert response.status_code == 302, response.text
    imported = api.session(int(response.location.rsplit("/", 1)[1]))
    [hand] = imported["hands"]
    assert hand["seats"] == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    assert hand["sitting_out"] == ["Bob", "Cat"]
    exported = client.get(f"/sessions/{imported['id']}/export.csv").text.splitlines()
    assert exported[1].endswith(",1 2 3 4 5 6 7,-1,out,out,2,1,-1,-1")


def test_a_player_who_sat_out_must_be_seated(app: Flask) -> None:
    content = "\r\n".join(
        [
            f"{COLUMNS},seats,Ann,Bob,Cat,Dan,Eve,Fay",
            "1,Ann,pick,Bob,Cat,,,75,,,,,,1 2 3 4 5,-1,2,1,-1,-1,out",
            "",
        ]
    ).encode()
    assert refusal(app, content) == ["Row 2: Fay sat out but is not seated for the hand."]


def test_sitting_out_none_is_chosen_by_the_command(
    app: Flask, api: Api, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    """Six all play; by the default rule the dealer would have sat out, so the file is
    refused until --sitting-out none is given."""
    file = tmp_path / "six.csv"
    file.write_bytes(
        csv_file(
            "1,Ann,pick,Bob,Cat,,,75,,,,1,,-1,3,1,-1,-1,-1",
            players="Ann,Bob,Cat,Dan,Eve,Fay",
        )
    )
    refused = runner.invoke(args=["import-session", str(file)])
    assert refused.exit_code == 1
    assert refused.output.splitlines()[-2:] == [
        "Error: Nothing was imported.",
        "Row 2: The file gives Ann a score, but Ann did not play this hand. A player who sits "
        "out or is not seated has an empty cell.",
    ]
    result = runner.invoke(args=["import-session", str(file), "--sitting-out", "none"])
    assert result.exit_code == 0, result.output
    new_id = int(re.findall(r"Imported session (\d+)\.", result.output)[0])
    imported = api.session(new_id)
    assert imported["rules"]["sitting_out"] == "none"
    assert imported["hands"][0]["players"] == ["Bob", "Cat", "Dan", "Eve", "Fay", "Ann"]


def test_bad_seats_are_refused_with_their_rows(app: Flask) -> None:
    header = "Ann,Bob,Cat,Dan,Eve,Fay,Gus,Hal,Ida"
    content = "\r\n".join(
        [
            f"{COLUMNS},seats,{header}",
            "1,Ann,pick,Bob,Cat,,,75,,,,,,1 2 3 4 5,,,,,,,,,",
            "2,Bob,pick,Cat,Dan,,,75,,,,,,1 2 10 4 5,,,,,,,,,",
            "3,Cat,pick,Dan,Eve,,,75,,,,,,1 2 3 4 5 6 7 8 9,,,,,,,,,",
            "4,Gus,pick,Dan,Eve,,,75,,,,,,1 2 3 4 5,,,,,,,,,",
            "5,Dan,pick,Eve,Ann,,,75,,,,,,1 1 3 4 5,,,,,,,,,",
            "",
        ]
    ).encode()
    assert refusal(app, content) == [
        "Row 3: The seats are numbers of the player columns, 1 to 9, not 10.",
        "Row 4: A table seats 3 to 8 players, not 9.",
        "Row 5: Gus is not playing in this session.",
        "Row 6: Ann is seated twice.",
    ]


def test_numbers_of_thousands_of_digits_are_refused_with_their_rows(
    app: Flask, client: FlaskClient, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    huge = "9" * 5000
    pair = {"picker": "Bob", "partner": "Cat", "picking_points": "75"}

    def seated(
        number: int | str, dealer: str, seats: str = "", score: str = "", **cells: str
    ) -> str:
        """A line of a file with a seats column: the hand's cells, its seats, Ann's score."""
        values = {"hand": str(number), "dealer": dealer, "kind": "pick", **cells}
        return ",".join([*(values.get(c, "") for c in HEADER), seats, score, "", "", "", ""])

    content = "\r\n".join(
        [
            f"{COLUMNS},seats,{','.join(SEATS)}",
            seated(huge, "Ann", **pair),
            seated(2, "Bob", **pair, multiplier=f"-{huge}"),
            seated(3, "Cat", picker="Dan", partner="Eve", picking_points=huge),
            seated(4, "Dan", score=huge, **pair),
            seated(5, "Eve", seats=f"{huge} 2 3 4 5", **pair),
            "",
        ]
    ).encode()
    reasons = [
        "Row 2: The hand number must be a whole number, not 999999... (5000 characters).",
        "Row 3: The multiplier must be a whole number, not -99999... (5001 characters).",
        "Row 4: Picking team points must be a whole number from 0 to 120.",
        "Row 5: Ann's score must be a whole number, not 999999... (5000 characters).",
        "Row 6: The seats are numbers of the player columns, 1 to 5, not 999999... "
        "(5000 characters).",
    ]
    assert refusal(app, content) == reasons

    page = import_page(client, content)
    assert page.status_code == 200
    assert re.findall(r"<li>(.*?)</li>", page.text) == [escape(reason) for reason in reasons]
    file = tmp_path / "hands.csv"
    file.write_bytes(content)
    command = runner.invoke(args=["import-session", str(file)])
    assert command.exit_code == 1
    assert command.stderr == "\n".join(["Error: Nothing was imported.", *reasons, ""])
    assert client.get("/api/sessions").json == {"sessions": []}


# --- house rules: results, penalty hands

HOUSE_OPTIONS = ["--no-bid", "doubler", "--bump", "--schwarz", "tricks", "--doublers", "stack",
                 "--max-multiplier", "8", "--penalties", "--stake", "25"]  # fmt: skip


def test_a_house_rules_session_comes_back_the_same(
    client: FlaskClient, api: Api, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    original_id = house_rules_night(api)
    original = api.session(original_id)
    exported = client.get(f"/sessions/{original_id}/export.csv").data
    file = tmp_path / "hands.csv"
    file.write_bytes(exported)
    result = runner.invoke(
        args=["import-session", str(file), "--name", "House rules", "--rounds", "0",
              *HOUSE_OPTIONS]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    new_id = int(re.findall(r"Imported session (\d+)\.", result.output)[0])
    imported = api.session(new_id)
    assert comparable(imported) == comparable(original)
    assert imported["rules"] == {**default_rules(), **HOUSE_RULES}
    first = imported["hands"][0]
    assert (first["picking_points"], first["result"], first["scores"]["Ann"]) == (None, "lost", -4)
    assert imported["hands"][3]["kind"] == "penalty"
    assert imported["hands"][3]["penalized"] == "Dan"
    assert imported["totals"] == {"Ann": -27, "Bob": 35, "Cat": 33, "Dan": -14, "Eve": -27}
    assert imported["settle_up"]["balances"] == {
        "Ann": -675, "Bob": 875, "Cat": 825, "Dan": -350, "Eve": -675
    }  # fmt: skip
    assert client.get(f"/sessions/{new_id}/export.csv").data == exported


def without(options: list[str], *dropped: str) -> list[str]:
    """The house options less some, each with its value if it takes one."""
    kept, skip = [], False
    for index, option in enumerate(options):
        if skip:
            skip = False
        elif option in dropped:
            skip = index + 1 < len(options) and not options[index + 1].startswith("--")
        else:
            kept.append(option)
    return kept


@pytest.mark.parametrize(
    ("dropped", "reasons"),
    [
        (
            ("--bump",),
            [
                "Row 2: The file gives Ann -4, but by the rules chosen here Ann scores -2. "
                "Choose the rules the session was played with.",
                "Row 8: The file gives Ann -6, but by the rules chosen here Ann scores -3. "
                "Choose the rules the session was played with.",
            ],
        ),
        (
            ("--schwarz",),
            [
                "Row 7: The picking team's 120 points mean won schwarz, not won schneider "
                "(91 to 119 points).",
                "Row 8: The picking team's 10 points mean lost schneider, not lost schwarz "
                "(0 points).",
            ],
        ),
        (
            ("--doublers",),
            [
                # x8 all the same (crack, re-crack, a doubler), then one doubler is left.
                "Row 7: The file says the multiplier is 1, but by the rules chosen here it is 2. "
                "Choose the rules the session was played with.",
            ],
        ),
        (
            ("--max-multiplier",),
            [
                "Row 6: The file says the multiplier is 8, but by the rules chosen here it is 16. "
                "Choose the rules the session was played with.",
            ],
        ),
        (("--penalties",), ["Row 5: This session doesn't play penalty hands."]),
    ],
)
def test_house_rules_not_chosen_are_refused_with_their_rows(
    client: FlaskClient,
    api: Api,
    runner: FlaskCliRunner,
    tmp_path: Path,
    dropped: tuple[str, ...],
    reasons: list[str],
) -> None:
    file = tmp_path / "hands.csv"
    file.write_bytes(client.get(f"/sessions/{house_rules_night(api)}/export.csv").data)
    refused = runner.invoke(args=["import-session", str(file), *without(HOUSE_OPTIONS, *dropped)])
    assert refused.exit_code == 1
    assert refused.output.splitlines()[1:] == reasons
    assert len(api.client.get("/api/sessions").json["sessions"]) == 1


def test_a_file_without_result_and_penalized_columns_imports_by_house_rules(
    app: Flask, api: Api
) -> None:
    content = csv_file(
        row(1, "Ann", picker="Ann", partner="Bob", picking_points="45", multiplier="1"),
        row(2, "Bob", picker="Cat", picking_points="120"),
    )
    options = rules.options_from(bump=True, schwarz="tricks")
    with app.app_context(), roster_write():
        imported = import_session(content, "", None, None, options)
    session = api.session(imported.session_id)
    assert [hand["result"] for hand in session["hands"]] == ["lost", "won_schwarz"]
    assert session["totals"] == {"Ann": -7, "Bob": -5, "Cat": 14, "Dan": -1, "Eve": -1}


def test_a_result_that_disagrees_with_the_points_is_refused(app: Flask) -> None:
    header = f"{COLUMNS},result,penalized,{','.join(SEATS)}"
    content = "\r\n".join(
        [
            header,
            "1,Ann,pick,Bob,Cat,,,75,,,,,,lost,,,,,,",
            "2,Bob,pick,Cat,Dan,,,,,,,,,won_big,,,,,,",
            "3,Cat,leaster,,,,,,,,,,Dan,,,,,,,",
            "4,Dan,pick,Eve,Ann,,,,,,,,,,Ann,,,,,",
            "5,Eve,penalty,,,,,,,,,,,,Zed,,,,,",
            "6,Ann,pick,Eve,Ann,,,,,,,,,won,,,,,,",
            "",
        ]
    ).encode()
    assert refusal(app, content, options=rules.options_from(penalties=True)) == [
        "Row 2: The picking team's 75 points mean won, not lost (31 to 60 points).",
        "Row 3: The result is one of won_schwarz, won_schneider, won, lost, lost_schneider, "
        "lost_schwarz.",
        "Row 4: This session doesn't play a leaster when everyone passes.",
        "Row 5: Only a penalty hand has a penalized player.",
        "Row 6: Zed is not playing in this hand.",
    ]


# --- players' names


def test_a_player_that_looks_like_one_who_has_played_is_refused_until_confirmed(
    client: FlaskClient, api: Api
) -> None:
    api.new_session()
    cyrillic_ann = "\u0410nn"
    players = ",".join([cyrillic_ann, *SEATS[1:]])
    content = csv_file(
        row(1, "Bob", picker="Bob", partner="Cat", picking_points="75"), players=players
    )
    before = client.get("/api/sessions").json
    page = import_page(client, content)
    assert page.status_code == 200
    assert "Nothing was imported." in page.text
    assert re.findall(r"<li>(.*?)</li>", page.text) == [
        f"{cyrillic_ann} looks like Ann, who has played here, "
        "but holds U+0410 (cyrillic capital letter a). Choose Ann, "
        f"or confirm {cyrillic_ann} as a new player."
    ]
    assert f'<input type="checkbox" name="new_player" value="{cyrillic_ann}">' in page.text
    assert client.get("/api/sessions").json == before
    confirmed = client.post("/sessions/import", data={**form(content), "new_player": cyrillic_ann})
    assert confirmed.status_code == 302, confirmed.text
    imported = api.session(int(confirmed.location.rsplit("/", 1)[1]))
    assert imported["players"] == [cyrillic_ann, *SEATS[1:]]


@pytest.mark.parametrize(
    ("name", "said"), [("Ann\u200b", "U+200B (zero width space)"), ("Ann\x1b", "U+001B")]
)
def test_a_player_column_with_an_invisible_character_is_refused(
    app: Flask, name: str, said: str
) -> None:
    players = ",".join([name, *SEATS[1:]])
    content = csv_file(
        row(1, "Bob", picker="Bob", partner="Cat", picking_points="75"), players=players
    )
    assert refusal(app, content) == [
        f"Row 1: A player's name can't hold control or invisible characters; this one holds {said}."
    ]


def test_a_new_name_like_a_players_is_offered_as_that_player(client: FlaskClient, api: Api) -> None:
    api.new_session()
    content = csv_file(
        row(1, "Ann", picker="BOBBY", partner="Cat", picking_points="75"),
        row(2, "bobby", picker="Dan", partner="bobby", picking_points="40"),
        players="Ann,Bobby,Cat,Dan,Zed",
    )
    before = client.get("/api/sessions").json

    asked = import_page(client, content)

    assert asked.status_code == 200
    assert client.get("/api/sessions").json == before
    held = FormPage(asked.text).fields
    assert held["asked"] == ["Bobby"]
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', asked.text)
    assert options[:2] == [("", "Bobby: a new player"), ("Bob", "Bob")]
    assert "Zed" not in held["asked"]
    sent = {
        **{k: v for k, v in form(content).items() if k != "hands"},
        "held_file": held["held_file"][0],
        "file_name": "hands.csv",
        "asked": "Bobby",
        "as-0": "Bob",
    }
    answered = client.post("/sessions/import", data=sent)
    assert answered.status_code == 302, answered.text
    imported = api.session(int(answered.location.rsplit("/", 1)[1]))
    assert imported["players"] == ["Ann", "Bob", "Cat", "Dan", "Zed"]
    assert [(h["dealer"], h["picker"], h["partner"]) for h in imported["hands"]] == [
        ("Ann", "Bob", "Cat"),
        ("Bob", "Dan", "Bob"),
    ]
    names = [p["name"] for p in client.get("/api/players").json["players"]]
    assert "Bobby" not in names and "Zed" in names


def test_a_near_name_answered_a_new_player_is_one(client: FlaskClient, api: Api) -> None:
    """ "Tom Kiebzak" is one letter from "Tom Kiebzack": the page asks who it is, and a new
    player answered there is not refused again as a near name."""
    api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Tom Kiebzack"])
    content = csv_file(
        row(1, "Ann", picker="Bob", partner="Cat", picking_points="75"),
        players="Ann,Bob,Cat,Dan,Tom Kiebzak",
    )
    asked = import_page(client, content)
    held = FormPage(asked.text).fields
    assert held["asked"] == ["Tom Kiebzak"]
    options = re.findall(r'<option value="([^"]*)">([^<]*)</option>', asked.text)
    assert options[:2] == [("", "Tom Kiebzak: a new player"), ("Tom Kiebzack", "Tom Kiebzack")]
    sent = {k: v for k, v in form(content).items() if k != "hands"}
    answered = client.post(
        "/sessions/import",
        data={**sent, "held_file": held["held_file"][0], "asked": "Tom Kiebzak", "as-0": ""},
    )
    assert answered.status_code == 302, answered.text
    imported = api.session(int(answered.location.rsplit("/", 1)[1]))
    assert imported["players"] == ["Ann", "Bob", "Cat", "Dan", "Tom Kiebzak"]


def test_a_near_name_is_refused_until_confirmed(
    app: Flask, runner: FlaskCliRunner, api: Api, tmp_path: Path
) -> None:
    api.new_session(players=["Ann", "Bob", "Cat", "Dan", "Tom Kiebzack"])
    content = csv_file(
        row(1, "Ann", picker="Bob", partner="Cat", picking_points="75"),
        players="Ann,Bob,Cat,Dan,Tom Kiebzak",
    )
    options = rules.Options(partner=rules.PartnerMode.JACK_OF_DIAMONDS)
    with app.app_context(), pytest.raises(rules.LookAlike) as refused, roster_write():
        import_session(content, "", None, None, options)
    assert refused.value.message == (
        "Tom Kiebzak looks like Tom Kiebzack, who has played here. Choose Tom Kiebzack, "
        "or confirm Tom Kiebzak as a new player."
    )
    file = tmp_path / "hands.csv"
    file.write_bytes(content)
    refused = runner.invoke(args=["import-session", str(file), "--partner", "jack_of_diamonds"])
    assert refused.exit_code == 1
    assert "confirm Tom Kiebzak as a new player" in refused.output
    confirmed = runner.invoke(
        args=["import-session", str(file), "--partner", "jack_of_diamonds",
              "--new-player", "tom kiebzak"]
    )  # fmt: skip
    assert confirmed.exit_code == 0, confirmed.output
    players = [p["name"] for p in api.client.get("/api/players").json["players"]]
    assert "Tom Kiebzak" in players and "Tom Kiebzack" in players


def test_a_new_name_like_a_players_can_stay_a_new_player(client: FlaskClient, api: Api) -> None:
    api.new_session()
    content = csv_file(
        row(1, "Bobby", picker="Bobby", partner="Cat", picking_points="75"),
        players="Ann,Bobby,Cat,Dan,Eve",
    )
    held = FormPage(import_page(client, content).text).fields["held_file"][0]
    sent = {k: v for k, v in form(content).items() if k != "hands"}
    answered = client.post(
        "/sessions/import", data={**sent, "held_file": held, "asked": "Bobby", "as-0": ""}
    )
    assert answered.status_code == 302, answered.text
    imported = api.session(int(answered.location.rsplit("/", 1)[1]))
    assert imported["players"] == ["Ann", "Bobby", "Cat", "Dan", "Eve"]
    damaged = client.post(
        "/sessions/import", data={**sent, "held_file": "not base64!", "asked": "Bobby"}
    )
    assert "The file held by the page was damaged: choose it again." in damaged.text
