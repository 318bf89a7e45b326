"""The room's anonymous answers to a debrief question, as charts: words as a cloud.

Terms:
    answer     what one phone sent for a question that takes words: a word or a few words.
    key        an answer folded as names are (tournament.rules.ordering): in Latin letters,
               accents and case ignored, its spaces collapsed, so "Lost", "lost " and "LÔST"
               are one word. The organizer hides a word by its key.
    word       the answers that share a key (WordCount): shown in the group's most common
               spelling (a tie goes to the first by name_key), with how many gave it.
    cloud      the words on the canvas (tournament.rules.charts.svg), the most answered the
               largest: in centred lines, the largest line in the middle and the largest word
               in the middle of its line, so no two words' boxes ever meet and none leaves
               the canvas. A word's box is its width (the wider of name_width's measure and
               GLYPH_WIDTH an em a letter, so a narrow face and a wide one both fit) by 1.25
               ems, its baseline an em below its top.
    size       a word's font size in canvas units: from a top size for the most answered
               down to LOWEST of it for the fewest, never under LEAST (28 px on the
               projector's smallest chart box, as the grid's); the top is lowered until every
               word fits; when even at LEAST they do
               not, the least answered are left out. A word wider than the canvas at LEAST
               is cut, with an ellipsis, and keeps its whole spelling in its ``<title>``.
    label      the chart's accessible name (its ``aria-label`` and ``<title>``): the caller's
               title, then every word drawn with its count.
    empty      the caller's words for a question nobody answered yet, drawn in the middle.

The scale and the choice of rounds or tables are bar charts, in
tournament.rules.charts.answer_bars; callers import all of them from here. Every word shown
comes from the caller, already translated. Standard library and anyascii only: this module
must stay importable without Django.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tournament.rules.charts.answer_bars import (
    LEAST,
    ChoiceBar,
    add_empty,
    choice_bars_svg,
    cut,
    ems,
    scale_svg,
)
from tournament.rules.charts.svg import (
    HEIGHT,
    WIDTH,
    add_text,
    canvas,
    clean,
    isolated,
    markup,
)
from tournament.rules.ordering import latin_spelling, name_key

__all__ = [
    "ChoiceBar",
    "WordCount",
    "choice_bars_svg",
    "count_words",
    "scale_svg",
    "word_cloud_svg",
    "word_key",
]

# The most answered word's largest size, and the room kept clear at the canvas's edges.
BIGGEST = 300
_Item = TypeVar("_Item")
PAD = 24
# The least answered word's size, as a share of the most answered's (never under LEAST).
LOWEST = 0.35
# Between two words of a line (in ems of the smaller) and between two lines (in units).
WORD_GAP = 0.45
LINE_GAP = 10
# A word's box: 1.25 ems high, its baseline one em below its top.
BOX = 1.25
# Dark inks, each 7:1 or more on the white paper: they tell neighbours apart, nothing more
# (a word's size, not its colour, says how often it was answered).
INKS = ("#111111", "#0b3d91", "#6b1d12", "#004d40", "#4a148c")


@dataclass(frozen=True)
class WordCount:
    """One word of the cloud: its spelling as shown, the key it is grouped by, its count."""

    text: str
    key: str
    count: int


@dataclass(frozen=True)
class PlacedWord:
    """A word drawn: its text (perhaps cut), its box in canvas units and its size."""

    word: WordCount
    shown: str
    left: float
    top: float
    width: float
    size: float

    @property
    def height(self) -> float:
        return self.size * BOX

    @property
    def baseline(self) -> float:
        return self.top + self.size


def word_key(text: str) -> str:
    """The answer folded as names are (see Terms): "  Łódź  Zoo" is "lodz zoo"."""
    return " ".join(latin_spelling(text).casefold().split())


def count_words(answers: Iterable[str]) -> list[WordCount]:
    """The answers grouped by key, the most answered first, then by key; a blank answer
    counts for nothing."""
    spellings: dict[str, Counter[str]] = {}
    for answer in answers:
        spelling = " ".join(clean(answer).split())
        key = word_key(spelling)
        if key:
            spellings.setdefault(key, Counter())[spelling] += 1
    words = [
        WordCount(
            _most_seen(seen),
            key,
            sum(seen.values()),
        )
        for key, seen in spellings.items()
    ]
    return sorted(words, key=lambda word: (-word.count, word.key))


def word_cloud_svg(
    words: Sequence[WordCount],
    *,
    title: str,
    limit: int = 40,
    empty: str = "",
) -> str:
    """The cloud of the ``limit`` most answered ``words`` (in count_words' order or not),
    sized by count; ``title`` names the chart, ``empty`` is drawn when there is no word."""
    ranked = sorted(words, key=lambda word: (-word.count, word.key))[: max(limit, 0)]
    placed = layout(ranked)
    listing = ", ".join(f"{isolated(p.word.text)} ({p.word.count})" for p in placed)
    svg = canvas(f"{title}: {listing}" if listing else title, "chart-words")
    if not placed:
        add_empty(svg, empty, HEIGHT / 2)
    for index, word in enumerate(placed):
        group = ET.SubElement(
            svg,
            "g",
            {
                "class": "cloud-word",
                "data-key": clean(word.word.key),
                "data-count": str(word.word.count),
            },
        )
        ET.SubElement(group, "title").text = f"{isolated(word.word.text)} ({word.word.count})"
        add_text(
            group,
            word.left + word.width / 2,
            word.baseline,
            isolated(word.shown),
            word.size,
            **{
                "text-anchor": "middle",
                "font-weight": "bold",
                "fill": INKS[index % len(INKS)],
                "class": "word",
            },
        )
    return markup(svg)


def layout(ranked: Sequence[WordCount]) -> list[PlacedWord]:
    """The words placed (see Terms): the largest top size at which all fit, else all at
    LEAST and as many of the most answered as fit."""
    if not ranked:
        return []
    top: float = BIGGEST
    while True:
        lines = _lines(ranked, _sizes(ranked, top))
        if lines is not None:
            return _place(lines)
        if top <= LEAST:
            break
        top = max(top * 0.92, LEAST)
    # Every word at LEAST and still too many: leave out the least answered.
    low, high = 0, len(ranked)
    while low < high:
        middle = (low + high + 1) // 2
        if _lines(ranked[:middle], [LEAST] * middle) is not None:
            low = middle
        else:
            high = middle - 1
    kept = ranked[:low]
    return _place(_lines(kept, [LEAST] * len(kept)) or [])


def _sizes(ranked: Sequence[WordCount], top: float) -> list[float]:
    """Each word's size, from LEAST (the fewest answers) to ``top`` (the most), capped so
    it fits the canvas's width, and never above a more answered word's."""
    most, fewest = ranked[0].count, ranked[-1].count
    sizes: list[float] = []
    for word in ranked:
        share = 1.0 if most == fewest else (word.count - fewest) / (most - fewest)
        low = max(LEAST, top * LOWEST)
        size = low + (top - low) * share
        size = max(min(size, (WIDTH - 2 * PAD) / max(ems(isolated(word.text)), 0.01)), LEAST)
        sizes.append(min(size, sizes[-1]) if sizes else size)
    return sizes


Line = list[tuple[WordCount, str, float, float]]  # (word, shown text, size, width)


def _lines(ranked: Sequence[WordCount], sizes: Sequence[float]) -> list[Line] | None:
    """The words in lines, in their order, each line as full as the canvas's width allows;
    None when the lines are taller than the canvas."""
    room = WIDTH - 2 * PAD
    lines: list[Line] = []
    used = 0.0
    for word, size in zip(ranked, sizes, strict=True):
        shown = cut(word.text, size, room)
        width = ems(isolated(shown)) * size
        gap = WORD_GAP * size
        if lines and used + gap + width <= room:
            lines[-1].append((word, shown, size, width))
            used += gap + width
        else:
            lines.append([(word, shown, size, width)])
            used = width
    height = sum(max(size for _, _, size, _ in line) * BOX for line in lines)
    height += LINE_GAP * (len(lines) - 1)
    return lines if height <= HEIGHT - 2 * PAD else None


def _most_seen(spellings: Counter[str]) -> str:
    """The spelling seen most often; of those seen as often, the first in name order."""
    return min(spellings, key=lambda text: (-spellings[text], name_key(text)))


def _middle_out(items: Sequence[_Item]) -> list[_Item]:
    """The items with the first in the middle, the next on either side, and so on."""
    before: list[_Item] = []
    after: list[_Item] = []
    for index, item in enumerate(items):
        (after if index % 2 == 0 else before).append(item)
    return before[::-1] + after


def _place(lines: Sequence[Line]) -> list[PlacedWord]:
    """The lines stacked in the middle of the canvas, the first (largest) in the middle,
    each centred, its words middle-out, sharing the line's baseline."""
    ordered = _middle_out(lines)
    heights = [max(size for _, _, size, _ in line) * BOX for line in ordered]
    total = sum(heights) + LINE_GAP * (len(ordered) - 1)
    y = (HEIGHT - total) / 2
    placed: list[PlacedWord] = []
    for line, height in zip(ordered, heights, strict=True):
        items = _middle_out(line)
        smallest = [min(a[2], b[2]) for a, b in itertools.pairwise(items)]
        width = sum(item[3] for item in items) + WORD_GAP * sum(smallest)
        x = (WIDTH - width) / 2
        baseline = y + height / BOX
        for index, (word, shown, size, word_width) in enumerate(items):
            placed.append(PlacedWord(word, shown, x, baseline - size, word_width, size))
            if index < len(smallest):
                x += word_width + WORD_GAP * smallest[index]
        y += height + LINE_GAP
    return sorted(placed, key=lambda p: (-p.word.count, p.word.key))
