"""What happens at a table whose cards are on screens: deals, plays, pointing, taken tricks,
and which device holds each player's seat. The rules of it are tables.rules.screen_play.

Terms:
    deal      one game at a screen table (``Deal``): the seats in their order, every hand
              as dealt, the dealer and the first leader. Practice deals (``practice``) are
              played before round 1 and never counted. A deal ends played out, cut off by
              the round's end (its tricks so far count, as at a real table), or ended by the
              organizer; a counted one then points at the game it recorded.
    play      one card put into a trick (``Play``), stored once: the client's key makes a
              retried request a no-op, and a card or a player's turn in a trick is taken once.
    pointing  one player pointing at the card they think wins a complete trick
              (``Pointing``). Every change is a new row with its time: the latest per player
              is where they point now, and the rows are the disagreement's story.
    claim     at an event with a scoring clause, one player pointing at who won the game
              (``GameClaim``, tables.rules.game_claims), with the count of tricks taken when
              they pointed. Every change is a new row, as a pointing is; the game itself is
              recorded (a ``Game``) only once the table agrees or the organizer settles.
    taken     a trick that went to a player (``TakenTrick``): by agreement, or settled by the
              organizer (``settled_by``). ``complete_at`` is when its last card was played,
              so the time to settle is ``taken_at - complete_at``.
    seat holder the device that holds a player's seat (``ScreenSeat``), the only one shown
              the hand: the first to open their link, or the one that last pressed "Play
              on this device" (tables.views.screen); an empty device is nobody (the holder
              freed it). Another device takes the seat over only by that press, once the
              holder freed it or was not seen for minutes (tables.reads.screen_play:
              seat_is_free); the former holder is told so and its plays are refused.
              ``seen_at`` is when the holder last showed up or acted; with the sightings,
              it tells a player who is gone.
    sighting  a screen of the player seen by the server (``ScreenSighting``): its page
              opened from a browser that keeps cookies, its live part fetched, its live
              channel open. Whichever device it is, holder or not: a sighting says the
              player has a screen open, and takes no seat (tables.writes.screen_seats:
              note_seen).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Round

CARD_MAX_LENGTH = 2  # "7H"
CLIENT_KEY_MAX_LENGTH = 64


class DealEnd(models.TextChoices):
    PLAYED_OUT = "played", _("played out")
    TIME_UP = "time", _("cut off by the end of the round")
    ORGANIZER = "ended", _("ended by the organizer")
    ABANDONED = "dropped", _("not counted")


class Deal(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="deals")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("game"))
    practice = models.BooleanField(default=False)
    seed = models.PositiveBigIntegerField()
    seats = models.JSONField()  # player ids, in seat order
    hands = models.JSONField()  # {player id: [cards]} as dealt
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    leader = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    dealt_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    end = models.CharField(max_length=8, choices=DealEnd, blank=True, default="")
    game = models.OneToOneField(
        "tables.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="deal"
    )

    class Meta:
        ordering = ["round", "table", "practice", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "practice", "number"], name="deal_number_unique"
            ),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(ended_at__isnull=True),
                name="deal_one_in_play_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · game {self.number}"

    @property
    def hands_by_player(self) -> dict[int, tuple[str, ...]]:
        return {int(player): tuple(cards) for player, cards in self.hands.items()}


class Play(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="plays")
    trick = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    card = models.CharField(max_length=CARD_MAX_LENGTH)
    played_at = models.DateTimeField(default=timezone.now)
    by_organizer = models.BooleanField(default=False)
    client_key = models.CharField(max_length=CLIENT_KEY_MAX_LENGTH, unique=True)

    class Meta:
        ordering = ["deal", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "card"], name="play_card_once"),
            models.UniqueConstraint(fields=["deal", "trick", "player"], name="play_once_per_trick"),
        ]

    def __str__(self) -> str:
        return f"{self.deal} · trick {self.trick} · {self.card}"


class Pointing(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="pointings")
    trick = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    card = models.CharField(max_length=CARD_MAX_LENGTH)
    pointed_at = models.DateTimeField(default=timezone.now)
    client_key = models.CharField(max_length=CLIENT_KEY_MAX_LENGTH, unique=True)

    class Meta:
        ordering = ["deal", "trick", "pk"]
        indexes = [models.Index(fields=["deal", "trick"], name="pointing_trick")]

    def __str__(self) -> str:
        return f"{self.deal} · trick {self.trick} · {self.player_id} → {self.card}"


class GameClaim(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="claims")
    taken = models.PositiveSmallIntegerField()  # tricks taken when the player pointed
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    claimed_at = models.DateTimeField(default=timezone.now)
    client_key = models.CharField(max_length=CLIENT_KEY_MAX_LENGTH, unique=True)

    class Meta:
        ordering = ["deal", "pk"]
        verbose_name = _("game claim")
        verbose_name_plural = _("game claims")

    def __str__(self) -> str:
        return f"{self.deal} · {self.player_id} → {self.winner_id}"


class TakenTrick(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="taken")
    number = models.PositiveSmallIntegerField()
    taker = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    card = models.CharField(max_length=CARD_MAX_LENGTH)
    complete_at = models.DateTimeField()
    taken_at = models.DateTimeField(default=timezone.now)
    disagreed = models.BooleanField(default=False)
    settled_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    settled = models.BooleanField(default=False)

    class Meta:
        ordering = ["deal", "number"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "number"], name="trick_taken_once"),
        ]

    def __str__(self) -> str:
        return f"{self.deal} · trick {self.number} → {self.taker_id}"


class ScreenSeat(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="screen_seat")
    device = models.CharField(max_length=32)
    seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.player_id} on {self.device}"


class ScreenSighting(models.Model):
    """The newest time any screen of a player showed up (see Terms: sighting)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="screen_sighting"
    )
    last_seen = models.DateTimeField()

    class Meta:
        verbose_name = _("screen sighting")
        verbose_name_plural = _("screen sightings")

    def __str__(self) -> str:
        return f"{self.player_id} seen {self.last_seen:%H:%M:%S}"
