"""Names beside a chart's lines, placed so that no two of them overlap.

Terms:
    anchor    where a name belongs: the end of its player's path (x, y), in the chart's units.
    label     a name as drawn: its box (left, top, width, height) and its baseline; every
              label of a chart sits in one column, left-aligned at the same x, so two boxes
              can only meet if their heights overlap.
    slot      a label's height: its font size times LINE, room for accents and descenders.
    width     estimated from tournament.rules.name_width (an em per letter, per the letter's
              shape), times the font size.

Labels keep the order of their anchors from top to bottom and sit as near them as the
others let them; when more names are wanted than fit at the smallest readable size, the
first ones asked for (the caller's order: the biggest moves first) are placed, the rest
left out. Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournament.rules.name_width import name_width

LINE = 1.3
# A name's baseline sits this far down its slot (of the font size): the rest is descenders.
BASELINE = 1.02


@dataclass(frozen=True)
class Label:
    """One name's box in the chart's units, and the anchor it belongs to."""

    name: str
    left: float
    top: float
    width: float
    height: float
    size: float
    anchor: tuple[float, float]

    @property
    def baseline(self) -> float:
        return self.top + self.size * BASELINE

    def intersects(self, other: Label) -> bool:
        return (
            self.left < other.left + other.width
            and other.left < self.left + self.width
            and self.top < other.top + other.height
            and other.top < self.top + self.height
        )


def fitting(count: int, size: float, top: float, bottom: float) -> int:
    """How many labels of ``size`` fit, one above the other, between top and bottom."""
    return max(int((bottom - top) // (size * LINE)), 0) if count else 0


def place_labels(
    wanted: Sequence[tuple[str, float, float]],
    *,
    left: float,
    size: float,
    top: float,
    bottom: float,
) -> list[Label]:
    """Labels for ``wanted`` (name, anchor x, anchor y), in a column starting at ``left``,
    between ``top`` and ``bottom``: each as near its anchor's height as the others allow,
    none overlapping. Only the first that fit are placed (see the module's docstring)."""
    kept = list(wanted[: fitting(len(wanted), size, top, bottom)])
    kept.sort(key=lambda item: (item[2], item[0]))
    slot = size * LINE
    tops: list[float] = []
    # Down the column: each as near its anchor as the one above lets it...
    for _name, _x, y in kept:
        wish = min(max(y - slot / 2, top), bottom - slot)
        tops.append(max(wish, tops[-1] + slot) if tops else wish)
    # ...then up from the bottom, for those pushed past it.
    for i in range(len(tops) - 1, -1, -1):
        limit = bottom - slot if i == len(tops) - 1 else tops[i + 1] - slot
        tops[i] = min(tops[i], limit)
    return [
        Label(name, left, at, name_width(name) * size, slot, size, (x, y))
        for (name, x, y), at in zip(kept, tops, strict=True)
    ]
