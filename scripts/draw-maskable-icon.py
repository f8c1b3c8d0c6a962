"""Draw static/icons/icon-maskable-512.png: the app's icon (a club on a card, on the felt's
green) for a phone that cuts it to its own shape. The green fills the whole square, and the card
keeps inside the safe zone, the circle of 40% of the width around the centre that every shape a
phone cuts leaves whole. Pure Python: 4 x 4 samples a pixel, written as an 8-bit RGB PNG.

    python3 scripts/draw-maskable-icon.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

SIZE = 512
SAMPLES = 4
# The icon's colours: the theme's green (style.css --accent), the card's white, the club's black.
GREEN = (0x1D, 0x6B, 0x4C)
WHITE = (0xFF, 0xFD, 0xF8)
BLACK = (0x1C, 0x1B, 0x18)
# The square icon's card and club (icon-512.png), drawn smaller about the centre.
SCALE = 0.85
CENTRE = SIZE / 2
OUT = Path(__file__).resolve().parents[1] / "static" / "icons" / "icon-maskable-512.png"


def scaled(value: float) -> float:
    return CENTRE + (value - CENTRE) * SCALE


CARD = (scaled(136), scaled(84), scaled(376), scaled(428), 28 * SCALE)
CLUBS = [(scaled(x), scaled(y), 52 * SCALE) for x, y in ((256, 196), (196, 282), (316, 282))]
STEM = (scaled(228), scaled(200), scaled(284), scaled(300))
FOOT = ((scaled(256), scaled(262)), (scaled(296), scaled(372)), (scaled(216), scaled(372)))


def in_card(x: float, y: float) -> bool:
    left, top, right, bottom, radius = CARD
    if not (left <= x <= right and top <= y <= bottom):
        return False
    dx = max(left + radius - x, 0.0, x - (right - radius))
    dy = max(top + radius - y, 0.0, y - (bottom - radius))
    return dx * dx + dy * dy <= radius * radius


def in_foot(x: float, y: float) -> bool:
    (ax, ay), (bx, by), (cx, cy) = FOOT
    sides = [
        (bx - ax) * (y - ay) - (by - ay) * (x - ax),
        (cx - bx) * (y - by) - (cy - by) * (x - bx),
        (ax - cx) * (y - cy) - (ay - cy) * (x - cx),
    ]
    return all(side >= 0 for side in sides) or all(side <= 0 for side in sides)


def in_club(x: float, y: float) -> bool:
    left, top, right, bottom = STEM
    return (
        any(math.hypot(x - cx, y - cy) <= r for cx, cy, r in CLUBS)
        or (left <= x <= right and top <= y <= bottom)
        or in_foot(x, y)
    )


def pixel(px: int, py: int) -> bytes:
    counts = {GREEN: 0, WHITE: 0, BLACK: 0}
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            x = px + (sx + 0.5) / SAMPLES
            y = py + (sy + 0.5) / SAMPLES
            colour = (BLACK if in_club(x, y) else WHITE) if in_card(x, y) else GREEN
            counts[colour] += 1
    total = SAMPLES * SAMPLES
    return bytes(
        round(sum(colour[i] * n for colour, n in counts.items()) / total) for i in range(3)
    )


def png(rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    rows = [b"".join(pixel(px, py) for px in range(SIZE)) for py in range(SIZE)]
    OUT.write_bytes(png(rows))
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
