"""The rounds of an event: timed periods of play, numbered 1..N.

Terms:
    round    a timed period of play, numbered 1..N. A round is *planned* once its
             seating exists, *open* while games are reported, *closed* once the
             organizer has confirmed its results and the next round's seating.
    standing the games each seated player won in a round, per table: what movement
             reads (``Round.games_won_by_table``, tournament.rules.movement).
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _


class RoundStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Round(models.Model):
    # By name: tournament.models.event builds on this module.
    event = models.ForeignKey("Event", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=RoundStatus, default=RoundStatus.PLANNED
    )
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}

    @property
    def is_open(self) -> bool:
        return self.status == RoundStatus.OPEN

    @property
    def is_closed(self) -> bool:
        return self.status == RoundStatus.CLOSED

    def table_sizes(self) -> dict[int, int]:
        """Players seated at each table number in this round; one query."""
        return dict(
            self.seats.values_list("table__number")
            .annotate(n=Count("id"))
            .values_list("table__number", "n")
        )

    def games_won_by_table(self) -> dict[int, dict[str, int]]:
        """Games won by each seated player, per table number; every table of the event is
        present (empty or not), because movement goes to the next *existing* table.

        A disputed game counts for nobody until the organizer settles it. Two queries.
        """
        standings: dict[int, dict[str, int]] = {
            number: {} for number in self.event.tables.values_list("number", flat=True)
        }
        wins = Counter(self.games.counted().values_list("winner_id", flat=True))
        for table_number, player_id, name in self.seats.values_list(
            "table__number", "player_id", "player__name"
        ):
            standings.setdefault(table_number, {})[name] = wins.get(player_id, 0)
        return standings
