"""Line charts drawn as inline SVG on the server: no script, no library, no CDN.

Colours come from the stylesheet (classes s1..s8), so a chart follows light and dark mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, HEIGHT = 360, 210
LEFT, RIGHT, TOP, BOTTOM = 30, 92, 12, 22
LABEL_GAP = 13


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[int]


@dataclass(frozen=True)
class Scale:
    low: int
    high: int
    steps: int

    def x(self, i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / max(self.steps, 1)

    def y(self, value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (self.high - value) / (self.high - self.low)


def scale_for(series: Sequence[Series]) -> Scale:
    values = [v for s in series for v in s.values] or [0]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        low, high = low - 1, high + 1
    steps = max((len(s.values) for s in series), default=1) - 1
    return Scale(low=low, high=high, steps=steps)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


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


def line_chart(series: Sequence[Series], title: str, x_label: str) -> Markup:
    """One line per series, each labelled at its end with its name and last value."""
    scale = scale_for(series)
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
            f'text-anchor="end">{_signed(value)}</text>'
        )
    parts.append(
        f'<text class="tick" x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    drawn = [s for s in series if s.values]
    labels = _label_positions([scale.y(s.values[-1]) for s in drawn])
    for index, (line, label_y) in enumerate(zip(drawn, labels, strict=True), start=1):
        points = " ".join(f"{scale.x(i):.1f},{scale.y(v):.1f}" for i, v in enumerate(line.values))
        parts.append(
            f'<g class="series s{(index - 1) % 8 + 1}" data-name="{escape(line.name)}">'
            f'<polyline points="{points}"/>'
            f'<text x="{WIDTH - RIGHT + 6}" y="{label_y + 4:.1f}">'
            f"{escape(line.name)} {_signed(line.values[-1])}</text></g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))
