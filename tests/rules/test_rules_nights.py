"""A night kept without hands in the rules engine (RULES.md, "Nights kept without hands"): its
nets checked, and its standings by net, equal nets sharing a place and listed by name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import rules


def test_api_mds_night_places_its_players_by_net() -> None:
    nets = rules.check_night({"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5})
    sheet = rules.night_sheet(nets)
    assert [(s.player, s.total, s.place) for s in sheet.standings] == [
        ("Mark", 5, 1), ("Greg", 0, 2), ("Dave", -2, 3), ("Jacob", -3, 4),
    ]  # fmt: skip
    assert sheet.totals == {"Dave": -2, "Greg": 0, "Jacob": -3, "Mark": 5}
    assert sheet.complete and sheet.results == () and sheet.next_dealer is None
    assert sheet.table.totals_only and sheet.table.is_complete(0)


def test_equal_nets_share_a_place_and_are_listed_by_name() -> None:
    sheet = rules.night_sheet(rules.check_night({"cat": 2, "Ann": 2, "Bob": -1, "Dan": -3}))
    assert [(s.player, s.place) for s in sheet.standings] == [
        ("Ann", 1), ("cat", 1), ("Bob", 3), ("Dan", 4),
    ]  # fmt: skip


def test_a_night_takes_no_hand() -> None:
    sheet = rules.night_sheet({"Ann": 1, "Bob": -1})
    with pytest.raises(rules.SessionComplete, match="kept without hands"):
        sheet.table.check_room_for_hand(0)


@pytest.mark.parametrize(
    ("totals", "sentence"),
    [
        ({"Ann": 2, "Bob": 1}, "The nets add up to 3, not 0."),
        ({"Ann": -2, "Bob": 1}, "The nets add up to -1, not 0."),
        ({"Ann": 0}, "A night has 2 to 40 players, not 1."),
        ({f"P{i}": 0 for i in range(41)}, "A night has 2 to 40 players, not 41."),
        ({"Ann": 1.0, "Bob": -1}, "Ann's net is a whole number from -100,000 to 100,000."),
        ({"Ann": True, "Bob": -1}, "Ann's net is a whole number from -100,000 to 100,000."),
        ({"Ann": "1", "Bob": -1}, "Ann's net is a whole number from -100,000 to 100,000."),
        ({"Ann": 100_001, "Bob": -100_001}, "Ann's net is a whole number"),
        ({"Ann": 1, "ann ": -1}, "ann is listed twice."),
        (["Ann", "Bob"], "The totals are an object"),
    ],
)
def test_nets_that_cant_be_a_night_are_refused_at_totals(totals: object, sentence: str) -> None:
    with pytest.raises(rules.RuleError, match=sentence.replace(".", r"\.")) as refused:
        rules.check_night(totals)
    assert refused.value.field == "totals"


def test_the_highest_nets_are_a_night() -> None:
    assert rules.check_night({"Ann": 100_000, "Bob": -100_000}) == {"Ann": 100_000, "Bob": -100_000}


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=39))
def test_any_nets_adding_up_to_0_make_standings_by_net(first: list[int]) -> None:
    nets = {f"P{i:02d}": net for i, net in enumerate(first)} | {"Zed": -sum(first)}
    sheet = rules.night_sheet(rules.check_night(nets))
    assert sheet.totals == nets
    assert sorted(s.player for s in sheet.standings) == sorted(nets)
    for standing in sheet.standings:
        assert standing.place == 1 + sum(1 for net in nets.values() if net > standing.total)
    assert [s.total for s in sheet.standings] == sorted(nets.values(), reverse=True)


def test_a_spreadsheets_line_is_checked_player_by_player() -> None:
    """A line gives its nets cell by cell: a player in two columns is caught, and a cell that
    is no whole number is refused as the API's totals are."""
    assert rules.check_nets([("Ann", 3), ("Bob", -3)], "csv") == {"Ann": 3, "Bob": -3}
    for nets, sentence in (
        ([("Ann", 3), ("ann", -3)], "ann is listed twice."),
        ([("Ann", "3.5"), ("Bob", -3)], "Ann's net is a whole number from -100,000 to 100,000."),
        ([("Ann", 0)], "A night has 2 to 40 players, not 1."),
    ):
        with pytest.raises(rules.RuleError) as refused:
            rules.check_nets(nets, "csv")
        assert (refused.value.message, refused.value.field) == (sentence, "csv")
