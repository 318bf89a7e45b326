"""Creating tables and seating players: the bridge between the pure plan and the database.

Terms:
    seating       who sits at which table in a round: the home tables and moves by hand
                  (tournament.writes.seating.seats), the roster's changes
                  (tournament.writes.seating.roster), the next round by the moves
                  (tournament.writes.seating.next_round).
    kit           what a table's printed kit carries: its variant, its phone link and its
                  sheet's language (tournament.writes.seating.kit).

Each function here writes several models in one transaction and bumps the event's
version so that every screen refreshes. Each locks the event's row first
(Event.objects.lock), so two organizer tabs (or a tab and a round close) never
interleave their reads and writes. Callers import from here.
"""

from __future__ import annotations

from tournament.writes.seating.kit import (
    redraw_table_variant,
    redraw_variants,
    rotate_table_link,
    set_sheet_language,
    set_table_variant,
    use_classic_variants,
)
from tournament.writes.seating.links import give_player_new_link
from tournament.writes.seating.next_round import seat_next_round
from tournament.writes.seating.roster import (
    PlayersAdded,
    StatusChanged,
    add_players,
    has_history,
    joining_note,
    remove_player,
    rename_player,
    set_player_status,
)
from tournament.writes.seating.seats import move_player, seat_players

__all__ = [
    "PlayersAdded",
    "StatusChanged",
    "add_players",
    "give_player_new_link",
    "has_history",
    "joining_note",
    "move_player",
    "redraw_table_variant",
    "redraw_variants",
    "remove_player",
    "rename_player",
    "rotate_table_link",
    "seat_next_round",
    "seat_players",
    "set_player_status",
    "set_sheet_language",
    "set_table_variant",
    "use_classic_variants",
]
