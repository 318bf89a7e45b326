"""The tricks' story: each screen table's tricks in the order they were taken, round by round.

Terms:
    trick mark  one taken trick (``TrickMark``): its game and number, the seconds it took to
                settle (from its last card to its taking: TakenTrick.taken_at - complete_at),
                whether its players pointed at different cards first (*disagreed*) and
                whether the organizer settled it (*settled*).
    strip       one table-round's tricks, left to right in the order taken (``TableTricks``):
                a bar per trick standing on the strip's baseline, the taller the longer it
                took to settle (square root of the seconds, so a quick agreement still shows
                and a two-minute stall does not flatten the rest), its games apart by a gap
                and a thin line. A disagreed trick is hatched (a pattern, not a colour
                alone) and outlined; a settled one wears a black dot above its bar. At the
                strip's right end, the longest time to settle in it, in seconds.
    chart       tables (rows, top table first) x rounds (columns, "Round 2" above each):
                one strip per table-round, and the clash's symbol of that table-round
                (tournament.rules.charts.grid.KIND_SYMBOLS) before it, so the story sits
                beside which rules met. A table-round with no trick taken is an empty
                baseline; one nobody played is left blank. The printed report and the
                console draw one round a chart, the projector every round in one.
    summary     the chart in words, a sentence per table-round (``table_summary``): what
                a screen reader says (the chart's ``<desc>``) and what the page lists.
    least text  every text is at least LEAST units high: 28 px on a 1080p projector,
                where the tricks' screen draws a 2400-unit-wide chart at 0.71 px a unit or
                more, up to 13 tables. Rows never get thinner than that text needs: with
                more tables the canvas grows taller instead (the console and the report
                scroll; the projector scales it down).

Words arrive marked with ``gettext_noop`` (or through ``ngettext``, see
tournament.common.i18n) and are translated through the callables. No player is named.
Standard library only: this module must stay importable without Django.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from tournament.common.i18n import (
    Translate,
    TranslatePlural,
    gettext_noop,
    translated,
    untranslated,
    untranslated_plural,
)
from tournament.rules.charts.grid import KIND_SYMBOLS
from tournament.rules.charts.svg import (
    DISPUTE,
    GLYPH_WIDTH,
    HEIGHT,
    INK,
    TABLE_LABEL,
    WIDTH,
    add_hatching,
    add_round_label,
    add_text,
    canvas,
    clean,
    label_margin,
    markup,
)
from tournament.rules.clash import ClashKind
from tournament.rules.name_width import name_width

LEAST = 40  # units: 28 px at 1080p on the tricks' screen (about 0.8 px a unit)
MOST = 56  # the labels' largest size, on a chart of few tables
COLUMN_GAP = 56  # between two rounds, a thin line in its middle
TOP, BOTTOM = 76, 12
ROW_LEAST = LEAST * 1.5  # a row holds its label and a bar worth seeing
ROW_MOST = 170  # few tables: the rows stop growing and the chart gets shorter
SLOT_MOST = 64  # a trick's slot, in units, on a roomy strip
GAME_GAP = 0.7  # the gap between two games, in slots
BAR_SHARE = 0.72  # of a slot, the bar's width
DOT_LEAST = 9  # units: a settled trick's dot, at least
SLOWEST_LEAST = 30  # seconds: the tallest bar stands for at least this long
AGREED = "#3f5f8f"  # an agreed trick's bar: 6.4:1 against white, beside the hatching

KEY_FONT = 30  # the key is read on a page or a slide, up close
KEY_HEIGHT = 40 + 4 * KEY_FONT * 1.5

NO_TRICK = gettext_noop("no trick taken")
SECONDS = gettext_noop("%(seconds)s s")
TRICK_TITLE = gettext_noop("Game %(game)s, trick %(trick)s: %(seconds)s s to settle")
DISAGREED_TITLE = gettext_noop("pointed at different cards")
SETTLED_TITLE = gettext_noop("settled by the organizer")
SUMMARY_HEAD = gettext_noop("Table %(table)s, round %(round)s")
LONGEST = gettext_noop("the longest took %(seconds)s s to settle")
NOTHING_TAKEN = gettext_noop("No trick was taken at a screen table.")
ALWAYS_AGREED = gettext_noop("the players never pointed at different cards")
KEY_DISAGREED = gettext_noop("Hatched: the players pointed at different cards first")
KEY_SETTLED = gettext_noop("Dot: settled by the organizer")
KEY_BARS = gettext_noop(
    "Each bar is a trick, in the order taken: the taller, the longer it took to settle"
)
KEY_LONGEST = gettext_noop("The number after a table's bars: its longest time to settle")
KEY_LINES = (KEY_DISAGREED, KEY_SETTLED, KEY_BARS, KEY_LONGEST)


@dataclass(frozen=True)
class TrickMark:
    game: int
    number: int
    seconds: int
    disagreed: bool = False
    settled: bool = False


@dataclass(frozen=True)
class TableTricks:
    """One table-round's strip: its tricks in the order taken, and the clash there."""

    table: int
    round: int
    tricks: tuple[TrickMark, ...] = ()
    kind: ClashKind = ClashKind.NONE

    @property
    def games(self) -> int:
        return len({trick.game for trick in self.tricks})

    @property
    def disagreed(self) -> int:
        return sum(trick.disagreed for trick in self.tricks)

    @property
    def settled(self) -> int:
        return sum(trick.settled for trick in self.tricks)

    @property
    def longest(self) -> int | None:
        return max((trick.seconds for trick in self.tricks), default=None)

    @property
    def slots(self) -> float:
        """How many trick slots the strip takes: one a trick, GAME_GAP between games."""
        return len(self.tricks) + max(self.games - 1, 0) * GAME_GAP


@dataclass(frozen=True)
class _Row:
    """Where one strip sits: its row (top, height), its column (left, width) and the
    width of a trick's slot in that column."""

    y: float
    height: float
    x: float
    column: float
    slot: float

    @property
    def base(self) -> float:
        return self.y + self.height - 8


@dataclass(frozen=True)
class _Layout:
    """What every strip of a chart shares: the text size, the seconds the tallest bar
    stands for, the room kept at a strip's end for its longest time, the hatching."""

    font: float
    slowest: int
    widest: float
    lead: float  # the room before a strip's bars, for its clash's symbol
    pattern_id: str
    translate: Translate


def table_summary(
    strip: TableTricks,
    translate: Translate = untranslated,
    ngettext: TranslatePlural = untranslated_plural,
) -> str:
    """One table-round in words, e.g. "Table 3, round 2: 12 tricks taken in 2 games, 4
    with the players pointing at different cards first, 1 settled by the organizer; the
    longest took 95 s to settle"."""
    head = translated(translate, SUMMARY_HEAD, table=strip.table, round=strip.round)
    if not strip.tricks:
        return f"{head}: {translate(NO_TRICK)}"
    parts = [
        # Two counts, so two plural messages: each agrees with its own.
        ngettext("%(count)s trick taken", "%(count)s tricks taken", len(strip.tricks))
        % {"count": len(strip.tricks)}
        + " "
        + ngettext("in %(count)s game", "in %(count)s games", strip.games) % {"count": strip.games},
    ]
    if strip.disagreed:
        parts.append(
            ngettext(
                "%(count)s with the players pointing at different cards first",
                "%(count)s with the players pointing at different cards first",
                strip.disagreed,
            )
            % {"count": strip.disagreed}
        )
    else:
        parts.append(translate(ALWAYS_AGREED))
    if strip.settled:
        parts.append(
            ngettext(
                "%(count)s settled by the organizer",
                "%(count)s settled by the organizer",
                strip.settled,
            )
            % {"count": strip.settled}
        )
    longest = translated(translate, LONGEST, seconds=strip.longest)
    return f"{head}: {', '.join(parts)}; {longest}"


def tricks_svg(
    strips: Sequence[TableTricks],
    tables: Sequence[int],
    rounds: Sequence[int],
    *,
    label: str,
    width: float = WIDTH,
    pattern_id: str = "hatch-tricks",
    key: bool = False,
    fill: bool = False,
    translate: Translate = untranslated,
    ngettext: TranslatePlural = untranslated_plural,
) -> str:
    """The tricks' story of ``rounds`` (columns) at ``tables`` (rows, top table first):
    the strips given, the rest blank (see the module's Terms). ``pattern_id`` names the
    hatching: two of these charts in one page need two names. ``key`` draws the marks'
    meaning under the chart, for a chart shown alone (a download); a page writes its own.
    ``fill``: few tables still fill the canvas's height (a projector's screen of its own)
    instead of making a shorter chart (a page, a print)."""
    rows = sorted(tables, reverse=True)
    by_cell = {(strip.table, strip.round): strip for strip in strips}
    shared = (HEIGHT - TOP - BOTTOM) / max(len(rows), 1)
    row_height = max(shared, ROW_LEAST) if fill else min(max(shared, ROW_LEAST), ROW_MOST)
    height = TOP + row_height * max(len(rows), 1) + BOTTOM + (KEY_HEIGHT if key else 0)
    svg = canvas(label, "chart-tricks", width)
    svg.set("viewBox", f"0 0 {width:.0f} {height:.0f}")
    ET.SubElement(svg, "desc").text = clean(_description(strips, rows, rounds, translate, ngettext))
    add_hatching(svg, pattern_id)
    font = min(max(row_height * 0.42, LEAST), MOST)
    labels = [translated(translate, TABLE_LABEL, number=table) for table in rows]
    left = label_margin(labels, font, least=160, gap=24)
    column = (width - left - 10 - (len(rounds) - 1) * COLUMN_GAP) / max(len(rounds), 1)
    slowest = max((t.seconds for strip in strips for t in strip.tricks), default=0)
    widest = len(translated(translate, SECONDS, seconds=slowest)) * font * GLYPH_WIDTH + 16
    # A strip's start: room for its clash's symbol (an em and a gap), then its bars.
    layout = _Layout(font, max(slowest, SLOWEST_LEAST), widest, font + 20, pattern_id, translate)
    if not any(strip.tricks for strip in strips):
        # Nothing to tell: the sentence alone, across the middle.
        _add_nothing(svg, width, height, translate)
        return markup(svg)
    if key:
        _add_key(svg, height - KEY_HEIGHT, width, pattern_id, translate)
    for i, number in enumerate(rounds):
        x = left + i * (column + COLUMN_GAP)
        add_round_label(svg, x + column / 2, 54, number, translate)
        if i:
            _add_round_line(svg, x - COLUMN_GAP / 2, height - (KEY_HEIGHT if key else 0))
        in_column = [by_cell[(t, number)] for t in rows if (t, number) in by_cell]
        most = max((strip.slots for strip in in_column), default=0)
        # The longest strip of the round fills the room its symbol and longest time leave.
        room = column - widest - layout.lead
        slot = min(SLOT_MOST, room / most) if most else SLOT_MOST
        for j, table in enumerate(rows):
            row = _Row(TOP + j * row_height, row_height, x, column, slot)
            if i == 0:
                _add_table_label(svg, left, row, labels[j], font)
            if (table, number) in by_cell:
                _add_strip(svg, by_cell[(table, number)], row, layout)
    return markup(svg)


def _description(
    strips: Sequence[TableTricks],
    rows: Sequence[int],
    rounds: Sequence[int],
    translate: Translate,
    ngettext: TranslatePlural,
) -> str:
    """The chart's ``<desc>``: a summary per table-round, top table first, round by round."""
    by_cell = {(strip.table, strip.round): strip for strip in strips}
    lines = [
        table_summary(by_cell[(table, number)], translate, ngettext)
        for number in rounds
        for table in rows
        if (table, number) in by_cell
    ]
    if not any(strip.tricks for strip in strips):
        lines.insert(0, translate(NOTHING_TAKEN))
    return "\n".join(lines)


def _add_nothing(svg: ET.Element, width: float, height: float, translate: Translate) -> None:
    """A chart of no trick says so, across its middle."""
    add_text(
        svg,
        width / 2,
        max(height / 2, TOP + LEAST),
        translate(NOTHING_TAKEN),
        LEAST,
        **{"text-anchor": "middle", "class": "nothing-taken"},
    )


def _add_key(
    svg: ET.Element, top: float, width: float, pattern_id: str, translate: Translate
) -> None:
    """The marks' meaning, a line each, under the chart (see tricks_svg: key); smaller
    than KEY_FONT when a translation's longest line needs it."""
    lines = [translate(words) for words in KEY_LINES]
    room = width - 24 - KEY_FONT - 16 - 12
    # In ems, the wider of two estimates: a generous average, and the letters' shapes.
    widest = max(max(name_width(line), len(line) * GLYPH_WIDTH) for line in lines)
    size = min(KEY_FONT, math.floor(room / widest))  # drawn in whole units
    group = ET.SubElement(svg, "g", {"class": "key"})
    for i, words in enumerate(lines):
        y = top + 20 + i * KEY_FONT * 1.5
        if i == 0:
            ET.SubElement(
                group,
                "rect",
                {
                    "x": "24",
                    "y": f"{y:.1f}",
                    "width": f"{KEY_FONT}",
                    "height": f"{KEY_FONT}",
                    "fill": f"url(#{pattern_id})",
                    "stroke": DISPUTE,
                    "stroke-width": "3",
                },
            )
        elif i == 1:
            center = 24 + KEY_FONT / 2
            ET.SubElement(
                group,
                "circle",
                {"cx": f"{center:.1f}", "cy": f"{y + KEY_FONT / 2:.1f}", "r": "12", "fill": INK},
            )
        add_text(group, 24 + KEY_FONT + 16, y + KEY_FONT * 0.8, words, size)


def _add_round_line(svg: ET.Element, x: float, bottom: float) -> None:
    """The thin line between two rounds' columns."""
    ET.SubElement(
        svg,
        "line",
        {
            "x1": f"{x:.1f}",
            "x2": f"{x:.1f}",
            "y1": "12",
            "y2": f"{bottom - BOTTOM:.1f}",
            "stroke": "#767676",
            "stroke-width": "2",
            "class": "round-line",
        },
    )


def _add_table_label(svg: ET.Element, left: float, row: _Row, text: str, font: float) -> None:
    add_text(
        svg,
        left - 24,
        row.y + row.height / 2 + font * 0.35,
        text,
        font,
        **{"text-anchor": "end", "class": "table-label"},
    )


def _add_strip(svg: ET.Element, strip: TableTricks, row: _Row, layout: _Layout) -> None:
    """One table-round: its clash's symbol, its baseline, a bar per trick, its longest."""
    font = layout.font
    group = ET.SubElement(
        svg,
        "g",
        {
            "class": "strip",
            "data-table": str(strip.table),
            "data-round": str(strip.round),
            "data-tricks": str(len(strip.tricks)),
            "data-disagreed": str(strip.disagreed),
        },
    )
    ET.SubElement(group, "title").text = clean(table_summary(strip, layout.translate))
    middle = row.y + row.height / 2 + font * 0.35
    if KIND_SYMBOLS[strip.kind]:
        add_text(
            group,
            row.x + font / 2,
            middle,
            KIND_SYMBOLS[strip.kind],
            font,
            **{"text-anchor": "middle", "class": f"kind kind-{strip.kind}", "font-weight": "bold"},
        )
    ET.SubElement(
        group,
        "line",
        {
            "x1": f"{row.x + layout.lead:.1f}",
            "x2": f"{row.x + row.column - layout.widest:.1f}",
            "y1": f"{row.base:.1f}",
            "y2": f"{row.base:.1f}",
            "stroke": INK,
            "stroke-width": "2",
        },
    )
    _add_bars(group, strip, row, layout)
    if strip.tricks:
        add_text(
            group,
            row.x + row.column - 4,
            middle,
            translated(layout.translate, SECONDS, seconds=strip.longest),
            font,
            **{"text-anchor": "end", "class": "longest"},
        )


def _add_bars(group: ET.Element, strip: TableTricks, row: _Row, layout: _Layout) -> None:
    """A bar per trick, its height by the square root of its seconds (see Terms: strip);
    room is kept above the tallest for a settled trick's dot."""
    slot = row.slot
    # A settled trick's dot stays big enough to see on the narrowest slot.
    dot = max(min(slot * BAR_SHARE, row.height * 0.2) / 2, DOT_LEAST)
    tallest = row.height - 16 - 2 * dot - 6
    shortest = min(6.0, tallest)
    at = row.x + layout.lead
    previous_game = None
    for trick in strip.tricks:
        if previous_game is not None and trick.game != previous_game:
            at += slot * GAME_GAP
            _add_game_line(group, at - slot * GAME_GAP / 2, row)
        previous_game = trick.game
        bar = slot * BAR_SHARE
        share = math.sqrt(min(trick.seconds, layout.slowest) / layout.slowest)
        high = shortest + (tallest - shortest) * share
        mark = ET.SubElement(
            group,
            "rect",
            {
                "x": f"{at + (slot - bar) / 2:.1f}",
                "y": f"{row.base - high:.1f}",
                "width": f"{bar:.1f}",
                "height": f"{high:.1f}",
                "fill": f"url(#{layout.pattern_id})" if trick.disagreed else AGREED,
                "stroke": DISPUTE if trick.disagreed else "none",
                "stroke-width": "3",
                "class": "trick" + (" is-disagreed" if trick.disagreed else ""),
                "data-seconds": str(trick.seconds),
            },
        )
        ET.SubElement(mark, "title").text = clean(_trick_title(trick, layout.translate))
        if trick.settled:
            ET.SubElement(
                group,
                "circle",
                {
                    "cx": f"{at + slot / 2:.1f}",
                    "cy": f"{row.base - high - dot - 4:.1f}",
                    "r": f"{dot:.1f}",
                    "fill": INK,
                    "class": "settled",
                },
            )
        at += slot


def _add_game_line(group: ET.Element, x: float, row: _Row) -> None:
    """The thin line between two games of a strip."""
    ET.SubElement(
        group,
        "line",
        {
            "x1": f"{x:.1f}",
            "x2": f"{x:.1f}",
            "y1": f"{row.y + 8:.1f}",
            "y2": f"{row.base:.1f}",
            "stroke": "#767676",
            "stroke-width": "2",
            "stroke-dasharray": "6 6",
            "class": "game-line",
        },
    )


def _trick_title(trick: TrickMark, translate: Translate) -> str:
    words = translated(
        translate, TRICK_TITLE, game=trick.game, trick=trick.number, seconds=trick.seconds
    )
    if trick.disagreed:
        words += " · " + translate(DISAGREED_TITLE)
    if trick.settled:
        words += " · " + translate(SETTLED_TITLE)
    return words
