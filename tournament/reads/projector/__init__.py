"""What the projector shows, read from the database in a constant number of queries.

Terms:
    screen    what the projector shows now: one per phase, or the room's ladder when asked
              for (tournament.reads.projector.screens, which defines its view, clock,
              debrief, highlight and question).
    board     the players of a screen laid out in columns and pages: the round's standings,
              the moves between rounds, the ladder (tournament.reads.projector.boards, which
              defines its group, row, mark and ladder).
    rule card one table's variant once revealed at the debrief, in pages of cards
              (tournament.reads.projector.rule_cards, which defines the reveal).
    page      what the projector shows at once; it pages through the rest by itself.

Callers import from here.
"""

from __future__ import annotations

from tournament.reads.projector.boards import (
    TIE_MARK,
    TIE_WORDS,
    LegendEntry,
    MoveRow,
    ReasonMark,
    ladder_board,
    moves_board,
    round_standings,
)
from tournament.reads.projector.rule_cards import (
    NO_TRUMP_SYMBOL,
    RULES_AREA_RATIO,
    RULES_MAX_COLUMNS,
    RULES_MAX_ROWS,
    RULES_PER_PAGE,
    RuleCard,
    RulePage,
    revealed_rules,
    rule_grid,
)
from tournament.reads.projector.screens import (
    HIGHLIGHT_CLIMBERS,
    MANY_PATHS,
    Clock,
    Screen,
    ScreenKind,
    View,
    build_screen,
    debrief_screen,
    highlight_count,
)

__all__ = [
    "HIGHLIGHT_CLIMBERS",
    "MANY_PATHS",
    "NO_TRUMP_SYMBOL",
    "RULES_AREA_RATIO",
    "RULES_MAX_COLUMNS",
    "RULES_MAX_ROWS",
    "RULES_PER_PAGE",
    "TIE_MARK",
    "TIE_WORDS",
    "Clock",
    "LegendEntry",
    "MoveRow",
    "ReasonMark",
    "RuleCard",
    "RulePage",
    "Screen",
    "ScreenKind",
    "View",
    "build_screen",
    "debrief_screen",
    "highlight_count",
    "ladder_board",
    "moves_board",
    "revealed_rules",
    "round_standings",
    "rule_grid",
]
