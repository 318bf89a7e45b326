"""The grid chart: disputes per table and round, and on the clash map which rules met.

Terms:
    grid      tables x rounds, the top table at the top: one cell per table-round with its
              number of disputes, and on the clash map the kind of rules that met there
              (tournament.rules.clash). A table-round nobody played is left blank.
    cell      one table-round: a box, hatched and coloured when a game there was disputed
              (so the map prints in black and white), its number of disputed games, and on
              the clash map the kind's symbol; its ``<title>`` says all of it in words.
    hatching  the ``<pattern>`` that fills a disputed cell; its id must be unique in a page,
              so two grids in one page (the printed report) give two ids.
    kind      the clash's kind (tournament.rules.clash.ClashKind), shown as a symbol beside
              the colour so a black-and-white print still tells the kinds apart.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.charts.svg import (
    DISPUTE,
    HEIGHT,
    INK,
    TABLE_LABEL,
    WIDTH,
    add_round_label,
    add_text,
    canvas,
    clean,
    font_size,
    label_margin,
    markup,
)
from tournament.rules.clash import ClashKind, differences_text

# Symbols beside colour so a black-and-white print still tells the kinds apart.
KIND_SYMBOLS = {
    ClashKind.DIRECTION: "⇅",
    ClashKind.TRUMP: "✦",
    ClashKind.NONE: "",
    ClashKind.WINNING: "⇄",
    ClashKind.PLAY: "▲",
}

DISPUTES_TITLE = gettext_noop("Table %(table)s, round %(round)s: %(disputes)s disputed")
CLASH_TITLES = {
    ClashKind.DIRECTION: gettext_noop("ace-high and ace-low players met"),
    ClashKind.TRUMP: gettext_noop("only the trump rules differed"),
    ClashKind.NONE: gettext_noop("everyone had studied the same rules"),
    ClashKind.WINNING: gettext_noop("most-tricks and fewest-tricks players met"),
    ClashKind.PLAY: gettext_noop("only must-play-higher differed"),
}
DIFFERED_TITLE = gettext_noop("differed: %(differences)s")


@dataclass(frozen=True)
class GridCell:
    disputes: int
    kind: ClashKind = ClashKind.NONE
    differences: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Box:
    """Where a cell sits in the chart, and how its text is drawn."""

    x: float
    y: float
    width: float
    height: float
    font: float


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
    svg = canvas(label, "chart-grid")
    _add_hatching(svg, pattern_id)
    rows = sorted(tables, reverse=True)
    top, bottom = 70, 10
    row_height = (HEIGHT - top - bottom) / max(len(rows), 1)
    font = font_size(row_height)
    labels = [translated(translate, TABLE_LABEL, number=table) for table in rows]
    left = label_margin(labels, font, least=200, gap=16)
    column_width = (WIDTH - left - 20) / max(len(rounds), 1)
    for i, number in enumerate(rounds):
        add_round_label(svg, left + (i + 0.5) * column_width, 48, number, translate)
    for j, (table, table_label) in enumerate(zip(rows, labels, strict=True)):
        y = top + j * row_height
        add_text(
            svg,
            left - 16,
            y + row_height / 2 + font * 0.35,
            table_label,
            font,
            **{"text-anchor": "end", "class": "table-label"},
        )
        for i, number in enumerate(rounds):
            box = _Box(left + i * column_width, y, column_width, row_height, font)
            _add_cell(
                svg,
                box,
                table,
                number,
                cells.get((table, number)),
                show_kinds=show_kinds,
                pattern_id=pattern_id,
                translate=translate,
            )
    return markup(svg)


def _add_hatching(svg: ET.Element, pattern_id: str) -> None:
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


def _add_cell(
    svg: ET.Element,
    box: _Box,
    table: int,
    number: int,
    cell: GridCell | None,
    *,
    show_kinds: bool,
    pattern_id: str,
    translate: Translate,
) -> None:
    """One table-round's box; None (nobody played there) leaves it blank and untitled."""
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
            "x": f"{box.x + 2:.1f}",
            "y": f"{box.y + 2:.1f}",
            "width": f"{box.width - 4:.1f}",
            "height": f"{box.height - 4:.1f}",
            "fill": f"url(#{pattern_id})" if disputed else "#fff",
            "stroke": INK,
            "stroke-width": "2",
        },
    )
    if cell is None:
        return
    ET.SubElement(group, "title").text = clean(
        _cell_title(table, number, cell, show_kinds=show_kinds, translate=translate)
    )
    font = box.font
    middle = box.y + box.height / 2 + font * 0.35
    if show_kinds and KIND_SYMBOLS[cell.kind]:
        add_text(
            group,
            box.x + box.width * 0.3,
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
        add_text(
            group,
            box.x + box.width * (0.65 if show_kinds else 0.5),
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


def _cell_title(
    table: int, number: int, cell: GridCell, *, show_kinds: bool, translate: Translate
) -> str:
    """The cell in words: its disputes, and on the clash map which rules met there."""
    words = translated(translate, DISPUTES_TITLE, table=table, round=number, disputes=cell.disputes)
    if show_kinds:
        words += " · " + translate(CLASH_TITLES[cell.kind])
        # Every difference that met, when there is more than the kind says.
        if len(cell.differences) > 1:
            words += " · " + translated(
                translate,
                DIFFERED_TITLE,
                differences=differences_text(cell.differences, translate),
            )
    return words
