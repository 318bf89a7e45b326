"""What the organizer's console shows, read from the database in a constant number of queries.

Terms:
    console        ONE page per event with sections: phase and clock, the round panel
                   (close, undo), late reports, tables, roster, table plan, variants and
                   the corrections log (tournament.reads.console.page, which defines the
                   seating round and the results round).
    table view     one table in one round, game by game (tournament.reads.console.table_view).
    close check    what closing a round would do, per table
                   (tournament.reads.console.close_check).

Every builder loads players, tables, rounds, seats and games once each and joins them in
Python, so a page costs the same whatever the headcount. Nothing here reads a request:
the views add what depends on one (forms, messages, URLs). Callers import from here.
"""

from __future__ import annotations

from tournament.reads.console.close_check import (
    CloseCheck,
    Dispute,
    MoveBlock,
    MoveLine,
    absent_note,
    build_close_check,
)
from tournament.reads.console.page import (
    CORRECTIONS_ON_CONSOLE,
    MOVE_DIRECTIONS,
    Console,
    RosterLine,
    SeatLine,
    TableCard,
    build_console,
    optional_url,
    seating_and_results,
)
from tournament.reads.console.table_view import (
    GameLine,
    TableView,
    build_table_view,
    labelled_reports,
)

__all__ = [
    "CORRECTIONS_ON_CONSOLE",
    "MOVE_DIRECTIONS",
    "CloseCheck",
    "Console",
    "Dispute",
    "GameLine",
    "MoveBlock",
    "MoveLine",
    "RosterLine",
    "SeatLine",
    "TableCard",
    "TableView",
    "absent_note",
    "build_close_check",
    "build_console",
    "build_table_view",
    "labelled_reports",
    "optional_url",
    "seating_and_results",
]
