"""The debrief's charts as SVG markup, drawn on the server so they need no script.

Terms:
    chart     one ``<svg>`` the projector and the printed report show at the debrief: the
              grid (disputes per table-round, and on the clash map which rules met there:
              tournament.rules.charts.grid), every player's path
              (tournament.rules.charts.paths) and the flow between tables
              (tournament.rules.charts.flow), the screen tables' tricks, round by round
              (tournament.rules.charts.tricks); and the room's anonymous answers to a
              question: words as a cloud, the 1-to-5 scale, a choice of rounds or tables
              (tournament.rules.charts.answers). Each module defines its chart's terms.
    canvas    what every chart draws on, 1600 x 900 units (16:9), with its text and shared
              labels (tournament.rules.charts.svg).

Names go through ElementTree, which escapes them: a player called ``<b>Bold</b>`` is
text, never markup. Words arrive marked with ``gettext_noop`` and are translated through
the ``translate`` callable. Callers import the charts from here.

Standard library only: this package must stay importable without Django.
"""

from __future__ import annotations

from tournament.rules.charts.answers import (
    ChoiceBar,
    WordCount,
    choice_bars_svg,
    count_words,
    scale_svg,
    word_cloud_svg,
    word_key,
)
from tournament.rules.charts.flow import FLOW_TITLE, flow_svg
from tournament.rules.charts.grid import (
    CLASH_TITLES,
    DIFFERED_TITLE,
    DISPUTES_TITLE,
    KIND_SYMBOLS,
    GridCell,
    grid_svg,
)
from tournament.rules.charts.paths import DASHES, PALETTE, PlayerPath, biggest_moves, paths_svg
from tournament.rules.charts.svg import GLYPH_WIDTH, HEIGHT, ROUND_LABEL, TABLE_LABEL, WIDTH
from tournament.rules.charts.tricks import TableTricks, TrickMark, table_summary, tricks_svg

__all__ = [
    "CLASH_TITLES",
    "DASHES",
    "DIFFERED_TITLE",
    "DISPUTES_TITLE",
    "FLOW_TITLE",
    "GLYPH_WIDTH",
    "HEIGHT",
    "KIND_SYMBOLS",
    "PALETTE",
    "ROUND_LABEL",
    "TABLE_LABEL",
    "WIDTH",
    "ChoiceBar",
    "GridCell",
    "PlayerPath",
    "TableTricks",
    "TrickMark",
    "WordCount",
    "biggest_moves",
    "choice_bars_svg",
    "count_words",
    "flow_svg",
    "grid_svg",
    "paths_svg",
    "scale_svg",
    "table_summary",
    "tricks_svg",
    "word_cloud_svg",
    "word_key",
]
