"""What every debrief chart draws with: the canvas, its text and its shared labels.

Terms:
    canvas    one ``<svg>`` with a ``viewBox`` of WIDTH x HEIGHT units (1600 x 900, 16:9), so
              a chart scales to any projector; every size below is in those units.
    label     the chart's accessible name: its ``aria-label`` and its ``<title>``.
    clean     text made safe for XML 1.0, which cannot carry control characters even
              escaped: each becomes U+FFFD. ElementTree escapes the rest (``<``, ``&``), so a
              player called ``<b>Bold</b>`` is text, never markup.
    isolated  a player's name between U+2068 FIRST STRONG ISOLATE and U+2069 POP
              DIRECTIONAL ISOLATE: laid out apart from what is drawn beside it, so a
              right-to-left name never reorders its neighbours (a page's ``<bdi>``).
    margin    the room left of a chart for its table labels ("Table 12"), wide enough for
              the longest at the chart's font size.
    font      a row's or column's text size: as large as its space allows, at most a cap,
              large enough to read from the back of the room at 1280 x 720.

Words arrive marked with ``gettext_noop`` and are translated through the ``translate``
callable. Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from tournament.common.i18n import Translate, gettext_noop, translated

WIDTH = 1600
HEIGHT = 900
FONT = "system-ui, sans-serif"
INK = "#111"
DISPUTE = "#b3261e"

TABLE_LABEL = gettext_noop("Table %(number)s")
ROUND_LABEL = gettext_noop("Round %(number)s")

# XML 1.0 cannot carry control characters, even escaped; a name may hold one.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text: str) -> str:
    """``text`` with every character XML 1.0 cannot carry replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def isolated(name: str) -> str:
    """A player's name for a ``<text>`` or ``<title>``: cleaned, between FIRST STRONG
    ISOLATE and POP DIRECTIONAL ISOLATE, the characters that do in SVG what ``<bdi>`` does
    in a page (tournament.templatetags.names): a right-to-left name never reorders what is
    drawn beside it."""
    return f"\u2068{clean(name)}\u2069"


def canvas(label: str, css_class: str, width: float = WIDTH) -> ET.Element:
    """An empty chart named ``label``, with the CSS classes ``chart`` and ``css_class``;
    ``width`` units wide (a chart wider than 16:9 uses the projector's wide box)."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {width:.0f} {HEIGHT}",
            "role": "img",
            "aria-label": clean(label),
            "class": f"chart {css_class}",
            "font-family": FONT,
            "preserveAspectRatio": "xMidYMid meet",
        },
    )
    ET.SubElement(svg, "title").text = clean(label)
    return svg


def add_text(parent: ET.Element, x: float, y: float, text: str, size: float, **attrs: str) -> None:
    """A ``<text>`` in ink at (x, y), ``size`` units high; ``attrs`` come after the rest."""
    element = ET.SubElement(
        parent,
        "text",
        {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": f"{size:.0f}", "fill": INK, **attrs},
    )
    element.text = clean(text)


def add_round_label(
    parent: ET.Element, x: float, y: float, number: int, translate: Translate
) -> None:
    """ "Round 3", bold and centred on x: the head (or foot) of a round's column."""
    add_text(
        parent,
        x,
        y,
        translated(translate, ROUND_LABEL, number=number),
        48,
        **{"text-anchor": "middle", "class": "round-label", "font-weight": "bold"},
    )


def markup(svg: ET.Element) -> str:
    """The chart as one string of SVG markup."""
    return ET.tostring(svg, encoding="unicode", short_empty_elements=True)


def font_size(space: float, biggest: float = 64) -> float:
    """The largest text that fits a row or column of ``space`` units, at most ``biggest``."""
    return max(min(biggest, space * 0.6), 9)


# A generous average glyph width, in ems, of the sans-serif fonts that draw the labels.
GLYPH_WIDTH = 0.62


def label_margin(labels: Sequence[str], font: float, least: float, gap: float) -> float:
    """The left margin that fits the longest of ``labels`` (table names) at ``font``, plus
    ``gap`` between the label and the chart: at least ``least``. A label wider than the
    margin would be cut at the edge of the chart."""
    widest = max((len(label) for label in labels), default=0) * font * GLYPH_WIDTH
    return max(least, widest + gap + 12)


def add_hatching(svg: ET.Element, pattern_id: str) -> None:
    """The hatching that marks disputes (the disputes map, the rounds' dispute bars), as a
    pattern ``pattern_id`` in the chart's defs."""
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
