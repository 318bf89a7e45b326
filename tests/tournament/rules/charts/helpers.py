"""What the answer charts' tests measure: every text the room reads, and its box.

Terms:
    box at 1080p  the smallest box the projector gives a debrief chart at 1920x1080, in CSS
                  pixels (the clash screen's, tests/tournament/rules/test_chart_legibility.py):
                  the SVG is scaled to fit it, so a text's size on the screen is its
                  font-size times min(box width / viewBox width, box height / viewBox
                  height).
    text box      where a text's glyphs fall: GLYPH_WIDTH ems a letter or name_width's
                  measure, the wider (the invisible isolates take no room), from an em above
                  the baseline to a quarter below it, placed by its text-anchor.
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET

from tournament.rules.charts import GLYPH_WIDTH
from tournament.rules.name_width import name_width

SVG = "{http://www.w3.org/2000/svg}"
MIN_PX = 28
SMALLEST_BOX = (1833, 591)

Box = tuple[float, float, float, float]


def scale(svg: ET.Element) -> float:
    """CSS pixels per SVG unit once the chart is fitted to the smallest box at 1080p."""
    _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())
    return min(SMALLEST_BOX[0] / width, SMALLEST_BOX[1] / height)


def width_in_ems(text: str) -> float:
    letters = sum(1 for char in text if unicodedata.category(char) not in ("Cf", "Mn", "Me"))
    return max(name_width(text), letters * GLYPH_WIDTH)


def texts(svg: ET.Element) -> list[tuple[str, float, Box]]:
    """(text, font-size, box) of every text the room reads (not the titles)."""
    found = []
    for text in svg.iter(f"{SVG}text"):
        size = float(text.attrib["font-size"])
        x, baseline = float(text.attrib["x"]), float(text.attrib["y"])
        words = text.text or ""
        width = size * width_in_ems(words)
        anchor = text.get("text-anchor", "start")
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        found.append((words, size, (left, baseline - size, left + width, baseline + size / 4)))
    return found


def meeting(found: list[tuple[str, float, Box]]) -> list[tuple[str, str]]:
    """The pairs of texts whose boxes intersect."""
    pairs = []
    for i, (a, _, (a_left, a_top, a_right, a_bottom)) in enumerate(found):
        for b, _, (b_left, b_top, b_right, b_bottom) in found[i + 1 :]:
            if a_left < b_right and b_left < a_right and a_top < b_bottom and b_top < a_bottom:
                pairs.append((a, b))
    return pairs


def outside(svg: ET.Element, found: list[tuple[str, float, Box]]) -> list[str]:
    """The texts whose boxes leave the chart's viewBox."""
    _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())
    return [
        text
        for text, _, (left, top, right, bottom) in found
        if left < 0 or top < 0 or right > width or bottom > height
    ]


def smallest_px(svg: ET.Element) -> float:
    return min(size for _, size, _ in texts(svg)) * scale(svg)
