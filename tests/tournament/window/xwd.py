"""Pictures of X windows for the window's test: xwd's dump read, and written as a PNG.

Terms:
    dump     what `xwd -id WINDOW -silent` writes: a header of big-endian 32-bit fields
             (XWDFileHeader), the window's name, a colour map, then the pixels row by row.
             Only true-colour dumps of 24 or 32 bits a pixel are read (what Xvfb gives at
             depth 24); anything else is refused.
    picture  the pixels as rows of (red, green, blue) tuples.
"""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path
from typing import Literal

HEADER_FIELDS = 25
TRUE_COLOUR = 4  # visual_class


def _shift(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def read_dump(data: bytes) -> list[list[tuple[int, int, int]]]:
    """The picture in an xwd dump (see Terms)."""
    fields = struct.unpack(f">{HEADER_FIELDS}I", data[: HEADER_FIELDS * 4])
    header_size, width, height = fields[0], fields[4], fields[5]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    visual_class, masks, colours = fields[13], fields[14:17], fields[19]
    if visual_class != TRUE_COLOUR or bits_per_pixel not in {24, 32}:
        raise ValueError(f"not a true-colour dump: class {visual_class}, {bits_per_pixel} bits")
    start = header_size + colours * 12
    order: Literal["little", "big"] = "little" if byte_order == 0 else "big"
    step = bits_per_pixel // 8
    shifts = [_shift(mask) for mask in masks]
    rows = []
    for y in range(height):
        line = data[start + y * bytes_per_line : start + (y + 1) * bytes_per_line]
        row = []
        for x in range(width):
            pixel = int.from_bytes(line[x * step : (x + 1) * step], order)
            row.append(tuple((pixel & m) >> s for m, s in zip(masks, shifts, strict=True)))
        rows.append(row)
    return rows


def take(display: str, window: str) -> list[list[tuple[int, int, int]]]:
    """A picture of one window (an id as xwininfo prints it) on ``display``."""
    dump = subprocess.run(
        ["xwd", "-display", display, "-id", window, "-silent"],
        capture_output=True,
        check=True,
        timeout=30,
    ).stdout
    return read_dump(dump)


def write_png(picture: list[list[tuple[int, int, int]]], path: Path) -> Path:
    """The picture as an 8-bit RGB PNG file."""
    height, width = len(picture), len(picture[0])
    raw = b"".join(b"\0" + bytes(value for pixel in row for value in pixel) for row in picture)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return path
