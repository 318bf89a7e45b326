"""The debrief's charts as SVG markup, drawn on the server so they need no script.

Terms:
    grid      tables x rounds, the top table at the top: one cell per table-round with its
              number of disputes, and on the clash map the kind of rules that met there
              (tournament.rules.clash). A disputed cell is hatched as well as coloured, so the
              map prints in black and white.
    path      one player's table, round by round: a polyline from round 1 (their home
              table) to their last round, with the player's name as its ``<title>``.
    highlight players whose paths are drawn bold and named; every other path is thin and
              grey. Chosen by the caller (e.g. the biggest climbs and falls).
    flow      how many players went from each table to each table between two rounds:
              an arrow per pair, with its count written on it.

Every chart is one ``<svg>`` with a ``viewBox`` of 1600 x 900 units (16:9), so it scales
to any projector; the text is sized in those units, large enough to read from the back of
the room at 1280 x 720. Names go through ElementTree, which escapes them: a player called
``<b>Bold</b>`` is text, never markup. Words arrive marked with ``gettext_noop`` and are
translated through the ``translate`` callable.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.clash import ClashKind, differences_text

WIDTH = 1600
HEIGHT = 900
FONT = "system-ui, sans-serif"
INK = "#111"
GREY = "#9a9a9a"
DISPUTE = "#b3261e"
# Symbols beside colour so a black-and-white print still tells the kinds apart.
KIND_SYMBOLS = {
    ClashKind.DIRECTION: "⇅",
    ClashKind.TRUMP: "✦",
    ClashKind.NONE: "",
    ClashKind.WINNING: "⇄",
    ClashKind.PLAY: "▲",
}
# Bold paths cycle through these strong colours and dash patterns: the dashes tell the
# paths apart on paper.
PALETTE = ("#1f4e9c", "#b3261e", "#1b7a3a", "#7a3a9a", "#a65f00", "#006d77", "#5c5c00", "#222")
DASHES = ("", "24 10", "6 8", "24 8 6 8")

TABLE_LABEL = gettext_noop("Table %(number)s")
ROUND_LABEL = gettext_noop("Round %(number)s")
DISPUTES_TITLE = gettext_noop("Table %(table)s, round %(round)s: %(disputes)s disputed")
CLASH_TITLES = {
    ClashKind.DIRECTION: gettext_noop("ace-high and ace-low players met"),
    ClashKind.TRUMP: gettext_noop("only the trump rules differed"),
    ClashKind.NONE: gettext_noop("everyone had studied the same rules"),
    ClashKind.WINNING: gettext_noop("most-tricks and fewest-tricks players met"),
    ClashKind.PLAY: gettext_noop("only must-play-higher differed"),
}
DIFFERED_TITLE = gettext_noop("differed: %(differences)s")
FLOW_TITLE = gettext_noop("%(count)s from table %(source)s to table %(target)s")


# XML 1.0 cannot carry control characters, even escaped; a name may hold one.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _svg(label: str, css_class: str) -> ET.Element:
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "role": "img",
            "aria-label": _clean(label),
            "class": f"chart {css_class}",
            "font-family": FONT,
            "preserveAspectRatio": "xMidYMid meet",
        },
    )
    ET.SubElement(svg, "title").text = _clean(label)
    return svg


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, **attrs: str) -> None:
    element = ET.SubElement(
        parent,
        "text",
        {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": f"{size:.0f}", "fill": INK, **attrs},
    )
    element.text = _clean(text)


def _markup(svg: ET.Element) -> str:
    return ET.tostring(svg, encoding="unicode", short_empty_elements=True)


def _font(space: float, biggest: float = 64) -> float:
    """The largest text that fits a row or column of ``space`` units, at most ``biggest``."""
    return max(min(biggest, space * 0.6), 9)


# A generous average glyph width, in ems, of the sans-serif fonts that draw the labels.
GLYPH_WIDTH = 0.62


def _label_margin(labels: Sequence[str], font: float, least: float, gap: float) -> float:
    """The left margin that fits the longest of ``labels`` (table names) at ``font``, plus
    ``gap`` between the label and the chart: at least ``least``. A label wider than the
    margin would be cut at the edge of the chart."""
    widest = max((len(label) for label in labels), default=0) * font * GLYPH_WIDTH
    return max(least, widest + gap + 12)


# --- the grid -------------------------------------------------------------------------


@dataclass(frozen=True)
class GridCell:
    disputes: int
    kind: ClashKind = ClashKind.NONE
    differences: tuple[str, ...] = ()


def grid_svg(
    tables: Sequence[int],
    rounds: Sequence[int],
    cells: Mapping[tuple[int, int], GridCell],
    *,
    label: str,
    show_kinds: bool,
    pattern_id: str = "hatch",
    translate: Translate = untranslated,
) -> str:
    """Tables (rows, top table first) x rounds (columns): disputes per table-round.

    Cells with ``show_kinds`` carry the clash's symbol; a table-round nobody played is
    left blank. ``pattern_id`` names the hatching: two grids in one page (the printed
    report) need two names.
    """
    svg = _svg(label, "chart-grid")
    defs = ET.SubElement(svg, "defs")
    hatch = ET.SubElement(
        defs,
        "pattern",
        {
            "id": pattern_id,
            "patternUnits": "userSpaceOnUse",
            "width": "18",
            "height": "18",
            "patternTransform": "rotate(45)",
        },
    )
    ET.SubElement(hatch, "rect", {"width": "18", "height": "18", "fill": "#f6d5d2"})
    ET.SubElement(
        hatch,
        "line",
        {"x1": "0", "y1": "0", "x2": "0", "y2": "18", "stroke": DISPUTE, "stroke-width": "7"},
    )
    rows = sorted(tables, reverse=True)
    top, bottom = 70, 10
    row_height = (HEIGHT - top - bottom) / max(len(rows), 1)
    font = _font(row_height)
    labels = [translated(translate, TABLE_LABEL, number=table) for table in rows]
    left = _label_margin(labels, font, least=200, gap=16)
    column_width = (WIDTH - left - 20) / max(len(rounds), 1)
    for i, number in enumerate(rounds):
        _text(
            svg,
            left + (i + 0.5) * column_width,
            48,
            translated(translate, ROUND_LABEL, number=number),
            48,
            **{"text-anchor": "middle", "class": "round-label", "font-weight": "bold"},
        )
    for j, (table, table_label) in enumerate(zip(rows, labels, strict=True)):
        y = top + j * row_height
        _text(
            svg,
            left - 16,
            y + row_height / 2 + font * 0.35,
            table_label,
            font,
            **{"text-anchor": "end", "class": "table-label"},
        )
        for i, number in enumerate(rounds):
            x = left + i * column_width
            cell = cells.get((table, number))
            group = ET.SubElement(
                svg,
                "g",
                {
                    "class": "cell",
                    "data-table": str(table),
                    "data-round": str(number),
                    "data-disputes": str(cell.disputes if cell else ""),
                },
            )
            disputed = bool(cell and cell.disputes)
            ET.SubElement(
                group,
                "rect",
                {
                    "x": f"{x + 2:.1f}",
                    "y": f"{y + 2:.1f}",
                    "width": f"{column_width - 4:.1f}",
                    "height": f"{row_height - 4:.1f}",
                    "fill": f"url(#{pattern_id})" if disputed else "#fff",
                    "stroke": INK,
                    "stroke-width": "2",
                },
            )
            if cell is None:
                continue
            words = translated(
                translate, DISPUTES_TITLE, table=table, round=number, disputes=cell.disputes
            )
            if show_kinds:
                words += " · " + translate(CLASH_TITLES[cell.kind])
                # Every difference that met, when there is more than the kind says.
                if len(cell.differences) > 1:
                    words += " · " + translated(
                        translate,
                        DIFFERED_TITLE,
                        differences=differences_text(cell.differences, translate),
                    )
            ET.SubElement(group, "title").text = _clean(words)
            middle = y + row_height / 2 + font * 0.35
            if show_kinds and KIND_SYMBOLS[cell.kind]:
                _text(
                    group,
                    x + column_width * 0.3,
                    middle,
                    KIND_SYMBOLS[cell.kind],
                    font,
                    **{
                        "text-anchor": "middle",
                        "class": f"kind kind-{cell.kind}",
                        "font-weight": "bold",
                        "stroke": "#fff",
                        "stroke-width": f"{font / 5:.1f}",
                        "paint-order": "stroke",
                    },
                )
            if cell.disputes:
                _text(
                    group,
                    x + column_width * (0.65 if show_kinds else 0.5),
                    middle,
                    str(cell.disputes),
                    font,
                    **{
                        "text-anchor": "middle",
                        "font-weight": "bold",
                        "stroke": "#fff",
                        "stroke-width": f"{font / 5:.1f}",
                        "paint-order": "stroke",
                        "class": "disputes",
                    },
                )
    return _markup(svg)


# --- paths ----------------------------------------------------------------------------


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
    ranked = sorted(paths, key=lambda path: (-abs(path.climb), path.name))
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
    svg = _svg(label, "chart-paths")
    right, top, bottom = 300, 30, 80
    ordered_tables = sorted(tables)
    row = (HEIGHT - top - bottom) / max(len(ordered_tables), 1)
    y_of = {table: HEIGHT - bottom - (i + 0.5) * row for i, table in enumerate(ordered_tables)}
    font = _font(row)
    left = _label_margin(
        [translated(translate, TABLE_LABEL, number=table) for table in ordered_tables],
        font,
        least=170,
        gap=24,
    )
    span_x = (WIDTH - left - right) / max(len(rounds) - 1, 1)
    for i, number in enumerate(rounds):
        x = left + i * span_x if len(rounds) > 1 else left + (WIDTH - left - right) / 2
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
        _text(
            svg,
            x,
            HEIGHT - 24,
            translated(translate, ROUND_LABEL, number=number),
            48,
            **{"text-anchor": "middle", "class": "round-label", "font-weight": "bold"},
        )
    for table, y in y_of.items():
        _text(
            svg,
            left - 24,
            y + font * 0.35,
            translated(translate, TABLE_LABEL, number=table),
            font,
            **{"text-anchor": "end", "class": "table-label"},
        )
    # In each round, spread the players at a table over part of its row (in the order of
    # the paths), so two paths never share a dot and the names at the end never overlap.
    offset: dict[tuple[int, int], float] = {}
    for i in range(len(rounds)):
        at_table: dict[int, list[int]] = {}
        for index, path in enumerate(paths):
            if i < len(path.tables) and path.tables[i] is not None:
                at_table.setdefault(path.tables[i], []).append(index)
        for members in at_table.values():
            step = row * 0.7 / max(len(members) - 1, 1)
            for k, index in enumerate(members):
                offset[(index, i)] = (k - (len(members) - 1) / 2) * step
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
            (
                left + i * span_x if len(rounds) > 1 else left + (WIDTH - left - right) / 2,
                y_of[table] + offset[(index, i)],
            )
            for i, table in enumerate(path.tables[: len(rounds)])
            if table is not None and table in y_of
        ]
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
                "data-player": _clean(path.name),
            },
        )
        ET.SubElement(group, "title").text = _clean(path.name)
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
            _text(group, x + 16, y + 12, path.name, 34, **{"class": "path-name", "fill": colour})
    return _markup(svg)


# --- flow -----------------------------------------------------------------------------


def flow_svg(
    flows: Mapping[tuple[int, int, int], int],
    rounds: Sequence[int],
    tables: Sequence[int],
    *,
    label: str,
    translate: Translate = untranslated,
) -> str:
    """Columns of tables, one per round; an arrow with a count for each move between
    tables from a round to the next. ``flows`` maps (round, from table, to table) to the
    number of players; staying put is a flat arrow."""
    svg = _svg(label, "chart-flow")
    defs = ET.SubElement(svg, "defs")
    marker = ET.SubElement(
        defs,
        "marker",
        {
            "id": "arrow",
            "viewBox": "0 0 10 10",
            "refX": "9",
            "refY": "5",
            "markerWidth": "5",
            "markerHeight": "5",
            "orient": "auto-start-reverse",
        },
    )
    ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": INK})
    left, right, top, bottom = 130, 130, 30, 80
    span = (WIDTH - left - right) / max(len(rounds) - 1, 1)
    ordered = sorted(tables)
    row = (HEIGHT - top - bottom) / max(len(ordered), 1)
    y_of = {table: HEIGHT - bottom - (i + 0.5) * row for i, table in enumerate(ordered)}
    x_of = {number: left + i * span for i, number in enumerate(rounds)}
    font = _font(row)
    box = max(min(row * 0.8, 70), 16)
    for number, x in x_of.items():
        _text(
            svg,
            x,
            HEIGHT - 24,
            translated(translate, ROUND_LABEL, number=number),
            48,
            **{
                "text-anchor": "middle",
                "class": "round-label",
                "font-weight": "bold",
            },
        )
    for (number, source, target), count in sorted(flows.items()):
        if number + 1 not in x_of or number not in x_of or source not in y_of or target not in y_of:
            continue
        x1, x2 = x_of[number] + box / 2, x_of[number + 1] - box / 2
        y1, y2 = y_of[source], y_of[target]
        group = ET.SubElement(svg, "g", {"class": "flow", "data-count": str(count)})
        ET.SubElement(group, "title").text = translated(
            translate, FLOW_TITLE, count=count, source=source, target=target
        )
        ET.SubElement(
            group,
            "line",
            {
                "x1": f"{x1:.1f}",
                "y1": f"{y1:.1f}",
                "x2": f"{x2 - 6:.1f}",
                "y2": f"{y2:.1f}",
                "stroke": INK if source == target else ("#1f4e9c" if target > source else DISPUTE),
                "stroke-width": f"{min(2 + count * 1.5, 14):.1f}",
                "stroke-dasharray": "" if target >= source else "14 8",
                "marker-end": "url(#arrow)",
            },
        )
        # Counts of moves up, stays and moves down sit at different points along their
        # arrows, so with many tables they do not pile up in one column.
        along = 0.5 if source == target else (0.25 if target > source else 0.75)
        mx, my = x1 + (x2 - x1) * along, y1 + (y2 - y1) * along
        _text(
            group,
            mx,
            my + font * 0.35,
            str(count),
            font,
            **{
                "text-anchor": "middle",
                "font-weight": "bold",
                "stroke": "#fff",
                "stroke-width": f"{font / 5:.1f}",
                "paint-order": "stroke",
            },
        )
    for x in x_of.values():
        for table, y in y_of.items():
            ET.SubElement(
                svg,
                "rect",
                {
                    "x": f"{x - box / 2:.1f}",
                    "y": f"{y - box / 2:.1f}",
                    "width": f"{box:.1f}",
                    "height": f"{box:.1f}",
                    "rx": "8",
                    "fill": "#fff",
                    "stroke": INK,
                    "stroke-width": "3",
                },
            )
            _text(
                svg,
                x,
                y + font * 0.35,
                str(table),
                font,
                **{"text-anchor": "middle", "font-weight": "bold"},
            )
    return _markup(svg)
