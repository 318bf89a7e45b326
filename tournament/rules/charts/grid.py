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
    block     a run of tables (rows) with its own round columns. Every text is at least
              LEAST units high (28px on a 1080p projector, where the clash screen draws the
              chart at about 0.65 px a unit), so when the rows would be too thin the tables
              wrap into blocks side by side, on a canvas WIDE units wide (WIDE_KINDS for the
              clash map), each labelled with bare table numbers and round numbers. A cell
              too narrow for its symbol and its count keeps the symbol (the disputes chart
              gives the counts); too narrow for the symbol as text at its font (125 tables
              over four rounds or more), it draws the symbol as a shape that fills the cell
              instead (KIND_SHAPES): a shape, unlike a text, stays readable smaller, and
              every cell keeps its kind.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.charts.svg import (
    GLYPH_WIDTH,
    HEIGHT,
    INK,
    ROUND_LABEL,
    TABLE_LABEL,
    WIDTH,
    add_hatching,
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

# The same symbols as shapes, in a unit square (y downwards), for cells too narrow for the
# text at its font: two arrows up and down, a four-pointed star, two arrows left and right,
# a triangle pointing up. Each mirrors its symbol's glyph, so the legend still names it.
KIND_SHAPES = {
    ClashKind.DIRECTION: (
        "M.18 .95V.4H.05L.25 .05L.45 .4H.32V.95Z M.68 .05V.6H.55L.75 .95L.95 .6H.82V.05Z"
    ),
    ClashKind.TRUMP: "M.5 0L.62 .38L1 .5L.62 .62L.5 1L.38 .62L0 .5L.38 .38Z",
    ClashKind.WINNING: (
        "M.05 .18H.6V.05L.95 .25L.6 .45V.32H.05Z M.95 .68H.4V.55L.05 .75L.4 .95V.82H.95Z"
    ),
    ClashKind.PLAY: "M.5 .08L.95 .9H.05Z",
}

# "disputed games: 3" rather than "3 disputed": no word agrees with the count.
DISPUTES_TITLE = gettext_noop("Table %(table)s, round %(round)s · disputed games: %(disputes)s")
CLASH_TITLES = {
    ClashKind.DIRECTION: gettext_noop("ace-high and ace-low players met"),
    ClashKind.TRUMP: gettext_noop("only the trump rules differed"),
    ClashKind.NONE: gettext_noop("everyone had studied the same rules"),
    ClashKind.WINNING: gettext_noop("most-tricks and fewest-tricks players met"),
    ClashKind.PLAY: gettext_noop("only “must beat the best card” differed"),
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


# The least text, in units: 28px at 1080p on the clash screen (about 0.65 px a unit, its
# sentence and legend take room from the chart); the disputes screen draws it larger.
LEAST = 44
LINE = 1.3  # a row's height per unit of its font
GAP = 16  # between two blocks
# Blocks side by side draw on a wider canvas: the projector's chart box is wider than 16:9
# (about 1830 x 650 to 760 px at 1080p), so the extra width costs no height.
WIDE = 2100
# The clash map's blocks take the width of its box on the clash screen (about 1830 x 590 px
# at 1080p: the height sets the scale, 0.66 px a unit, up to this width), so its cells are
# as wide as that screen allows: its symbols need the room more than the disputes' counts.
WIDE_KINDS = 2780
TOP, BOTTOM = 70, 10


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
    rows = sorted(tables, reverse=True)
    blocks, per_block = _blocks(len(rows))
    width = WIDTH if blocks == 1 else (WIDE_KINDS if show_kinds else WIDE)
    svg = canvas(label, "chart-grid", width)
    add_hatching(svg, pattern_id)
    row_height = (HEIGHT - TOP - BOTTOM) / max(per_block, 1)
    font = max(font_size(row_height), LEAST)
    if blocks == 1:
        labels = [translated(translate, TABLE_LABEL, number=table) for table in rows]
        left = label_margin(labels, font, least=200, gap=16)
    else:
        labels = [str(table) for table in rows]
        left = max(len(text) for text in labels) * font * GLYPH_WIDTH + 14
    block_width = (width - 20 - (blocks - 1) * GAP) / blocks
    column_width = (block_width - left) / max(len(rounds), 1)
    for b in range(blocks):
        origin = b * (block_width + GAP)
        _add_round_labels(svg, origin + left, column_width, rounds, translate)
        chunk = list(zip(rows, labels, strict=True))[b * per_block : (b + 1) * per_block]
        for j, (table, table_label) in enumerate(chunk):
            y = TOP + j * row_height
            add_text(
                svg,
                origin + left - 16 + (8 if blocks > 1 else 0),
                y + row_height / 2 + font * 0.35,
                table_label,
                font,
                **{"text-anchor": "end", "class": "table-label"},
            )
            for i, number in enumerate(rounds):
                box = _Box(origin + left + i * column_width, y, column_width, row_height, font)
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


def _blocks(tables: int) -> tuple[int, int]:
    """How many blocks the tables wrap into, and how many tables a block holds: one block
    while every row is LEAST * LINE high or more."""
    most = max(int((HEIGHT - TOP - BOTTOM) // (LEAST * LINE)), 1)
    blocks = max(-(-tables // most), 1)
    return blocks, -(-tables // blocks)


def _add_round_labels(
    svg: ET.Element, left: float, width: float, rounds: Sequence[int], translate: Translate
) -> None:
    """ "Round 3" over each column while it fits the column, else "3" alone; with columns
    too narrow for that too, every second (third...) round, the first always."""
    words = [translated(translate, ROUND_LABEL, number=number) for number in rounds]
    if max((len(w) for w in words), default=0) * 48 * GLYPH_WIDTH <= width - 8:
        for i, number in enumerate(rounds):
            add_round_label(svg, left + (i + 0.5) * width, 48, number, translate)
        return
    widest = max(len(str(number)) for number in rounds) * 48 * GLYPH_WIDTH + 8
    step = max(int(-(-widest // width)), 1)
    for i, number in enumerate(rounds):
        if i % step == 0:
            add_text(
                svg,
                left + (i + 0.5) * width,
                48,
                str(number),
                48,
                **{"text-anchor": "middle", "class": "round-label", "font-weight": "bold"},
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
    _add_cell_text(group, box, cell, KIND_SYMBOLS[cell.kind] if show_kinds else "")


def _add_cell_text(group: ET.Element, box: _Box, cell: GridCell, symbol: str) -> None:
    """The cell's kind ``symbol`` (none on the disputes chart) and its count of disputes,
    each only if the cell has room for it at its font (see the module's docstring)."""
    font = box.font
    middle = box.y + box.height / 2 + font * 0.35
    count = len(str(cell.disputes)) * font * GLYPH_WIDTH if cell.disputes else 0
    room = box.width - 12
    # Too narrow for both: the symbol stays (the disputes chart gives the counts).
    if symbol and (font + 8 + count > room):
        count = 0
    if symbol and font > room:
        _add_cell_shape(group, box, cell.kind)
        return
    if count > room:
        count = 0
    # Side by side, centred in the cell: the symbol (an em wide), a gap, the count.
    together = (font if symbol else 0) + (8 if symbol and count else 0) + count
    start = box.x + (box.width - together) / 2
    if symbol:
        add_text(
            group,
            start + font / 2,
            middle,
            symbol,
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
    if count:
        add_text(
            group,
            start + together - count / 2,
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


def _add_cell_shape(group: ET.Element, box: _Box, kind: ClashKind) -> None:
    """The kind's shape (KIND_SHAPES), as large as the cell allows, centred in it."""
    size = max(min(box.width - 8, box.height - 8, box.font), 1)
    ET.SubElement(
        group,
        "path",
        {
            "d": KIND_SHAPES[kind],
            "transform": (
                f"translate({box.x + (box.width - size) / 2:.1f} "
                f"{box.y + (box.height - size) / 2:.1f}) scale({size:.1f})"
            ),
            "class": f"kind kind-{kind}",
            "fill": INK,
            "stroke": "#fff",
            "stroke-width": f"{3 / size:.3f}",
            "stroke-linejoin": "round",
            "paint-order": "stroke",
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
