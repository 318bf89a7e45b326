"""The paths chart: every player's table, round by round, one line each.

Terms:
    path      one player's table, round by round: a polyline from round 1 (their home
              table) to their last round, with the player's name as its ``<title>``.
    climb     a path's last table minus its first; negative for a fall.
    highlight players whose paths are drawn bold and named; every other path is thin and
              grey. Chosen by the caller (e.g. the biggest climbs and falls).
    spread    players who share a table in a round sit a little apart within its row, so
              two paths never share a dot and the names at their ends never overlap.
    style     a bold path's colour and dash pattern: neighbours differ in both, so a black
              and white print still tells them apart.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.common.i18n import Translate, translated, untranslated
from tournament.rules.charts.svg import (
    HEIGHT,
    TABLE_LABEL,
    WIDTH,
    add_round_label,
    add_text,
    canvas,
    clean,
    font_size,
    isolated,
    label_margin,
    markup,
)
from tournament.rules.ordering import name_key

GREY = "#9a9a9a"
# Bold paths cycle through these strong colours and dash patterns: the dashes tell the
# paths apart on paper.
PALETTE = ("#1f4e9c", "#b3261e", "#1b7a3a", "#7a3a9a", "#a65f00", "#006d77", "#5c5c00", "#222")
DASHES = ("", "24 10", "6 8", "24 8 6 8")


@dataclass(frozen=True)
class PlayerPath:
    """A player's table in each round, round 1 first; None for a round they sat out."""

    name: str
    tables: tuple[int | None, ...]

    @property
    def climb(self) -> int:
        seated = [table for table in self.tables if table is not None]
        return seated[-1] - seated[0] if seated else 0


def biggest_moves(paths: Sequence[PlayerPath], count: int) -> set[str]:
    """The names of the ``count`` players who climbed or fell furthest (ties by name)."""
    ranked = sorted(paths, key=lambda path: (-abs(path.climb), name_key(path.name)))
    return {path.name for path in ranked[: max(count, 0)] if path.climb}


def paths_svg(
    paths: Sequence[PlayerPath],
    rounds: Sequence[int],
    tables: Sequence[int],
    *,
    label: str,
    highlight: set[str] | None = None,
    translate: Translate = untranslated,
) -> str:
    """One line per player: x is the round, y the table (the top table highest).

    Players who share a table spread a little apart so every line can be seen. With a
    highlight, the others are thin and grey and only the highlighted are named.
    """
    svg = canvas(label, "chart-paths")
    right, top, bottom = 300, 30, 80
    ordered_tables = sorted(tables)
    row = (HEIGHT - top - bottom) / max(len(ordered_tables), 1)
    y_of = {table: HEIGHT - bottom - (i + 0.5) * row for i, table in enumerate(ordered_tables)}
    font = font_size(row)
    table_labels = {
        table: translated(translate, TABLE_LABEL, number=table) for table in ordered_tables
    }
    left = label_margin(list(table_labels.values()), font, least=170, gap=24)

    def x_at(i: int) -> float:
        span_x = (WIDTH - left - right) / max(len(rounds) - 1, 1)
        return left + i * span_x if len(rounds) > 1 else left + (WIDTH - left - right) / 2

    for i, number in enumerate(rounds):
        x = x_at(i)
        ET.SubElement(
            svg,
            "line",
            {
                "x1": f"{x:.1f}",
                "y1": str(top),
                "x2": f"{x:.1f}",
                "y2": str(HEIGHT - bottom),
                "stroke": "#ccc",
                "stroke-width": "2",
            },
        )
        add_round_label(svg, x, HEIGHT - 24, number, translate)
    for table, y in y_of.items():
        add_text(
            svg,
            left - 24,
            y + font * 0.35,
            table_labels[table],
            font,
            **{"text-anchor": "end", "class": "table-label"},
        )
    offset = _spread(paths, len(rounds), row)
    named = (
        set(highlight)
        if highlight
        else ({path.name for path in paths} if len(paths) <= 12 else set())
    )
    # Grey paths first, so the highlighted ones are drawn on top.
    order = sorted(
        range(len(paths)), key=lambda index: paths[index].name in named if highlight else 0
    )
    for shown, index in enumerate(order):
        path = paths[index]
        points = [
            (x_at(i), y_of[table] + offset[(index, i)])
            for i, table in enumerate(path.tables[: len(rounds)])
            if table is not None and table in y_of
        ]
        _add_path(svg, path, points, shown, named=named, highlight=bool(highlight))
    return markup(svg)


def _spread(paths: Sequence[PlayerPath], rounds: int, row: float) -> dict[tuple[int, int], float]:
    """(path index, round index) -> how far off its table's line the path's dot sits.

    In each round the players at a table spread over part of its row, in the order of the
    paths, so two paths never share a dot and the names at the end never overlap.
    """
    offset: dict[tuple[int, int], float] = {}
    for i in range(rounds):
        at_table: dict[int, list[int]] = {}
        for index, path in enumerate(paths):
            if i < len(path.tables) and path.tables[i] is not None:
                at_table.setdefault(path.tables[i], []).append(index)
        for members in at_table.values():
            step = row * 0.7 / max(len(members) - 1, 1)
            for k, index in enumerate(members):
                offset[(index, i)] = (k - (len(members) - 1) / 2) * step
    return offset


def _add_path(
    svg: ET.Element,
    path: PlayerPath,
    points: list[tuple[float, float]],
    shown: int,
    *,
    named: set[str],
    highlight: bool,
) -> None:
    """One player's line and dots, ``shown``-th drawn; named at its end if in ``named``."""
    bold = path.name in named or not highlight
    colour = PALETTE[shown % len(PALETTE)] if bold else GREY
    # Neighbours in the palette differ in dashes too, so a black-and-white print
    # still tells them apart; colour and dash repeat together only every 32 paths.
    dash = DASHES[(shown + shown // len(PALETTE)) % len(DASHES)] if bold else ""
    group = ET.SubElement(
        svg,
        "g",
        {
            "class": "path" + (" is-highlighted" if highlight and bold else ""),
            "data-player": clean(path.name),
        },
    )
    ET.SubElement(group, "title").text = isolated(path.name)
    attrs = {
        "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
        "fill": "none",
        "stroke": colour,
        "stroke-width": ("7" if highlight else "4") if bold else "2",
        "stroke-linejoin": "round",
        "stroke-linecap": "round",
    }
    if dash:
        attrs["stroke-dasharray"] = dash
    ET.SubElement(group, "polyline", attrs)
    for x, y in points:
        ET.SubElement(
            group,
            "circle",
            {"cx": f"{x:.1f}", "cy": f"{y:.1f}", "r": "7" if bold else "3", "fill": colour},
        )
    if path.name in named and points:
        x, y = points[-1]
        name = isolated(path.name)
        add_text(group, x + 16, y + 12, name, 34, **{"class": "path-name", "fill": colour})
