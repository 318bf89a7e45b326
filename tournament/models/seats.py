"""Who sits at which table in which round, and why.

Terms:
    seat     who sits at which table in which round. Round 1's seats are the home
             tables, where players also study and practise.
    move up / move down
             after a round, a table's best player(s) go to the next higher-numbered
             table and its worst player(s) to the next lower one; a seat records the
             table its player came from and why (see tournament.rules.movement).
    earned   where the seating rule put a player before the organizer placed them by hand
             (``earned_table``, ``earned_reason``), so placing them back restores the move.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.players import Player
from tournament.models.rounds import Round


class SeatReason(models.TextChoices):
    """Why a player sits where they sit; the movement reasons plus how seating began."""

    HOME = "home", _("Home table")
    MOVES_UP = "moves_up", _("Most games: moves up")
    MOVES_DOWN = "moves_down", _("Fewest games: moves down")
    STAYS_AT_TOP = "stays_at_top", _("Most games at the top table: stays")
    STAYS_AT_BOTTOM = "stays_at_bottom", _("Fewest games at the bottom table: stays")
    STAYS = "stays", _("Stays")
    RETURNING = "returning", _("Back in the game")
    JOINING = "joining", _("New: joins the game")
    PLACED = "placed", _("Placed by the organizer")


# A player who won no game leads a table only when nobody there won one: the alphabet put
# them first, and "Most games" would claim games they never won.
_WITHOUT_GAMES = {
    SeatReason.STAYS_AT_TOP: _("No game won at the top table: stays, first by name"),
    SeatReason.MOVES_UP: _("No game won at the table: moves up, first by name"),
}


def reason_label(reason: str, games_won_before: int | None) -> str:
    """Why a player sits here, in words, true to the games they won before."""
    if games_won_before == 0 and reason in _WITHOUT_GAMES:
        return str(_WITHOUT_GAMES[SeatReason(reason)])
    return str(SeatReason(reason).label) if reason in SeatReason.values else ""


class Seat(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="seats")
    from_table = models.ForeignKey(
        "tables.Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The table this player sat at in the previous round."),
    )
    reason = models.CharField(max_length=16, choices=SeatReason, default=SeatReason.HOME)
    games_won_before = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Games won in the previous round.")
    )
    tie_broken = models.BooleanField(
        default=False, help_text=_("Alphabetical order decided this move.")
    )
    # Where the seating rule put the player before the organizer placed them by hand, so
    # that placing them back there restores the move they earned.
    earned_table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    earned_reason = models.CharField(max_length=16, choices=SeatReason, blank=True)

    class Meta:
        ordering = ["round", "table__number", "player__name"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"], name="one_seat_per_player_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.table} ({self.round})"

    @property
    def reason_words(self) -> str:
        """Why the player sits here, true to the games they won before (reason_label)."""
        return reason_label(self.reason, self.games_won_before)
