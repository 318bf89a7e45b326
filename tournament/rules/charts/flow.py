"""The flow chart: how many players went from each table to each table between rounds.

Terms:
    flow      how many players went from a table in one round to a table in the next: an
              arrow per pair, with its count written on it. Staying put is a flat arrow.
    box       a table in a round's column: its number in a square, drawn over the arrows'
              ends so every arrow starts and stops at an edge.
    direction an arrow up is blue and solid, a flat one ink, one down red and dashed, so a
              black-and-white print still tells a fall from a climb.
    least     every text is LEAST units high or more: 28px and more on a 1080p projector,
              which draws this chart at about 0.9 px a unit. With rows too thin for that,
              the boxes stay small and bare, and the table numbers go left of the first
              round, every second (third...) one, the top table always.
    count     the number on an arrow. Counts are placed biggest first, and one that would
              cover a count or a label already placed is left out (its arrow's title keeps
              it for screen readers), so no two texts overlap.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.charts.svg import (
    DISPUTE,
    GLYPH_WIDTH,
    HEIGHT,
    INK,
    ROUND_LABEL,
    WIDTH,
    add_round_label,
    add_text,
    canvas,
    font_size,
    markup,
)

FLOW_TITLE = gettext_noop("%(count)s from table %(source)s to table %(target)s")
UP = "#1f4e9c"
LEAST = 34
LINE = 1.3  # a label's height per unit of its font

Box = tuple[float, float, float, float]  # left, top, right, bottom


def text_box(x: float, baseline: float, text: str, size: float) -> Box:
    """The box of ``text`` centred on x, with its baseline at ``baseline``."""
    half = len(text) * size * GLYPH_WIDTH / 2 + 2
    return (x - half, baseline - size, x + half, baseline + size * 0.25)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


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
    svg = canvas(label, "chart-flow")
    _add_arrowhead(svg)
    left, right, top, bottom = 130, 130, 30, 80
    span = (WIDTH - left - right) / max(len(rounds) - 1, 1)
    ordered = sorted(tables)
    row = (HEIGHT - top - bottom) / max(len(ordered), 1)
    y_of = {table: HEIGHT - bottom - (i + 0.5) * row for i, table in enumerate(ordered)}
    x_of = {number: left + i * span for i, number in enumerate(rounds)}
    boxed = font_size(row) >= LEAST
    font = font_size(row) if boxed else LEAST
    box = max(min(row * 0.8, 70), 16) if boxed else max(row * 0.7, 3)
    placed: list[Box] = []
    counts: list[tuple[float, float, int]] = []
    for number, x in x_of.items():
        add_round_label(svg, x, HEIGHT - 24, number, translate)
        word = translated(translate, ROUND_LABEL, number=number)
        placed.append(text_box(x, HEIGHT - 24, word, 48))
    if not boxed and x_of:
        placed += _add_table_axis(svg, min(x_of.values()) - box / 2 - 14, y_of, row)
    arrows = [
        (count, number, source, target)
        for (number, source, target), count in flows.items()
        if number in x_of and number + 1 in x_of and source in y_of and target in y_of
    ]
    # The biggest counts are placed first: they are the ones the room should read.
    for count, number, source, target in sorted(arrows, key=lambda a: (-a[0], a[1:])):
        start, end = (
            (x_of[number] + box / 2, y_of[source]),
            (x_of[number + 1] - box / 2, y_of[target]),
        )
        going = target - source
        along = 0.5 if going == 0 else (0.25 if going > 0 else 0.75)
        mx = start[0] + (end[0] - start[0]) * along
        my = start[1] + (end[1] - start[1]) * along + font * 0.35
        spot = text_box(mx, my, str(count), font)
        shown = spot[1] >= 0 and not any(_meets(spot, other) for other in placed)
        if shown:
            placed.append(spot)
            counts.append((mx, my, count))
        _add_arrow(
            svg,
            start,
            end,
            count,
            translated(translate, FLOW_TITLE, count=count, source=source, target=target),
            going=going,
            # Thin rows, thin arrows: a row's arrows stay apart (and so do their heads).
            thickest=14 if boxed else max(row * 0.4, 1.5),
        )
    for x in x_of.values():
        for table, y in y_of.items():
            _add_table_box(svg, x, y, table, box, font if boxed else 0)
    for x, baseline, count in counts:
        _add_count(svg, x, baseline, count, font)
    return markup(svg)


def _add_table_axis(svg: ET.Element, right: float, y_of: dict[int, float], row: float) -> list[Box]:
    """Table numbers right-aligned at ``right``, every k-th table from the top one so that
    each has LEAST * LINE units of height; their boxes."""
    step = max(int(-(-(LEAST * LINE) // row)), 1)
    from_top = sorted(y_of, reverse=True)
    boxes = []
    for table in from_top[::step]:
        baseline = y_of[table] + LEAST * 0.35
        add_text(
            svg,
            right,
            baseline,
            str(table),
            LEAST,
            **{"text-anchor": "end", "class": "table-label", "font-weight": "bold"},
        )
        width = len(str(table)) * LEAST * GLYPH_WIDTH
        boxes.append((right - width, baseline - LEAST, right, baseline + LEAST * 0.25))
    return boxes


def _add_arrowhead(svg: ET.Element) -> None:
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


def _add_arrow(
    svg: ET.Element,
    start: tuple[float, float],
    end: tuple[float, float],
    count: int,
    title: str,
    *,
    going: int,
    thickest: float,
) -> None:
    """One arrow from ``start`` to ``end`` carrying ``count`` players; ``going`` is the
    target table minus the source table (positive: up)."""
    (x1, y1), (x2, y2) = start, end
    group = ET.SubElement(svg, "g", {"class": "flow", "data-count": str(count)})
    ET.SubElement(group, "title").text = title
    ET.SubElement(
        group,
        "line",
        {
            "x1": f"{x1:.1f}",
            "y1": f"{y1:.1f}",
            "x2": f"{x2 - 6:.1f}",
            "y2": f"{y2:.1f}",
            "stroke": INK if going == 0 else (UP if going > 0 else DISPUTE),
            "stroke-width": f"{min(2 + count * 1.5, thickest):.1f}",
            "stroke-dasharray": "" if going >= 0 else "14 8",
            "marker-end": "url(#arrow)",
        },
    )


def _add_count(svg: ET.Element, x: float, baseline: float, count: int, font: float) -> None:
    """An arrow's count on a white chip, drawn over every arrow so none crosses it."""
    left, top, right, bottom = text_box(x, baseline, str(count), font)
    group = ET.SubElement(svg, "g", {"class": "flow-count"})
    ET.SubElement(
        group,
        "rect",
        {
            "x": f"{left:.1f}",
            "y": f"{top:.1f}",
            "width": f"{right - left:.1f}",
            "height": f"{bottom - top:.1f}",
            "rx": "6",
            "fill": "#fff",
        },
    )
    add_text(
        group,
        x,
        baseline,
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


def _add_table_box(
    svg: ET.Element, x: float, y: float, table: int, box: float, font: float
) -> None:
    """Table ``table``'s square, ``box`` units wide, centred on (x, y); its number inside,
    at ``font`` (none at 0: the numbers are then on the axis left of the chart)."""
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
    if not font:
        return
    add_text(
        svg,
        x,
        y + font * 0.35,
        str(table),
        font,
        **{"text-anchor": "middle", "font-weight": "bold"},
    )
