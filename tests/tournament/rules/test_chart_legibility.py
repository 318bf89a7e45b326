"""The debrief's disputes, clashes and flow charts read from the back of the room however
many tables the event has: every text at least 28px at 1080p, no two texts on each other.

Terms:
    box at 1080p  the chart's box on the projector at 1920x1080, in CSS pixels, as measured
                  in the browser (tests/browser/test_projector_legibility.py prints it): the
                  SVG is scaled to fit it (``preserveAspectRatio`` meet), so a text's
                  rendered size is its font-size times min(box width / viewBox width, box
                  height / viewBox height). The clash screen's box is the smallest: its
                  sentence (two lines in English; here a third line's room is taken off, for
                  longer languages) and its legend take height from the chart.
    text box      where a text's glyphs fall: its width estimated at GLYPH_WIDTH ems a
                  character (an em for a clash symbol), from an ascender's height above the
                  baseline to a descender's below it, placed by its text-anchor.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from tournament.rules.charts import GLYPH_WIDTH, KIND_SYMBOLS, GridCell, flow_svg, grid_svg
from tournament.rules.clash import ClashKind

SVG = "{http://www.w3.org/2000/svg}"
MIN_PX = 28
BOXES_AT_1080P = {
    "disputes": (1833, 757),
    "clashes": (1833, 646 - 55),
    "flow": (1833, 810),
}
SYMBOLS = set(KIND_SYMBOLS.values()) - {""}
KINDS = [ClashKind.DIRECTION, ClashKind.TRUMP, ClashKind.WINNING, ClashKind.PLAY, ClashKind.NONE]


def scale(svg: ET.Element, screen: str) -> float:
    """CSS pixels per SVG unit once the chart is fitted to its box at 1080p."""
    _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())
    box_width, box_height = BOXES_AT_1080P[screen]
    return min(box_width / width, box_height / height)


def texts(svg: ET.Element) -> list[tuple[str, float, tuple[float, float, float, float]]]:
    """(text, font-size, box) of every text the room reads (not the titles)."""
    found = []
    for text in svg.iter(f"{SVG}text"):
        size = float(text.attrib["font-size"])
        x, baseline = float(text.attrib["x"]), float(text.attrib["y"])
        words = text.text or ""
        width = size * (1.0 if words in SYMBOLS else len(words) * GLYPH_WIDTH)
        anchor = text.get("text-anchor", "start")
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        found.append((words, size, (left, baseline - size, left + width, baseline + size / 4)))
    return found


def meeting(found) -> list[tuple[str, str]]:
    """The pairs of texts whose boxes intersect."""
    pairs = []
    for i, (a, _, (a_left, a_top, a_right, a_bottom)) in enumerate(found):
        for b, _, (b_left, b_top, b_right, b_bottom) in found[i + 1 :]:
            if a_left < b_right and b_left < a_right and a_top < b_bottom and b_top < a_bottom:
                pairs.append((a, b))
    return pairs


def event(tables: int, rounds: int = 4):
    """Every table-round played; a dispute at about one in three, kinds of every sort."""
    draw = random.Random(tables)
    cells = {
        (table, number): GridCell(draw.choice([0, 0, 1, 2, 12]), draw.choice(KINDS))
        for table in range(1, tables + 1)
        for number in range(1, rounds + 1)
    }
    flows: dict[tuple[int, int, int], int] = {}
    for number in range(1, rounds):
        for table in range(1, tables + 1):
            for target in {min(table + 1, tables), max(table - 1, 1), table}:
                flows[(number, table, target)] = draw.randint(1, 2)
    return list(range(1, tables + 1)), list(range(1, rounds + 1)), cells, flows


def chart(screen: str, tables: int, rounds: int = 4) -> ET.Element:
    numbers, round_numbers, cells, flows = event(tables, rounds)
    if screen == "flow":
        return ET.fromstring(flow_svg(flows, round_numbers, numbers, label="F"))
    return ET.fromstring(
        grid_svg(numbers, round_numbers, cells, label="G", show_kinds=screen == "clashes")
    )


@pytest.mark.parametrize("rounds", [2, 4])
@pytest.mark.parametrize("tables", [6, 30, 125])
@pytest.mark.parametrize("screen", ["disputes", "clashes", "flow"])
def test_every_text_of_a_debrief_chart_is_28px_at_1080p_and_none_meets_another(
    screen, tables, rounds
):
    svg = chart(screen, tables, rounds)
    found = texts(svg)
    _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())

    smallest = min(size for _, size, _ in found) * scale(svg, screen)
    assert smallest >= MIN_PX, f"{screen}, {tables} tables: {smallest:.1f}px"
    assert meeting(found) == []
    assert all(
        box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height for _, _, box in found
    ), "every text inside the chart"


@pytest.mark.parametrize("screen", ["disputes", "clashes"])
def test_a_grid_of_thirty_tables_still_names_every_table_and_counts_every_dispute(screen):
    svg = chart(screen, 30)
    shown = [text.text for text in svg.iter(f"{SVG}text")]

    assert {str(table) for table in range(1, 31)} <= set(shown), "each table's number"
    cells = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "cell"]
    disputed = [g for g in cells if g.get("data-disputes") not in ("", "0")]
    counted = [
        g for g in disputed if any(t.get("class") == "disputes" for t in g.iter(f"{SVG}text"))
    ]
    assert len(counted) == len(disputed)


def test_a_clash_map_of_125_tables_over_two_rounds_keeps_the_kinds():
    numbers, rounds, cells, _ = event(125, 2)
    svg = ET.fromstring(grid_svg(numbers, rounds, cells, label="G", show_kinds=True))

    symbols = [t for t in svg.iter(f"{SVG}text") if t.text in SYMBOLS]

    assert len(symbols) == sum(1 for cell in cells.values() if KIND_SYMBOLS[cell.kind])


def test_a_flow_chart_of_125_tables_numbers_the_top_table_and_every_few_others():
    svg = chart("flow", 125)

    labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "table-label"]

    assert labels[0] == "125"
    assert len(labels) >= 12


@pytest.mark.parametrize("rounds", [3, 5, 8])
def test_a_clash_map_of_125_tables_over_three_rounds_or_more_keeps_every_kind(rounds):
    """Cells too narrow for a symbol's text at 28px draw it as a shape that fits them."""
    numbers, round_numbers, cells, _ = event(125, rounds)
    svg = ET.fromstring(grid_svg(numbers, round_numbers, cells, label="G", show_kinds=True))
    for group in (g for g in svg.iter(f"{SVG}g") if g.get("class") == "cell"):
        kind = cells[(int(group.get("data-table")), int(group.get("data-round")))].kind
        marks = [t.text for t in group.iter(f"{SVG}text") if t.text in SYMBOLS]
        marks += [p.get("class") for p in group.iter(f"{SVG}path")]
        expected = [f"kind kind-{kind}"] if KIND_SYMBOLS[kind] else []
        assert marks == expected or marks == [KIND_SYMBOLS[kind]] * bool(KIND_SYMBOLS[kind]), (
            group.get("data-table"),
            group.get("data-round"),
        )
        rect = group.find(f"{SVG}rect")
        for path in group.iter(f"{SVG}path"):
            # Inside its cell: translate(x y) scale(size), the shape being a unit square.
            x, y, size = map(float, re.findall(r"[\d.]+", path.get("transform")))
            left, top = float(rect.get("x")), float(rect.get("y"))
            assert left <= x
            assert x + size <= left + float(rect.get("width"))
            assert top <= y
            assert y + size <= top + float(rect.get("height"))
            assert size * scale(svg, "clashes") >= 10, "a shape still seen up close"
    # Every text still 28px or more.
    assert min(size for _, size, _ in texts(svg)) * scale(svg, "clashes") >= MIN_PX
