"""Line charts drawn as inline SVG on the server: no script, no library, no CDN.

Colours come from the stylesheet (classes s1..s8), so a chart follows light and dark mode.
A marked point (a penalty hand on the running totals) is a dot on its line with a title saying
what happened, and the chart's label says it too, for those who don't see the dots.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from .. import rules

WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 30, 92, 12, 22
LABEL_GAP = 13
# The characters of an end label that fit right of the lines, in the labels' 11 px bold type.
LABEL_CHARS = 13
MARK_RADIUS = 4.5


@dataclass(frozen=True)
class Mark:
    """A point of a line to show, at x, and what happened there in words."""

    x: int
    title: str


@dataclass(frozen=True)
class Series:
    """A line's values at x = 0, 1, 2...; None where the line has no point (a gap); `marks`
    are points of it to show."""

    name: str
    values: Sequence[float | None]
    marks: tuple[Mark, ...] = ()

    @property
    def last(self) -> tuple[int, float] | None:
        """Where the line ends: its last point's x and value."""
        return next(
            ((i, v) for i, v in reversed(list(enumerate(self.values))) if v is not None), None
        )

    def runs(self) -> Iterator[list[tuple[int, float]]]:
        """The points of each unbroken stretch of the line, in order."""
        run: list[tuple[int, float]] = []
        for i, value in enumerate(self.values):
            if value is None:
                if run:
                    yield run
                run = []
            else:
                run.append((i, value))
        if run:
            yield run


@dataclass(frozen=True)
class Scale:
    low: float
    high: float
    steps: int

    def x(self, i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / max(self.steps, 1)

    def y(self, value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (self.high - value) / (self.high - self.low)


def scale_for(series: Sequence[Series]) -> Scale:
    values = [v for s in series for v in s.values if v is not None] or [0]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        low, high = low - 1, high + 1
    steps = max((len(s.values) for s in series), default=1) - 1
    return Scale(low=low, high=high, steps=steps)


def _signed(n: float, decimals: int = 0) -> str:
    text = f"{n:.{decimals}f}" if decimals else str(n)
    return f"+{text}" if n > 0 else text


def _end_label(name: str, value: float, decimals: int = 0) -> str:
    """'Ann +16'; a long name shortened to fit ('Christo… +120'), the total always whole."""
    total = _signed(value, decimals)
    if len(name) + 1 + len(total) <= LABEL_CHARS:
        return f"{name} {total}"
    return f"{name[: max(LABEL_CHARS - len(total) - 2, 1)]}… {total}"


def _label_positions(ends: list[float]) -> list[float]:
    """End labels nudged apart so none overlaps, keeping their order."""
    order = sorted(range(len(ends)), key=lambda i: ends[i])
    placed = [0.0] * len(ends)
    last = -1e9
    for i in order:
        placed[i] = max(ends[i], last + LABEL_GAP)
        last = placed[i]
    overflow = last - (HEIGHT - 4)
    if overflow > 0:
        placed = [y - overflow for y in placed]
    return placed


def line_chart(series: Sequence[Series], title: str, x_label: str, decimals: int = 0) -> Markup:
    """One line per series (in pieces where it has gaps), each labelled at the right with its
    name and the value it ends on; the values written with `decimals` decimals."""
    scale = scale_for(series)
    marked = [mark.title for line in series for mark in line.marks]
    if marked:
        title = f"{title}. {'. '.join(marked)}."
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{scale.y(0):.1f}" '
        f'y2="{scale.y(0):.1f}"/>',
    ]
    for value in sorted({scale.low, 0, scale.high}):
        parts.append(
            f'<text class="tick" x="{LEFT - 4}" y="{scale.y(value) + 4:.1f}" '
            f'text-anchor="end">{_signed(value, decimals)}</text>'
        )
    parts.append(
        f'<text class="tick" x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    ends = [(line, last) for line in series if (last := line.last) is not None]
    labels = _label_positions([scale.y(value) for _line, (_x, value) in ends])
    for index, ((line, (_x, value)), label_y) in enumerate(zip(ends, labels, strict=True), 1):
        polylines = "".join(
            '<polyline points="'
            + " ".join(f"{scale.x(i):.0f},{scale.y(v):.0f}" for i, v in run)
            + '"/>'
            for run in line.runs()
        )
        dots = "".join(
            f'<circle class="mark" cx="{scale.x(mark.x):.0f}" '
            f'cy="{scale.y(line.values[mark.x] or 0):.0f}" r="{MARK_RADIUS}">'
            f"<title>{escape(mark.title)}</title></circle>"
            for mark in line.marks
        )
        parts.append(
            f'<g class="series s{(index - 1) % 8 + 1}" data-name="{escape(line.name)}">'
            f"{polylines}{dots}"
            f'<text x="{WIDTH - RIGHT + 6}" y="{label_y + 4:.1f}">'
            f"{escape(_end_label(line.name, value, decimals))}</text></g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def running_totals(sheet: rules.Sheet) -> list[Series]:
    """Each player the totals name with their running total after every hand, from 0 before
    the first, only while seated: a point before and after each hand they were seated for (sat
    out or not), a gap while they were away. A penalty hand is marked on the penalized
    player's line, after it."""
    seats = [frozenset(result.hand.seats) for result in sheet.results]
    after = [{}, *sheet.running_totals]
    penalties: dict[str, list[Mark]] = {}
    for number, result in enumerate(sheet.results, start=1):
        penalized = result.hand.penalized
        if result.hand.kind is rules.Kind.PENALTY and penalized is not None:
            score = result.scores[penalized]
            penalties.setdefault(penalized, []).append(
                Mark(number, f"Hand {number}: penalty, {penalized} {_signed(score)}")
            )

    def seated(player: str, i: int) -> bool:
        """Whether the player was at the table for the hand before point i or after it."""
        return (i > 0 and player in seats[i - 1]) or (i < len(seats) and player in seats[i])

    return [
        Series(
            player,
            [
                (after[i].get(player, 0) if seated(player, i) else None)
                for i in range(len(seats) + 1)
            ],
            tuple(penalties.get(player, ())),
        )
        for player in sheet.named
    ]
