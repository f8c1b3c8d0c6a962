"""The running-totals chart: an inline SVG whose lines go through each player's totals."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.pages.charts import Mark, Series, line_chart, running_totals, scale_for
from scorekeeper.sessions import loading

from ..helpers.api import SEATS, Api, pick
from ..helpers.tables import TOTALS, house_rules_night, play_the_night

SVG = "{http://www.w3.org/2000/svg}"


def pieces(svg: str) -> dict[str, list[str]]:
    """Each line's polylines, as their points."""
    root = ET.fromstring(svg)
    return {
        group.get("data-name") or "": [
            polyline.get("points") or "" for polyline in group.iter(f"{SVG}polyline")
        ]
        for group in root.iter(f"{SVG}g")
    }


def lines(svg: str) -> dict[str, list[tuple[float, float]]]:
    root = ET.fromstring(svg)
    found = {}
    for group in root.iter(f"{SVG}g"):
        points = group.find(f"{SVG}polyline").get("points")  # type: ignore[union-attr]
        found[group.get("data-name") or ""] = [
            (float(x), float(y))
            for x, y in (p.split(",") for p in points.split())  # type: ignore[union-attr]
        ]
    return found


def test_points_follow_the_values_in_order() -> None:
    series = [Series("Ann", [0, 2, -2, 6]), Series("Bob", [0, -2, 2, -6])]
    drawn = lines(str(line_chart(series, "Totals", "hands")))
    scale = scale_for(series)
    for line in series:
        expected = [(round(scale.x(i)), round(scale.y(v))) for i, v in enumerate(line.values)]
        assert drawn[line.name] == expected
    xs = [x for x, _ in drawn["Ann"]]
    assert xs == sorted(xs) and len(set(xs)) == 4
    ann_y = [y for _, y in drawn["Ann"]]
    assert ann_y[3] < ann_y[1] < ann_y[0] < ann_y[2]  # higher totals are drawn higher


def test_end_labels_name_the_player_and_never_overlap() -> None:
    series = [Series(name, [0, 1]) for name in ("Ann", "Bob", "Cat")]
    root = ET.fromstring(str(line_chart(series, "Totals", "hands")))
    labels = [t for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")]
    assert [t.text for t in labels] == ["Ann +1", "Bob +1", "Cat +1"]
    ys = sorted(float(t.get("y") or 0) for t in labels)
    assert all(b - a >= 12 for a, b in pairwise(ys))


def test_a_long_name_is_shortened_at_the_end_of_its_line_and_its_total_kept() -> None:
    svg = line_chart(
        [Series("Christopher", [0, 60, 120]), Series("Ann", [0, -60, -120])], "Totals", "hands"
    )
    assert [text.text for text in ET.fromstring(svg).iter(f"{SVG}text")][-2:] == [
        "Christo… +120",
        "Ann -120",
    ]
    assert 'data-name="Christopher"' in svg


def test_names_are_escaped() -> None:
    svg = str(line_chart([Series("<b>&", [0, 1])], "<title>", "hands"))
    assert "<b>&" not in svg
    ET.fromstring(svg)


def test_session_page_draws_each_players_running_total(api: Api, client: FlaskClient) -> None:
    session = api.new_session()
    for hand in (pick("Ann", "Bob", 75), pick("Cat", None, 95), pick("Dan", "Eve", 20)):
        api.record(session["id"], **hand)
    html = client.get(f"/sessions/{session['id']}").text
    svg = html[html.index("<svg") : html.index("</svg>") + 6]
    drawn = lines(svg)
    assert list(drawn) == SEATS
    totals = api.session(session["id"])["hands"]
    running = {p: [0] for p in SEATS}
    for hand in totals:
        for p in SEATS:
            running[p].append(running[p][-1] + hand["scores"][p])
    scale = scale_for([Series(p, running[p]) for p in SEATS])
    for p in SEATS:
        assert [y for _, y in drawn[p]] == [round(scale.y(v), 1) for v in running[p]]


def test_a_line_with_gaps_is_drawn_in_pieces_labelled_where_it_ends() -> None:
    series = [
        Series("Ann", [0, 2, None, None, 4, 6]),
        Series("Bob", [None, 0, -2, None, None, None]),
    ]
    svg = str(line_chart(series, "Totals", "hands"))
    # x from 30 to 268 in five steps of 47.6; y from 12 (+6) to 188 (-2) in steps of 22.
    assert pieces(svg) == {
        "Ann": ["30,144 78,100", "220,56 268,12"],
        "Bob": ["78,144 125,188"],
    }
    root = ET.fromstring(svg)
    assert [t.text for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")] == [
        "Ann +6",
        "Bob -2",
    ]


def test_night_chart_draws_players_only_while_seated(app: Flask, api: Api) -> None:
    night = play_the_night(api)
    with app.app_context():
        sheet = loading.sheet_of(loading.session_or_404(night))
    svg = str(line_chart(running_totals(sheet), "Running totals", "hands"))
    drawn = pieces(svg)
    assert list(drawn) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    # Totals from -5 to +13: y = 12 + 176 * (13 - total) / 18; seven points, x = 30 + 238 * i / 6.
    # Dan from the start to hand 4, when he left: 0, -1, -2, -4, -5.
    assert drawn["Dan"] == ["30,139 70,149 109,159 149,178 189,188"]
    # Gus from before hand 3, when he arrived: 0, +8, +8 (sat out 4), +11, +13.
    assert drawn["Gus"] == ["109,139 149,61 189,61 228,32 268,12"]
    # Fay sat out hand 6 at the table: her line goes on, flat, to the end.
    assert drawn["Fay"] == ["30,139 70,149 109,139 149,159 189,168 228,110 268,110"]
    root = ET.fromstring(svg)
    labels = [t for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")]
    assert [t.text for t in labels] == [f"{p} {TOTALS[p]:+d}".replace("+0", "0") for p in drawn]
    ys = sorted(float(t.get("y") or 0) for t in labels)
    assert all(b - a >= 12 for a, b in pairwise(ys))


def test_a_marked_point_is_a_dot_with_a_title_on_its_line() -> None:
    series = [Series("Ann", [0, 2, -2], (Mark(2, "Hand 2: <penalty>"),)), Series("Bob", [0, -2, 2])]
    svg = str(line_chart(series, "Totals", "hands"))
    root = ET.fromstring(svg)
    assert root.get("aria-label") == "Totals. Hand 2: <penalty>."
    ann, bob = root.iter(f"{SVG}g")
    (dot,) = ann.iter(f"{SVG}circle")
    # x from 30 to 268 in two steps; y from 12 (+2) to 188 (-2).
    assert (dot.get("cx"), dot.get("cy"), dot.get("r")) == ("268", "188", "4.5")
    assert dot.findtext(f"{SVG}title") == "Hand 2: <penalty>"
    assert list(bob.iter(f"{SVG}circle")) == []


def test_session_chart_marks_penalty_hands_on_the_penalized_line(
    api: Api, client: FlaskClient
) -> None:
    session_id = house_rules_night(api)
    html = client.get(f"/sessions/{session_id}").text
    root = ET.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
    assert root.get("aria-label") == "Running totals, hand by hand. Hand 4: penalty, Dan -4."
    dots = {
        group.get("data-name"): [
            (dot.get("cx"), dot.get("cy"), dot.findtext(f"{SVG}title"))
            for dot in group.iter(f"{SVG}circle")
        ]
        for group in root.iter(f"{SVG}g")
    }
    # Totals from -27 to +35: y = 12 + 176 * (35 - total) / 62; eight points, x = 30 + 238 * i
    # / 7. Dan is at -2 after hand 4.
    assert dots == {
        "Ann": [], "Bob": [], "Cat": [], "Eve": [],
        "Dan": [("166", "117", "Hand 4: penalty, Dan -4")],
    }  # fmt: skip


def test_two_penalties_of_one_player_are_two_dots(app: Flask, api: Api) -> None:
    session_id = api.new_session(rules={"penalties": True})["id"]
    for hand in (
        {"kind": "penalty", "penalized": "Bob"},
        pick("Ann", "Bob", 75),
        {"kind": "penalty", "penalized": "Bob"},
    ):
        api.record(session_id, **hand)
    with app.app_context():
        sheet = loading.sheet_of(loading.session_or_404(session_id))
    bob = {series.name: series for series in running_totals(sheet)}["Bob"]
    assert bob.values == [0, -4, -3, -7]
    assert bob.marks == (Mark(1, "Hand 1: penalty, Bob -4"), Mark(3, "Hand 3: penalty, Bob -4"))
