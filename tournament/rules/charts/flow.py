"""The flow chart: how many players went from each table to each table between rounds.

Terms:
    flow      how many players went from a table in one round to a table in the next: an
              arrow per pair, with its count written on it. Staying put is a flat arrow.
    box       a table in a round's column: its number in a square, drawn over the arrows'
              ends so every arrow starts and stops at an edge.
    direction an arrow up is blue and solid, a flat one ink, one down red and dashed, so a
              black-and-white print still tells a fall from a climb.

Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from tournament.common.i18n import Translate, gettext_noop, translated, untranslated
from tournament.rules.charts.svg import (
    DISPUTE,
    HEIGHT,
    INK,
    WIDTH,
    add_round_label,
    add_text,
    canvas,
    font_size,
    markup,
)

FLOW_TITLE = gettext_noop("%(count)s from table %(source)s to table %(target)s")
UP = "#1f4e9c"


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
    font = font_size(row)
    box = max(min(row * 0.8, 70), 16)
    for number, x in x_of.items():
        add_round_label(svg, x, HEIGHT - 24, number, translate)
    for (number, source, target), count in sorted(flows.items()):
        if number + 1 not in x_of or number not in x_of or source not in y_of or target not in y_of:
            continue
        _add_arrow(
            svg,
            (x_of[number] + box / 2, y_of[source]),
            (x_of[number + 1] - box / 2, y_of[target]),
            count,
            translated(translate, FLOW_TITLE, count=count, source=source, target=target),
            going=target - source,
            font=font,
        )
    for x in x_of.values():
        for table, y in y_of.items():
            _add_table_box(svg, x, y, table, box, font)
    return markup(svg)


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
    font: float,
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
            "stroke-width": f"{min(2 + count * 1.5, 14):.1f}",
            "stroke-dasharray": "" if going >= 0 else "14 8",
            "marker-end": "url(#arrow)",
        },
    )
    # Counts of moves up, stays and moves down sit at different points along their
    # arrows, so with many tables they do not pile up in one column.
    along = 0.5 if going == 0 else (0.25 if going > 0 else 0.75)
    mx, my = x1 + (x2 - x1) * along, y1 + (y2 - y1) * along
    add_text(
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


def _add_table_box(
    svg: ET.Element, x: float, y: float, table: int, box: float, font: float
) -> None:
    """Table ``table``'s square, ``box`` units wide, centred on (x, y)."""
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
    add_text(
        svg,
        x,
        y + font * 0.35,
        str(table),
        font,
        **{"text-anchor": "middle", "font-weight": "bold"},
    )
