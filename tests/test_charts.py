"""The running-totals chart: an inline SVG whose lines go through each player's totals."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

from flask.testing import FlaskClient

from scorekeeper.charts import Series, line_chart, scale_for

from .helpers import SEATS, Api, pick

SVG = "{http://www.w3.org/2000/svg}"


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
