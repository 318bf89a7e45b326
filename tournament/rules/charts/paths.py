"""The paths chart: every player's table, round by round, one line each.

Terms:
    path      one player's table, round by round: a polyline from round 1 (their home
              table) to their last round, with the player's name as its ``<title>``.
    climb     a path's last table minus its first; negative for a fall.
    highlight players whose paths are drawn bold and named; every other path is thin and
              grey. Chosen by the caller (e.g. the biggest climbs and falls).
    spread    players who share a table in a round sit a little apart within its row, so
              two paths never share a dot.
    names     the named paths' players, in a column right of the last round, each joined
              to its path's end by a thin line and placed by charts.labels so no two
              overlap, in ink, at NAME_SIZE units: 30px or more on a 1080p projector.
    style     a bold path's colour and dash pattern: neighbours differ in both, so a black
              and white print still tells them apart.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.common.i18n import Translate, translated, untranslated
from tournament.rules.charts.labels import Label, place_labels
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
from tournament.rules.name_width import name_width
from tournament.rules.ordering import name_key

GREY = "#9a9a9a"
# Bold paths cycle through these strong colours and dash patterns: the dashes tell the
# paths apart on paper.
PALETTE = ("#1f4e9c", "#b3261e", "#1b7a3a", "#7a3a9a", "#a65f00", "#006d77", "#5c5c00", "#222")
DASHES = ("", "24 10", "6 8", "24 8 6 8")
NAME_SIZE = 34
# The least size of a table's label, in units: 28px on a 1080p projector, whose chart is
# drawn at about 0.9 px a unit.
LEAST_LABEL = 32
NAME_GAP = 40  # between the last round's dots and the names' column
# The names' column takes at most this share of the chart's width; a longer name runs on.
NAMES_MAX_SHARE = 0.4


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
    named = (
        set(highlight) if highlight else ({p.name for p in paths} if len(paths) <= 12 else set())
    )
    top, bottom = 30, 80
    right = _names_room([path.name for path in paths if path.name in named])
    ordered_tables = sorted(tables)
    row = (HEIGHT - top - bottom) / max(len(ordered_tables), 1)
    y_of = {table: HEIGHT - bottom - (i + 0.5) * row for i, table in enumerate(ordered_tables)}
    table_labels, font = _table_labels(ordered_tables, row, translate)
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
    for table, text in table_labels.items():
        y = y_of[table]
        add_text(
            svg,
            left - 24,
            y + font * 0.35,
            text,
            font,
            **{"text-anchor": "end", "class": "table-label"},
        )
    offset = _spread(paths, len(rounds), row)
    # Grey paths first, so the highlighted ones are drawn on top.
    order = sorted(
        range(len(paths)), key=lambda index: paths[index].name in named if highlight else 0
    )
    ends: dict[str, tuple[float, float]] = {}
    colours: dict[str, str] = {}
    for shown, index in enumerate(order):
        path = paths[index]
        points = [
            (x_at(i), y_of[table] + offset[(index, i)])
            for i, table in enumerate(path.tables[: len(rounds)])
            if table is not None and table in y_of
        ]
        colours[path.name] = _add_path(
            svg, path, points, shown, named=named, highlight=bool(highlight)
        )
        if path.name in named and points:
            ends[path.name] = points[-1]
    column = x_at(len(rounds) - 1) + NAME_GAP
    for name_label in name_labels(paths, ends, left=column, top=top, bottom=HEIGHT - bottom):
        _add_name(svg, name_label, colours[name_label.name])
    return markup(svg)


def _table_labels(
    ordered_tables: list[int], row: float, translate: Translate
) -> tuple[dict[int, str], float]:
    """The tables' labels and their size. Rows too low for a readable label: every second
    (third...) table is labelled, the top table always, as large as its rows allow."""
    every = next(
        (k for k in range(1, len(ordered_tables) + 1) if font_size(row * k) >= LEAST_LABEL),
        max(len(ordered_tables), 1),
    )
    labels = {
        table: translated(translate, TABLE_LABEL, number=table)
        for i, table in enumerate(ordered_tables)
        if (len(ordered_tables) - 1 - i) % every == 0
    }
    return labels, font_size(row * every)


def name_labels(
    paths: Sequence[PlayerPath],
    ends: dict[str, tuple[float, float]],
    *,
    left: float,
    top: float,
    bottom: float,
) -> list[Label]:
    """The named players' labels (``ends``: where each one's path ends), the biggest
    moves first if not all of them fit."""
    ranked = sorted(ends, key=lambda name: (-abs(_climb_of(paths, name)), name))
    wanted = [(name, *ends[name]) for name in ranked]
    return place_labels(wanted, left=left, size=NAME_SIZE, top=top, bottom=bottom)


def _climb_of(paths: Sequence[PlayerPath], name: str) -> int:
    return next((path.climb for path in paths if path.name == name), 0)


def _names_room(names: list[str]) -> float:
    """The chart's right margin: the widest name's room, between 120 units and the cap."""
    widest = max((name_width(name) * NAME_SIZE for name in names), default=0)
    return min(max(widest + NAME_GAP + 20, 120), WIDTH * NAMES_MAX_SHARE)


def _add_name(svg: ET.Element, name_label: Label, colour: str) -> None:
    """A name in ink (7:1 or more on the white paper, which the paths' colours are not),
    joined to its path's end by a line in the path's colour."""
    group = ET.SubElement(svg, "g", {"class": "path-label", "data-player": clean(name_label.name)})
    x, y = name_label.anchor
    middle = name_label.top + name_label.height / 2
    ET.SubElement(
        group,
        "line",
        {
            "x1": f"{x + 8:.1f}",
            "y1": f"{y:.1f}",
            "x2": f"{name_label.left - 6:.1f}",
            "y2": f"{middle:.1f}",
            "stroke": colour,
            "stroke-width": "4",
        },
    )
    add_text(
        group,
        name_label.left,
        name_label.baseline,
        isolated(name_label.name),
        name_label.size,
        **{"class": "path-name"},
    )


def _spread(paths: Sequence[PlayerPath], rounds: int, row: float) -> dict[tuple[int, int], float]:
    """(path index, round index) -> how far off its table's line the path's dot sits.

    In each round the players at a table spread over part of its row, in the order of the
    paths, so two paths never share a dot.
    """
    offset: dict[tuple[int, int], float] = {}
    for i in range(rounds):
        at_table: dict[int, list[int]] = {}
        for index, path in enumerate(paths):
            table = path.tables[i] if i < len(path.tables) else None
            if table is not None:
                at_table.setdefault(table, []).append(index)
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
) -> str:
    """One player's line and dots, ``shown``-th drawn; returns its colour."""
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
    return colour
