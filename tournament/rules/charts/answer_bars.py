"""The room's answers as bars: the 1-to-5 scale under its faces, and a choice of rounds or
tables beside the round in which each table first saw a dispute.

Terms:
    scale      a question answered from 1 (not at all) to 5 (very much), as "how frustrated
               were you?": one bar per step, over the step's face drawn in SVG (its mouth
               from a broad smile to a deep frown, as on the phones' buttons, so the shape,
               not a colour, tells the steps apart); the caller's words for each step
               ("1: not at all") name it for screen readers.
    choice     a question answered with a round or a table: one bar of answers per option
               (ChoiceBar), and for rounds a second, hatched bar of the tables that first saw
               a dispute in that round (the disputes map's hatching, so a black-and-white
               print tells the two apart as the legend does). Each of the two series is drawn
               to its own tallest bar: the counts are written over the bars, and the room
               compares when people noticed with when the disputes came, not phones with
               tables.
    count      the number over a bar, in ink on the white paper; a count of zero is an empty
               bar with its 0 over the axis.
    LEAST      the least text, in canvas units: 28 px at 1080p on the projector's smallest
               chart box (about 0.65 px a unit, as tournament.rules.charts.grid says).
    thinned    labels too wide for their column are drawn short ("3" for "Table 3") when the
               caller gives short forms, else (or still too wide) only where they clear the
               label before, the first always; counts too wide for their bar, every few bars: no
               two texts ever meet, and every bar's ``<title>`` still says all of it.
    empty      the caller's words for a question nobody answered yet, drawn over the bars.

Every word shown comes from the caller, already translated. Standard library and anyascii
only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.rules.charts.svg import (
    GLYPH_WIDTH,
    HEIGHT,
    INK,
    WIDTH,
    add_hatching,
    add_text,
    canvas,
    clean,
    isolated,
    markup,
)
from tournament.rules.name_width import name_width

LEAST = 44
COUNT = 60  # a count over its bar, when its column has the room
EMPTY = 60  # the words for "nobody answered yet"
PAD = 24
BAR = "#1f4e8c"  # 8.3:1 on white; the counts sit on the paper above it anyway
# A choice of many tables draws on a wider canvas, up to WIDE units: the projector's chart
# box is wider than 16:9, so the extra width costs no height there.
WIDE = 2400
ELLIPSIS = "…"
# A venue's bold face may be wider than the Arial bold name_width measures (DejaVu Sans
# Bold, Linux's usual fallback, is about a tenth wider): words are measured this much wider.
WIDE_FACE = 1.12
# The scale's faces, 1 to 5: a light ground (the shape says the step, not the colour) and
# the mouth's curve in radii, below zero a frown. 1 is "not at all" (of frustration, say),
# a smile, as the phones draw it (tournament.rules.debrief_questions.SCALE_FACES).
FACE_GROUNDS = ("#c8e6c9", "#dcedc8", "#eeeeee", "#fbe3c4", "#f6d5d2")
MOUTHS = (0.5, 0.25, 0.0, -0.25, -0.5)


@dataclass(frozen=True)
class ChoiceBar:
    """One option of a choice: its label ("Round 1"), its answers and, for a round, how
    many tables first saw a dispute in it."""

    label: str
    answers: int
    disputes: int | None = None
    # The label's short form ("3"), drawn when the full labels do not fit their columns.
    short: str = ""


def ems(text: str) -> float:
    """The text's width in ems: the wider of name_width's measure and GLYPH_WIDTH a letter,
    times WIDE_FACE, so a narrow face and a wide one both fit where it is drawn. Accents
    and the invisible isolates take no room."""
    letters = sum(1 for char in text if unicodedata.category(char) not in ("Cf", "Mn", "Me"))
    return max(name_width(text), letters * GLYPH_WIDTH) * WIDE_FACE


def cut(text: str, size: float, room: float) -> str:
    """The text, cut with an ellipsis when it is wider than ``room`` at ``size``."""
    if ems(isolated(text)) * size <= room:
        return text
    shown = text
    while shown and ems(isolated(shown.rstrip() + ELLIPSIS)) * size > room:
        shown = shown[:-1]
    return shown.rstrip() + ELLIPSIS


def add_empty(svg: ET.Element, text: str, y: float, width: float = WIDTH) -> None:
    """The caller's "nobody answered yet", centred on ``y``, as large as fits."""
    if not text:
        return
    room = width - 2 * PAD
    size = max(min(EMPTY, room / max(ems(isolated(text)), 0.01)), LEAST)
    add_text(
        svg,
        width / 2,
        y + size * 0.35,
        isolated(cut(text, size, room)),
        size,
        **{"text-anchor": "middle", "font-weight": "bold", "class": "chart-empty"},
    )


def _check(counts: Sequence[int]) -> None:
    negative = [count for count in counts if count < 0]
    if negative:
        raise ValueError(f"negative count {negative[0]}")


def _bar(
    group: ET.Element, x: float, base: float, width: float, height: float, **attrs: str
) -> None:
    """A bar standing on ``base``, ``height`` units tall (none for a zero)."""
    ET.SubElement(
        group,
        "rect",
        {
            "x": f"{x:.1f}",
            "y": f"{base - height:.1f}",
            "width": f"{width:.1f}",
            "height": f"{height:.1f}",
            **attrs,
        },
    )


def _count(group: ET.Element, x: float, bar_top: float, count: int, size: float) -> None:
    add_text(
        group,
        x,
        bar_top - 14,
        str(count),
        size,
        **{"text-anchor": "middle", "font-weight": "bold", "class": "bar-count"},
    )


def _axis(svg: ET.Element, left: float, right: float, y: float) -> None:
    ET.SubElement(
        svg,
        "line",
        {
            "x1": f"{left:.1f}",
            "y1": f"{y:.1f}",
            "x2": f"{right:.1f}",
            "y2": f"{y:.1f}",
            "stroke": INK,
            "stroke-width": "4",
            "class": "axis",
        },
    )


def scale_svg(
    counts: Mapping[int, int],
    *,
    title: str,
    face_labels: Mapping[int, str],
    empty: str = "",
) -> str:
    """The answers to a 1-to-5 question: a bar per step over its face (see Terms).
    ``counts`` maps a step to its answers (a missing step had none); ``face_labels`` gives
    each step's words; ``empty`` is drawn while nobody has answered."""
    _check([counts.get(step, 0) for step in range(1, 6)])
    steps = [counts.get(step, 0) for step in range(1, 6)]
    names = [face_labels.get(step, str(step)) for step in range(1, 6)]
    listing = ", ".join(f"{isolated(n)} ({c})" for n, c in zip(names, steps, strict=True))
    svg = canvas(f"{title}: {listing}", "chart-scale")
    radius, column = 80, (WIDTH - 2 * PAD) / 5
    face_y = HEIGHT - PAD - radius
    base = face_y - radius - 24
    highest, tallest = PAD + COUNT + 14 + 6, max(steps)
    _axis(svg, PAD, WIDTH - PAD, base)
    for index, (count, name) in enumerate(zip(steps, names, strict=True)):
        middle = PAD + (index + 0.5) * column
        height = (base - highest) * count / tallest if tallest else 0
        group = ET.SubElement(
            svg,
            "g",
            {
                "class": f"scale-step step-{index + 1}",
                "data-step": str(index + 1),
                "data-count": str(count),
            },
        )
        ET.SubElement(group, "title").text = f"{isolated(name)} ({count})"
        _bar(group, middle - 100, base, 200, height, fill=BAR, **{"class": "bar"})
        _count(group, middle, base - height, count, COUNT)
        _face(group, middle, face_y, radius, index)
    if not tallest:
        add_empty(svg, empty, (highest + base - COUNT - 14) / 2)
    return markup(svg)


def _face(parent: ET.Element, x: float, y: float, radius: float, index: int) -> None:
    """Step ``index + 1``'s face: a disc, two eyes and a mouth curved by MOUTHS."""
    face = ET.SubElement(parent, "g", {"class": f"face face-{index + 1}", "aria-hidden": "true"})
    ET.SubElement(
        face,
        "circle",
        {
            "cx": f"{x:.1f}",
            "cy": f"{y:.1f}",
            "r": f"{radius:.1f}",
            "fill": FACE_GROUNDS[index],
            "stroke": INK,
            "stroke-width": "6",
        },
    )
    for side in (-1, 1):
        ET.SubElement(
            face,
            "circle",
            {
                "cx": f"{x + side * radius * 0.35:.1f}",
                "cy": f"{y - radius * 0.25:.1f}",
                "r": f"{radius * 0.11:.1f}",
                "fill": INK,
            },
        )
    curve = MOUTHS[index] * radius
    mouth_y = y + radius * 0.4 - curve / 2
    ET.SubElement(
        face,
        "path",
        {
            "d": f"M {x - radius * 0.45:.1f} {mouth_y:.1f} "
            f"Q {x:.1f} {mouth_y + 2 * curve:.1f} {x + radius * 0.45:.1f} {mouth_y:.1f}",
            "fill": "none",
            "stroke": INK,
            "stroke-width": "7",
            "stroke-linecap": "round",
        },
    )


def choice_bars_svg(
    bars: Sequence[ChoiceBar],
    *,
    title: str,
    answers_legend: str,
    disputes_legend: str | None = None,
    empty: str = "",
    pattern_id: str = "answers-hatch",
) -> str:
    """The answers to a choice of rounds or tables, and with ``disputes_legend`` the
    rounds' first disputes beside them (see Terms). ``empty`` is drawn while nobody has
    answered; ``pattern_id`` names the hatching (two charts in one page need two names)."""
    _check([bar.answers for bar in bars] + [bar.disputes or 0 for bar in bars])
    paired = disputes_legend is not None
    listing = "; ".join(_bar_words(bar, answers_legend, disputes_legend) for bar in bars)
    series = 2 if paired else 1
    widest = max((ems(str(max(b.answers, b.disputes or 0))) for b in bars), default=1) * LEAST
    width = max(WIDTH, min(WIDE, len(bars) * series * (widest + 24) / 0.8 + 2 * PAD))
    svg = canvas(f"{title}: {listing}" if listing else title, "chart-choices", width)
    add_hatching(svg, pattern_id)
    legend_bottom = _add_legend(svg, width, answers_legend, disputes_legend, pattern_id)
    base = HEIGHT - PAD - LEAST * 1.25 - 16
    _axis(svg, PAD, width - PAD, base)
    column = (width - 2 * PAD) / max(len(bars), 1)
    # A round's two bars side by side, a gap between rounds.
    slot = min(column * 0.8, 440.0) / series
    bar_width = slot
    count_size = max(min(COUNT, (slot - 8) / max(widest / LEAST, 0.01)), LEAST)
    count_step = max(math.ceil((widest / LEAST * count_size + 8) / slot), 1)
    highest = legend_bottom + 20 + count_size + 14
    most_answers = max((bar.answers for bar in bars), default=0)
    most_disputes = max((bar.disputes or 0 for bar in bars), default=0)
    labels = _labels(bars, column, width)
    for index, bar in enumerate(bars):
        left = PAD + index * column
        group = ET.SubElement(
            svg,
            "g",
            {
                "class": "choice",
                "data-answers": str(bar.answers),
                "data-disputes": "" if bar.disputes is None else str(bar.disputes),
            },
        )
        ET.SubElement(group, "title").text = _bar_words(bar, answers_legend, disputes_legend)
        shown = _series(bar, paired, (most_answers, most_disputes), pattern_id)
        for n, (count, most, attrs) in enumerate(shown):
            middle = left + column / 2 + (n + 0.5 - series / 2) * slot
            height = (base - highest) * count / most if most else 0
            _bar(group, middle - bar_width / 2, base, bar_width, height, **attrs)
            if (index * series + n) % count_step == 0:
                _count(group, middle, base - height, count, count_size)
        label = labels[index]
        if label is not None:
            text, x = label
            add_text(
                group,
                x,
                HEIGHT - PAD - LEAST * 0.25,
                isolated(text),
                LEAST,
                **{"text-anchor": "middle", "font-weight": "bold", "class": "choice-label"},
            )
    if not most_answers:
        add_empty(svg, empty, (highest + base - count_size - 14) / 2, width)
    return markup(svg)


def _series(
    bar: ChoiceBar, paired: bool, most: tuple[int, int], pattern_id: str
) -> list[tuple[int, int, dict[str, str]]]:
    """The option's bars, each as (count, its series' tallest count, how it is drawn): the
    answers in solid ink, the first disputes hatched and outlined."""
    shown = [(bar.answers, most[0], {"fill": BAR, "class": "bar bar-answers"})]
    if paired and bar.disputes is not None:
        hatched = {
            "fill": f"url(#{pattern_id})",
            "stroke": INK,
            "stroke-width": "3",
            "class": "bar bar-disputes",
        }
        shown.append((bar.disputes, most[1], hatched))
    return shown


def _bar_words(bar: ChoiceBar, answers_legend: str, disputes_legend: str | None) -> str:
    words = f"{isolated(bar.label)} ({clean(answers_legend)}: {bar.answers}"
    if disputes_legend is not None and bar.disputes is not None:
        words += f", {clean(disputes_legend)}: {bar.disputes}"
    return words + ")"


def _labels(
    bars: Sequence[ChoiceBar], column: float, width: float
) -> list[tuple[str, float] | None]:
    """Each column's label as drawn and the middle it is drawn at, None where none is (see
    thinned): the full labels while the widest fits its column, else the short ones when
    every bar has one. From the left, a label is drawn under its column (moved inside the
    chart at its edges) where it clears the one before, else left out."""
    texts = [bar.label for bar in bars]
    if _widest(texts) > column and all(bar.short for bar in bars):
        texts = [bar.short for bar in bars]
    drawn: list[tuple[str, float] | None] = []
    cleared: float = PAD
    for index, text in enumerate(texts):
        shown = cut(text, LEAST, width - 2 * PAD)
        half = ems(isolated(shown)) * LEAST / 2
        middle = min(max(PAD + (index + 0.5) * column, PAD + half), width - PAD - half)
        if middle - half >= cleared:
            drawn.append((shown, middle))
            cleared = middle + half + 12
        else:
            drawn.append(None)
    return drawn


def _widest(texts: Sequence[str]) -> float:
    """The widest text's room at LEAST, with a gap to its neighbours."""
    return max((ems(isolated(text)) for text in texts), default=0) * LEAST + 12


def _add_legend(
    svg: ET.Element, width: float, answers: str, disputes: str | None, pattern_id: str
) -> float:
    """The legend across the top: a swatch and the caller's words for each series, on one
    line while they fit, else one a line. Returns the legend's bottom."""
    entries = [(answers, {"fill": BAR})]
    if disputes is not None:
        entries.append((disputes, {"fill": f"url(#{pattern_id})"}))
    swatch, gap, room = 64, 20, width - 2 * PAD
    widths = [swatch + gap + ems(isolated(text)) * LEAST for text, _ in entries]
    one_line = sum(widths) + 60 * (len(widths) - 1) <= room
    legend = ET.SubElement(svg, "g", {"class": "chart-legend-inline"})
    x: float = PAD
    y: float = PAD
    for (text, fill), entry_width in zip(entries, widths, strict=True):
        ET.SubElement(
            legend,
            "rect",
            {
                "x": f"{x:.1f}",
                "y": f"{y + 4:.1f}",
                "width": str(swatch),
                "height": "44",
                "stroke": INK,
                "stroke-width": "3",
                **fill,
            },
        )
        add_text(
            legend,
            x + swatch + gap,
            y + LEAST,
            isolated(cut(clean(text), LEAST, room - swatch - gap)),
            LEAST,
            **{"class": "legend-text"},
        )
        if one_line:
            x += entry_width + 60
        else:
            y += LEAST * 1.25 + 8
    return y + (LEAST * 1.25 if one_line else -8)
