"""Tables, their hidden variants, and reported games.

Terms:
    table     a numbered card table of an event (1..N; higher is better). Its phone
              link carries a secret token, which the organizer can rotate.
    variant   the table's hidden rules: ace high or low, trump suit, whether a trump
              may be played at any time, and the newer clauses (no trump, trumps
              broken, must beat the best card, fewest tricks wins; see tables.rules.variants).
    game      one hand played at a table in a round, numbered 1, 2, ... in the order
              reported. Its winner is the player with most tricks (tables.rules.scoring).
    report    one phone's (or the organizer's) statement of a game's result. The first
              report creates the game; a second that names the same winner confirms it;
              one that names another winner makes the game *disputed* until the
              organizer settles it. A report that reaches a closed round is kept as
              *late* for the organizer to accept or drop; one from a phone that already
              reported at another table in the round is *held* for the organizer the
              same way (tables.writes.reporting). Each report carries a key made by the
              client, so a retried request is stored once.
    phone     the random id a phone keeps in a long-lived cookie (``ft_phone``), stored
              on its reports: two reports from one phone never confirm a game, and a
              phone seen at two tables in one round is held.
    sighting  a phone seen polling its table's page: the newest time each phone reached
              each table (PhoneSighting), so the console can count the phones in the room
              before play starts (tables.writes.sightings writes them in batches).
    report label how the organizer tells the reports of one game apart: their order and
              time of arrival ("second report (12:03:58): Bob").
    correction a record of who changed or deleted a game, and what it was before.
    printed   the table's kit (tent card, rule sheet, players' guide) was last opened for
              printing at ``printed_at``, showing the variant and link in
              ``printed_signature``. Opening the kit page counts as printing.
    needs reprint printed, and its variant or link changed since: the paper on the table
              and the phones disagree until the organizer prints that table again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from datetime import datetime
from functools import cache

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tables.rules.variants import Suit, Variant, check_variants
from tournament.common import stages, wake
from tournament.common.isolation import with_names
from tournament.models import Event, Player, Round, looks_like_token, new_secret_token

# The Table fields that hold a variant, for bulk updates (with "trump").
VARIANT_FIELDS: tuple[str, ...] = (
    "ace_high",
    "trump_anytime",
    "no_trump",
    "trumps_broken",
    "must_overtake",
    "fewest_wins",
)


@cache
def _bump_sql(model: type[models.Model], *, returning: bool) -> str:
    # Names from the model, so a renamed table or column cannot leave this behind.
    meta = model._meta
    field = meta.get_field("version")
    # get_field finds reverse relations too, which have no column; "version" is a column.
    assert isinstance(field, models.Field)
    version = field.column
    return (
        f'UPDATE "{meta.db_table}" SET "{version}" = "{version}" + 1 '
        f'WHERE "{meta.pk.column}" = %s' + (f' RETURNING "{version}"' if returning else "")
    )


class TableQuerySet(models.QuerySet["Table"]):
    def for_token(self, token: str) -> TableQuerySet:
        """The table a phone link names: none for a token that we cannot have made."""
        if not looks_like_token(token):
            return self.none()
        return self.filter(token=token)

    def bump_version(self, *, table_id: int, event_id: int) -> int | None:
        """Tell the screens that one table's games changed: the console and projector
        (the event's version) and that table's phones, not every other table's. Returns
        the table's new version (None: no such table), for the ETag of a phone's answer:
        one UPDATE … RETURNING (SQLite 3.35 and PostgreSQL), not an UPDATE and a read.
        Both are prepared SQL: a report runs them while it holds the write lock."""
        with connection.cursor() as cursor:
            cursor.execute(_bump_sql(Event, returning=False), (event_id,))
            cursor.execute(_bump_sql(Table, returning=True), (table_id,))
            found = cursor.fetchone()
        wake.wake_after_commit()  # the live channels
        stages.mark("written")
        return None if found is None else found[0]

    def mark_printed(self, tables: Sequence[Table], *, at: datetime | None = None) -> None:
        """Record that ``tables`` were printed as the caller loaded them: one UPDATE.

        Each table keeps the signature the kit showed, not the one stored now, so a change
        that lands while the kit is being drawn still asks for a reprint. When one of them
        needed a reprint the event's version is bumped too (the phones' shared version is
        left alone), so the console's polling drops its warning without a reload.
        """
        if not tables:
            return
        at = at or timezone.now()
        cleared_events = {table.event_id for table in tables if table.needs_reprint}
        signature = Case(
            *(When(pk=table.pk, then=Value(table.print_signature)) for table in tables),
            output_field=models.CharField(),
        )
        # One UPDATE is a transaction of its own; only the event's bump must land with it,
        # and goes first: the event's row before its tables', as every bridge locks them
        # (EventQuerySet.lock), so this never holds a table a report waits for.
        with transaction.atomic() if cleared_events else nullcontext():
            if cleared_events:
                Event.objects.filter(pk__in=cleared_events).update(version=F("version") + 1)
            self.filter(pk__in=[table.pk for table in tables]).update(
                printed_at=at, printed_signature=signature
            )
        for table in tables:
            table.printed_at = at
            table.printed_signature = table.print_signature


class Table(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    token = models.CharField(max_length=64, unique=True, default=new_secret_token)
    ace_high = models.BooleanField(_("ace high"), default=True)
    trump = models.CharField(
        _("trump suit"),
        max_length=10,
        choices=[(suit.value, suit.value) for suit in Suit],
        default=Suit.HEARTS.value,
    )
    trump_anytime = models.BooleanField(_("trump may be played at any time"), default=False)
    # The clauses beyond the classic three (tables.rules.variants); a no-trump table's ``trump``
    # is a placeholder.
    no_trump = models.BooleanField(_("no trump"), default=False)
    trumps_broken = models.BooleanField(_("trumps led only once broken"), default=False)
    must_overtake = models.BooleanField(_("must beat the best card"), default=False)
    fewest_wins = models.BooleanField(_("fewest tricks wins"), default=False)
    variant_set_by_hand = models.BooleanField(default=False)
    # A mixed room prints some tables' sheets in another language; blank follows the event.
    sheet_language = models.CharField(
        _("rule sheet language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        default="",
    )
    # One table's rules shown at the debrief; Event.rules_revealed shows them all.
    revealed = models.BooleanField(_("rules revealed on the projector"), default=False)
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text=_("Bumped by every change to this table's games.")
    )
    # The table's video room at a screen event (tables.rules.silent_channel); blank
    # follows the event's pattern.
    video_link = models.CharField(_("video link"), max_length=500, blank=True, default="")
    printed_at = models.DateTimeField(_("kit printed at"), null=True, blank=True, editable=False)
    printed_signature = models.CharField(
        max_length=100,
        blank=True,
        editable=False,
        help_text=_("The variant and phone link the printed kit shows."),
    )

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    @property
    def rule_sheet_language(self) -> str:
        """The language this table's rule sheet is printed in: its own, else the event's."""
        return self.sheet_language or self.event.language

    @property
    def variant(self) -> Variant:
        return Variant(
            ace_high=self.ace_high,
            trump=Suit(self.trump),
            trump_anytime=self.trump_anytime,
            no_trump=self.no_trump,
            trumps_broken=self.trumps_broken,
            must_overtake=self.must_overtake,
            fewest_wins=self.fewest_wins,
        )

    def set_variant(self, variant: Variant) -> None:
        for field in VARIANT_FIELDS:
            setattr(self, field, getattr(variant, field))
        self.trump = variant.trump.value

    def rotate_token(self) -> None:
        self.token = new_secret_token()
        self.save(update_fields=["token"])

    @property
    def print_signature(self) -> str:
        """What of this table goes on paper and can change after printing: the variant
        (the rule sheet), the token (the QR code) and the sheet's language. English is left
        out, so the papers of events printed before there were languages stay current."""
        language = self.rule_sheet_language
        signature = f"{self.variant.code} {self.token}"
        return signature if language == settings.LANGUAGE_CODE else f"{signature} {language}"

    @property
    def needs_reprint(self) -> bool:
        """Printed, and the variant or link changed since: the paper is out of date."""
        return self.printed_at is not None and self.printed_signature != self.print_signature


def variant_warnings(
    tables: Iterable[Table], anytime_share: float, disruptive_share: float = 1.0
) -> list[str]:
    """Translated problems with an event's variants (neighbours alike, too many anytime or
    disruptive tables), from its tables in any order."""
    variants = [table.variant for table in sorted(tables, key=lambda table: table.number)]
    return check_variants(
        variants,
        anytime_share,
        translate=gettext,
        disruptive_share=disruptive_share,
        ngettext=ngettext,
    )


class GameStatus(models.TextChoices):
    UNCONFIRMED = "unconfirmed", _("Reported once")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")
    SETTLED = "settled", _("Settled by the organizer")


class GameQuerySet(models.QuerySet["Game"]):
    def counted(self) -> GameQuerySet:
        """Games whose winner counts in the results (a disputed one counts for nobody)."""
        return self.exclude(status=GameStatus.DISPUTED).filter(winner__isnull=False)

    def needing_attention(self) -> GameQuerySet:
        return self.filter(status__in=[GameStatus.UNCONFIRMED, GameStatus.DISPUTED])


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="games_won"
    )
    tricks = models.JSONField(
        _("tricks per player"),
        null=True,
        blank=True,
        help_text=_("Player id to tricks taken, when the reporter entered them."),
    )
    finished = models.BooleanField(_("finished"), default=True)
    status = models.CharField(max_length=12, choices=GameStatus, default=GameStatus.UNCONFIRMED)
    reported_by = models.CharField(_("reported by"), max_length=80, blank=True)
    reported_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table__number", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "number"], name="one_game_per_number_per_table"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=Q(status="disputed") | Q(winner__isnull=False),
                name="game_has_winner_unless_disputed",
            ),
        ]

    def __str__(self) -> str:
        return _("Game %(number)s") % {"number": self.number}

    def status_after_report(self, winner_id: int) -> str | None:
        """What one more report naming ``winner_id`` (a phone's or a paper row's) makes of
        this game: CONFIRMED, DISPUTED, or None when it stays as it is. A disputed game
        stays disputed and a settled one stays as the organizer decided."""
        if self.status in (GameStatus.DISPUTED, GameStatus.SETTLED):
            return None
        if self.winner_id == winner_id:
            return GameStatus.CONFIRMED if self.status == GameStatus.UNCONFIRMED else None
        return GameStatus.DISPUTED

    def report_labels(self) -> list[str]:
        """GameReport.label for each report of this game, in the order they arrived.

        Reads ``self.reports.all()``, so a prefetch of the reports (with their winners)
        answers it without a query per game.
        """
        # Sorted here rather than ordered in SQL, which would bypass the prefetch.
        arrived = sorted(self.reports.all(), key=lambda report: (report.received_at, report.pk))
        return [report.label(position) for position, report in enumerate(arrived, start=1)]


class ReportState(models.TextChoices):
    COUNTED = "counted", _("Counted")
    LATE = "late", _("Arrived after the round closed")
    HELD = "held", _("Held: this phone reported at another table")
    ACCEPTED = "accepted", _("Accepted late")
    DROPPED = "dropped", _("Dropped")


class ReportSource(models.TextChoices):
    PHONE = "phone", _("Table phone")
    PLAYER = "player", _("Player's phone")
    ORGANIZER = "organizer", _("Organizer")
    PAPER = "paper", _("Paper tally sheet")


# The reports the organizer accepts or drops (the console's "reports to check").
KEPT_FOR_THE_ORGANIZER = (ReportState.LATE, ReportState.HELD)


class GameReport(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="reports")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    game_number = models.PositiveSmallIntegerField(_("game"))
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports"
    )
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    tricks = models.JSONField(null=True, blank=True)
    finished = models.BooleanField(default=True)
    client_key = models.CharField(max_length=64, unique=True)
    state = models.CharField(max_length=10, choices=ReportState, default=ReportState.COUNTED)
    source = models.CharField(max_length=10, choices=ReportSource, default=ReportSource.PHONE)
    received_at = models.DateTimeField(auto_now_add=True)
    # The phone's own id (its ft_phone cookie); empty from paper, the organizer, or a
    # phone that keeps no cookie.
    phone = models.CharField(max_length=32, blank=True, default="")
    # Why a report is held: the table where the same phone reported earlier in the round.
    other_table_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["received_at", "pk"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.CheckConstraint(
                condition=Q(game_number__gte=1), name="report_game_number_positive"
            ),
        ]
        indexes = [models.Index(fields=["round", "phone"], name="report_round_phone")]

    def __str__(self) -> str:
        return f"{self.table} · {self.round} · game {self.game_number}: {self.winner}"

    @property
    def hold_note(self) -> str:
        """Why the organizer should check this report, or "" when nothing is odd."""
        if self.other_table_number is None:
            return ""
        return gettext("This phone reported at table %(table)s this round.") % {
            "table": self.other_table_number
        }

    def label(self, position: int) -> SafeString:
        """This report as the organizer reads it beside the other reports of its game: its
        place in the order of arrival (1 = first), the time it arrived, and the winner it
        named, for a page: escaped, the name isolated in a <bdi> (tournament.templatetags.
        names), so a right-to-left name never swaps places with the time."""
        values = {
            "time": time_format(timezone.localtime(self.received_at), "H:i:s"),
            "name": self.winner.name,
            "position": position,
        }
        # One message per place rather than an ordinal built in code: languages inflect
        # "first", "second" and "third" in ways a number cannot.
        if position == 1:
            message = gettext("first report (%(time)s): %(name)s")
        elif position == 2:
            message = gettext("second report (%(time)s): %(name)s")
        elif position == 3:
            message = gettext("third report (%(time)s): %(name)s")
        else:
            message = gettext("report %(position)s (%(time)s): %(name)s")
        return with_names(message, values, names={"name"})


class CorrectionAction(models.TextChoices):
    CORRECTED = "corrected", _("Corrected")
    DELETED = "deleted", _("Deleted")
    SETTLED = "settled", _("Settled a dispute")
    ADDED = "added", _("Added by the organizer")
    ACCEPTED_LATE = "accepted_late", _("Accepted a late report")
    DROPPED_LATE = "dropped_late", _("Dropped a late report")
    ACCEPTED_HELD = "accepted_held", _("Accepted a held report")
    DROPPED_HELD = "dropped_held", _("Dropped a held report")
    PAPER = "paper", _("Entered from a paper tally sheet")


class GameCorrection(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="corrections")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="corrections")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections"
    )
    game_number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=16, choices=CorrectionAction)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.get_action_display()} · {self.table} · game {self.game_number}"


class PhoneSighting(models.Model):
    """The newest time one phone reached one table's page (see Terms: sighting)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sightings")
    phone = models.CharField(max_length=32)
    last_seen = models.DateTimeField()

    class Meta:
        verbose_name = _("phone sighting")
        verbose_name_plural = _("phone sightings")
        constraints = [
            models.UniqueConstraint(fields=["table", "phone"], name="sighting_one_per_phone"),
        ]
        indexes = [models.Index(fields=["table", "last_seen"], name="sighting_recent")]

    def __str__(self) -> str:
        return f"{self.phone} at {self.table_id}, {self.last_seen:%H:%M:%S}"


# The screen tables' rows, in modules of their own (naming Table and Game by string).
from tables.models.screen_play import (  # noqa: E402
    Deal,
    DealEnd,
    GameClaim,
    Play,
    Pointing,
    ScreenSeat,
    ScreenSighting,
    TakenTrick,
)  # fmt: skip
from tables.models.silent_channel import Gesture, Stroke  # noqa: E402

__all__ = [
    "KEPT_FOR_THE_ORGANIZER",
    "VARIANT_FIELDS",
    "CorrectionAction",
    "Deal",
    "DealEnd",
    "Game",
    "GameClaim",
    "GameCorrection",
    "GameQuerySet",
    "GameReport",
    "GameStatus",
    "Gesture",
    "PhoneSighting",
    "Play",
    "Pointing",
    "ReportSource",
    "ReportState",
    "ScreenSeat",
    "ScreenSighting",
    "Stroke",
    "Table",
    "TableQuerySet",
    "TakenTrick",
    "variant_warnings",
]
