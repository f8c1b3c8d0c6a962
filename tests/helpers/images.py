"""A PNG read into its pixels, with nothing but zlib: 8-bit RGB or RGBA, not interlaced, as the
app's icons are."""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Bytes a pixel, by colour type: 2 is RGB, 6 is RGBA.
CHANNELS = {2: 3, 6: 4}
Pixel = tuple[int, int, int, int]


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data.startswith(SIGNATURE), "not a PNG"
    chunks, at = [], len(SIGNATURE)
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    return chunks


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_pixels(data: bytes) -> tuple[int, int, list[list[Pixel]]]:
    """Width, height and the rows of (red, green, blue, alpha) pixels of a PNG."""
    chunks = _chunks(data)
    width, height, depth, kind, _c, _f, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, interlace) == (8, 0) and kind in CHANNELS, (depth, kind, interlace)
    step = CHANNELS[kind]
    raw = zlib.decompress(b"".join(body for name, body in chunks if name == b"IDAT"))
    stride = width * step
    rows: list[list[Pixel]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_of_filter, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            predictor = (0, left, up, (left + up) // 2, _paeth(left, up, corner))[kind_of_filter]
            line[i] = (line[i] + predictor) & 0xFF
        pixels = [tuple(line[x * step : x * step + step]) for x in range(width)]
        rows.append([(p[0], p[1], p[2], p[3] if step == 4 else 255) for p in pixels])
        previous = line
    return width, height, rows
