"""The running-totals chart: an inline SVG whose lines go through each player's totals."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.charts import Series, line_chart, running_totals, scale_for

from .any_table import TOTALS, play_the_night
from .helpers import SEATS, Api, pick

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
        expected = [(round(scale.x(i), 1), round(scale.y(v), 1)) for i, v in enumerate(line.values)]
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
        "Ann": ["30.0,144.0 77.6,100.0", "220.4,56.0 268.0,12.0"],
        "Bob": ["77.6,144.0 125.2,188.0"],
    }
    root = ET.fromstring(svg)
    assert [t.text for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")] == [
        "Ann +6",
        "Bob -2",
    ]


def test_night_chart_draws_players_only_while_seated(app: Flask, api: Api) -> None:
    night = play_the_night(api)
    with app.app_context():
        sheet = store.sheet_of(store.session_or_404(night))
    svg = str(line_chart(running_totals(sheet), "Running totals", "hands"))
    drawn = pieces(svg)
    assert list(drawn) == ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    # Totals from -5 to +13: y = 12 + 176 * (13 - total) / 18; seven points, x = 30 + 238 * i / 6.
    # Dan from the start to hand 4, when he left: 0, -1, -2, -4, -5.
    assert drawn["Dan"] == ["30.0,139.1 69.7,148.9 109.3,158.7 149.0,178.2 188.7,188.0"]
    # Gus from before hand 3, when he arrived: 0, +8, +8 (sat out 4), +11, +13.
    assert drawn["Gus"] == ["109.3,139.1 149.0,60.9 188.7,60.9 228.3,31.6 268.0,12.0"]
    # Fay sat out hand 6 at the table: her line goes on, flat, to the end.
    assert drawn["Fay"] == [
        "30.0,139.1 69.7,148.9 109.3,139.1 149.0,158.7 188.7,168.4 228.3,109.8 268.0,109.8"
    ]
    root = ET.fromstring(svg)
    labels = [t for g in root.iter(f"{SVG}g") for t in g.iter(f"{SVG}text")]
    assert [t.text for t in labels] == [f"{p} {TOTALS[p]:+d}".replace("+0", "0") for p in drawn]
    ys = sorted(float(t.get("y") or 0) for t in labels)
    assert all(b - a >= 12 for a, b in pairwise(ys))
