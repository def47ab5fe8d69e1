"""Draw the app icons (two fanned cards) as PNG without any imaging library.

    python tools/make_icons.py   # writes static/icons/icon-192.png and icon-512.png
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

BG, CARD_A, CARD_B, INK = (22, 24, 29), (92, 200, 255), (255, 201, 77), (26, 20, 0)


def inside_card(x: float, y: float, cx: float, cy: float, w: float, h: float,
                angle: float, radius: float) -> bool:
    """Is (x, y) inside a rounded rectangle centred at (cx, cy), rotated by `angle`?"""
    c, s = math.cos(-angle), math.sin(-angle)
    dx, dy = x - cx, y - cy
    u, v = dx * c - dy * s, dx * s + dy * c
    qx, qy = abs(u) - (w / 2 - radius), abs(v) - (h / 2 - radius)
    outside = math.hypot(max(qx, 0), max(qy, 0))
    return outside + min(max(qx, qy), 0) <= radius


def pixel(x: float, y: float, n: int) -> tuple[int, int, int]:
    k = n / 64
    if inside_card(x, y, 38 * k, 34 * k, 28 * k, 40 * k, math.radians(10), 4 * k):
        # a "T" on the front card
        u, v = x - 38 * k, y - 34 * k
        bar = abs(v + 9 * k) < 2.2 * k and abs(u) < 8 * k
        stem = abs(u) < 2.2 * k and -9 * k < v < 11 * k
        if bar or stem:
            return INK
        return CARD_B
    if inside_card(x, y, 27 * k, 31 * k, 28 * k, 40 * k, math.radians(-12), 4 * k):
        return CARD_A
    return BG


def png(n: int) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for x in range(n) for c in pixel(x + .5, y + .5, n))
                    for y in range(n))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    folder = Path(__file__).resolve().parent.parent / "static" / "icons"
    for size in (192, 512):
        (folder / f"icon-{size}.png").write_bytes(png(size))
