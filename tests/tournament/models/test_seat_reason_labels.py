"""Each move's reason in words, for any count of games."""

from __future__ import annotations

from tournament.models import SeatReason, reason_label


def test_no_games_at_the_top_table_is_not_most_games():
    assert reason_label(SeatReason.STAYS_AT_TOP, 0) == (
        "No game won at the top table: stays, first by name"
    )
    assert (
        reason_label(SeatReason.MOVES_UP, 0) == "No game won at the table: moves up, first by name"
    )
    assert reason_label(SeatReason.STAYS_AT_TOP, 2) == "Most games at the top table: stays"
    assert reason_label(SeatReason.MOVES_UP, None) == "Most games: moves up"
    assert reason_label(SeatReason.MOVES_DOWN, 0) == "Fewest games: moves down"
