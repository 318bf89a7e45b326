"""The event: one tournament run by one organizer, and where it stands.

Terms:
    event    one tournament run by one organizer: a roster, tables, phases and rounds.
    phase    where the event stands (tournament.models.phases): setup, study, practice, a
             round, between rounds, debrief.
    clock    kept on the server as an end time (or the time left while paused), so
             every screen shows the same countdown and a reload changes nothing; read and
             stepped through ``Event.clock`` (tournament.rules.clock).
    version  a counter bumped by every write that a screen could show (and that wakes the
             live channels); polling screens compare it to answer "nothing changed"
             cheaply. The *shared version* leaves out one table's games (their table's).
    lock     every write spanning an event's rows takes the event's row first
             (``Event.objects.lock``), so two requests for one event run one after the other.
    difference set
             which hidden differences the event's variant draw may use (tournament.rules.cards).
    finished / archived
             a finished event is read-only until reopened; an archived one leaves the
             organizer's list.

The rounds and the co-facilitators refer to the event by name ("Event"): this module builds
on theirs. The players, seats, debrief questions and notes build on this one.
"""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connections, models, transaction
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.common import stages
from tournament.common.wake import wake_after_commit
from tournament.models.cofacilitators import CoFacilitator
from tournament.models.event_clock import EventClock
from tournament.models.phases import (
    PHASE_TITLES,
    DebriefStep,
    PathsHighlight,
    Phase,
)
from tournament.models.rounds import Round, RoundStatus
from tournament.models.tokens import (
    looks_like_token,
    new_secret_token,
    new_seed,
    new_video_secret,
)
from tournament.rules.cards import (
    DEFAULT_DISRUPTIVE_SHARE,
    NEW_CLAUSES,
    Clause,
    DifferenceSet,
    difference_clauses,
)


@cache
def _lock_sql(lock: str) -> str:
    """The event's row by id, locked where the database locks rows (see EventQuerySet.lock)."""
    meta = Event._meta
    columns = ", ".join(f'"{field.column}"' for field in meta.concrete_fields)
    sql = f'SELECT {columns} FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s'
    return f"{sql} {lock}".rstrip()


class EventQuerySet(models.QuerySet["Event"]):
    def visible_to(self, user) -> EventQuerySet:
        """The events this user organizes (a superuser: every event)."""
        if user.is_superuser:
            return self
        return self.filter(owner=user)

    def reachable_by(self, user) -> EventQuerySet:
        """The events this user organizes, and the one they co-facilitate while their
        invitation is not revoked (checked on every request, so revoking works at once)."""
        if user.is_superuser:
            return self
        helping = CoFacilitator.objects.active().filter(user=user).values("event_id")
        return self.filter(Q(owner=user) | Q(pk__in=helping))

    def for_players_token(self, token: str) -> EventQuerySet:
        """The event a players link names: none for a token that we cannot have made."""
        if not looks_like_token(token):
            return self.none()
        return self.filter(players_token=token)

    def lock(self, event_id: int, *, one_table: bool = False) -> Event:
        """The event as it stands now, its row locked until the transaction ends. Every
        bridge that writes an event's rows calls this first, inside its transaction, so two
        requests for one event run one after the other and the second sees what the first
        committed (a report and a round close, a confirmation and a dispute). SQLite's
        write lock does that for the whole database, taken at BEGIN (IMMEDIATE
        transactions): there FOR UPDATE is left out and this is a plain read. Taking the
        event first, before any other row, keeps two requests from each holding a row
        the other waits for. ``one_table``: a write to one table's play, which then locks
        that table (tables.writes.table_lock): FOR KEY SHARE, so writes at other tables go
        on beside it, and a write to the whole event (FOR UPDATE) waits for them all."""
        # Prepared SQL, not .select_for_update().get(): compiling that query cost more
        # than running it, and every report pays it while it holds the lock (issue 23).
        for_update = connections[self.db].features.has_select_for_update
        if for_update and connections[self.db].get_autocommit():
            # As select_for_update() says: a row lock outside a transaction ends at once.
            raise transaction.TransactionManagementError("Event.objects.lock() needs a transaction")
        lock = ("FOR KEY SHARE" if one_table else "FOR UPDATE") if for_update else ""
        event = next(iter(self.raw(_lock_sql(lock), (event_id,))), None)
        stages.mark("locked")  # where an action's time goes (bench/screen_room.py)
        if event is None:
            raise self.model.DoesNotExist(f"No event {event_id}.")
        return event

    def bump_version(self, event_id: int) -> None:
        """Tell every polling screen that something it shows has changed. A change
        confined to one table's games bumps that table instead
        (tables.models.TableQuerySet.bump_version): the other tables' phones answer 304."""
        self.filter(pk=event_id).update(
            version=F("version") + 1, shared_version=F("shared_version") + 1
        )
        wake_after_commit()


class CardsOn(models.TextChoices):
    TABLE = "table", _("Cards on the table")
    SCREENS = "screens", _("Cards on screens")


class DifferenceSetChoice(models.TextChoices):
    """The organizer's choice of hidden differences (tables.rules.variants.DifferenceSet)."""

    CLASSIC = DifferenceSet.CLASSIC.value, _("Classic: direction, trump, trump any time")
    GENTLE = DifferenceSet.GENTLE.value, _("Classic + gentle: no trump, trumps led once broken")
    DISRUPTIVE = (
        DifferenceSet.DISRUPTIVE.value,
        _("Classic + disruptive: fewest tricks wins, must beat the best card"),
    )
    CUSTOM = DifferenceSet.CUSTOM.value, _("Custom: choose the clauses")


class Event(EventClock, models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("organizer"),
    )
    name = models.CharField(_("name"), max_length=120)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    seed = models.PositiveIntegerField(
        _("seed"),
        default=new_seed,
        help_text=_("Drives the random seating and the variant draw; the same seed repeats them."),
    )
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds"), default=4, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    study_minutes = models.PositiveSmallIntegerField(
        _("study time (minutes)"),
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    practice_minutes = models.PositiveSmallIntegerField(
        _("practice time (minutes)"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
    )
    trump_anytime_share = models.FloatField(
        _("share of tables that may trump at any time"),
        default=0.2,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
    )
    # Which clauses beyond the classic three the variant draw may use (tables.rules.variants).
    difference_set = models.CharField(
        _("differences between tables"),
        max_length=12,
        choices=DifferenceSetChoice,
        default=DifferenceSetChoice.CLASSIC,
    )
    custom_clauses = models.JSONField(
        _("clauses of a custom set"),
        default=list,
        blank=True,
        help_text=_("The new clauses a custom set draws from, by code (tables.variants)."),
    )
    disruptive_share = models.FloatField(
        _("share of tables with a disruptive clause"),
        default=DEFAULT_DISRUPTIVE_SHARE,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text=_(
            "Fewest tricks wins, must beat the best card: at most this share of the tables."
        ),
    )
    # What the room shares is in this language: projector, kit, rule sheets and, unless a
    # player picks another, the phones. The console follows its own browser.
    language = models.CharField(
        _("language of the room"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_(
            "The projector, the printed kit and the rule sheets use it, and so do the "
            "players' phones unless a player picks another language."
        ),
    )
    phase = models.CharField(_("phase"), max_length=16, choices=Phase, default=Phase.SETUP)
    round_number = models.PositiveSmallIntegerField(
        _("current round"),
        default=0,
        help_text=_("The round being played, or the last one closed; 0 before round 1."),
    )
    clock_ends_at = models.DateTimeField(_("clock ends at"), null=True, blank=True)
    clock_paused_remaining = models.DurationField(
        _("time left while paused"), null=True, blank=True
    )
    rules_revealed = models.BooleanField(_("rules revealed on the projector"), default=False)
    # No phones at all (no Wi-Fi, or none allowed): tent cards carry no phone QR code and
    # the kit prints each table's paper tally sheet instead (tables.rules.tally).
    # Made by demo_event (and serve on an empty database) to try the screens on: the event
    # list marks it, so it is never taken for a real event.
    is_rehearsal = models.BooleanField(
        _("rehearsal"),
        default=False,
        help_text=_("A rehearsal event with played rounds, made to try the screens on."),
    )
    paper_only = models.BooleanField(
        _("paper only"),
        default=False,
        help_text=_(
            "No phones: the tent cards carry no QR code, and each table records its games "
            "on a paper tally sheet that you type in."
        ),
    )
    # Where the cards are: on the tables (phones report who won) or on the players'
    # screens (each player's browser holds their hand; tables.rules.screen_play).
    cards = models.CharField(
        _("cards"),
        max_length=10,
        choices=CardsOn,
        default=CardsOn.TABLE,
        help_text=_(
            "On the table: real cards, and phones report who won. On screens: each player "
            "plays from their own phone or laptop, for groups that are not in one room."
        ),
    )
    screen_stall_seconds = models.PositiveSmallIntegerField(
        _("radar: seconds a trick may stay in disagreement"),
        default=60,
        validators=[MinValueValidator(10), MaxValueValidator(600)],
        help_text=_(
            "On screens: a trick whose players point at different cards for this long is "
            "flagged, and you can settle it."
        ),
    )
    # Each screen table's video room, "{event}" and "{table}" filled in
    # (tables.rules.silent_channel); a table's own link wins.
    video_pattern = models.CharField(
        _("video link for every table"), max_length=500, blank=True, default=""
    )
    # In "{event}" (tables.reads.silent_channel.event_room_name): a room's name is its only
    # lock at a public service. A secret: never in a record; an imported copy gets its own.
    video_secret = models.CharField(max_length=32, default=new_video_secret, editable=False)
    debrief_step = models.PositiveSmallIntegerField(
        _("debrief screen"), choices=DebriefStep, default=DebriefStep.OPENING
    )
    debrief_question = models.ForeignKey(
        "DebriefQuestion",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("debrief question shown"),
        help_text=_("The question the projector shows while the debrief screen is a question."),
    )
    paths_highlight = models.CharField(
        _("paths drawn bold"),
        max_length=10,
        choices=PathsHighlight,
        default=PathsHighlight.AUTO,
        blank=True,
    )
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text=_("Bumped by every change any screen shows.")
    )
    shared_version = models.PositiveIntegerField(
        default=1,
        editable=False,
        help_text=_(
            "Bumped by every change except one table's game reports; a table's phones "
            "combine it with the table's own version."
        ),
    )
    projector_token = models.CharField(max_length=64, unique=True, default=new_secret_token)
    players_token = models.CharField(max_length=64, unique=True, default=new_secret_token)
    finished_at = models.DateTimeField(
        _("finished"),
        null=True,
        blank=True,
        help_text=_("When the organizer finished the event; it is read-only since."),
    )
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    # The console's radar (tournament.reads.radar): when a table needs the facilitator.
    radar_quiet_minutes = models.PositiveSmallIntegerField(
        _("radar: minutes without a report"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("A table with no report for this long during a round is flagged."),
    )
    radar_streak = models.PositiveSmallIntegerField(
        _("radar: games won in a row by one player"),
        default=3,
        validators=[MinValueValidator(2), MaxValueValidator(20)],
        help_text=_("A table where one player won every game, and at least this many, is flagged."),
    )
    radar_newcomer_minutes = models.PositiveSmallIntegerField(
        _("radar: minutes of silence after newcomers arrived"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_(
            "A table that received moving players and has reported nothing this long "
            "into the round is flagged."
        ),
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="event_at_least_one_round"
            ),
            models.CheckConstraint(
                condition=Q(round_number__lte=F("rounds_planned")),
                name="event_round_number_within_plan",
            ),
            models.CheckConstraint(
                condition=Q(trump_anytime_share__gte=0) & Q(trump_anytime_share__lte=1),
                name="event_anytime_share_is_a_fraction",
            ),
            models.CheckConstraint(
                condition=Q(disruptive_share__gte=0) & Q(disruptive_share__lte=1),
                name="event_disruptive_share_is_a_fraction",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        """Save; a new event is born with the default debrief bank, in its language, so
        no screen ever meets an event without questions it never had."""
        if not self._state.adding:
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            super().save(*args, **kwargs)
            # The bank's model through its relation: tournament.models.debrief builds on
            # this module, so this one cannot import it.
            self.debrief_questions.model.objects.add_default_bank(self)

    # --- the draw's differences --------------------------------------------------------

    @property
    def draw_clauses(self) -> frozenset[Clause]:
        """The new clauses this event's draw may use; unknown stored codes are ignored."""
        known = {clause.value for clause in NEW_CLAUSES}
        custom = [code for code in self.custom_clauses or [] if code in known]
        return difference_clauses(self.difference_set, custom)

    @property
    def winner_by_sheet(self) -> bool:
        """Whether some table of this event may win a game with the fewest tricks: then the
        pages every table shares (players' guide, projector) leave the winner to the
        sheets, so they give no table away."""
        return Clause.FEWEST_WINS in self.draw_clauses

    # --- the clock -------------------------------------------------------------------
    # The countdown's rules are tournament.rules.clock's; the methods below read the clock
    # for the screens and templates, or take one step and store the clock after it. The
    # steps change the fields only: the caller saves them (save_and_bump).

    def phase_minutes(self, phase: str | None = None) -> int | None:
        minutes: dict[str, int | None] = {
            Phase.STUDY: self.study_minutes,
            Phase.PRACTICE: self.practice_minutes,
            Phase.ROUND: self.round_minutes,
        }
        return minutes.get(phase or self.phase)

    def save_and_bump(self, update_fields: list[str]) -> None:
        """Save the given fields and bump both versions in the same UPDATE."""
        self.version = F("version") + 1
        self.shared_version = F("shared_version") + 1
        self.save(update_fields=[*update_fields, "version", "shared_version"])
        self.refresh_from_db(fields=["version", "shared_version"])
        wake_after_commit()

    # --- finished and archived ---------------------------------------------------------

    @property
    def on_screens(self) -> bool:
        """Whether the players hold their cards on screens (tables.rules.screen_play)."""
        return self.cards == CardsOn.SCREENS

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    @property
    def finished_refusal(self) -> str | None:
        """Why nothing can change in this event, or None while it can: the words every
        refused change to a finished event shows (console actions and phone reports)."""
        if self.finished_at is None:
            return None
        return gettext(
            "This event is finished, so it is read-only: its debrief screens, report and "
            "downloads still work. Reopen it from the console to change anything."
        )

    @property
    def debrief_screen(self) -> DebriefStep:
        return DebriefStep(self.debrief_step)

    @property
    def shows_a_question(self) -> bool:
        """The projector shows a debrief question (the pointer names one)."""
        return self.debrief_step == DebriefStep.QUESTION and self.debrief_question_id is not None

    @property
    def phase_title(self) -> str:
        """Where the event stands, in the words every screen uses (phones, console,
        projector), e.g. "Round 2 of 4"."""
        if self.phase == Phase.ROUND:
            return gettext("Round %(number)s of %(total)s") % {
                "number": self.round_number,
                "total": self.rounds_planned,
            }
        if self.phase == Phase.BETWEEN_ROUNDS:
            return gettext("Round %(number)s is over") % {"number": self.round_number}
        return str(PHASE_TITLES.get(self.phase, self.get_phase_display()))

    @property
    def phase_key(self) -> str:
        """The phase and round a button was shown in, e.g. "round:2": every round shares
        the phase name "round", so a stale button must carry the number too."""
        return f"{self.phase}:{self.round_number}"

    @property
    def current_round(self) -> Round | None:
        if self.round_number == 0:
            return None
        return self.rounds.filter(number=self.round_number).first()

    @property
    def is_last_round(self) -> bool:
        return self.round_number >= self.rounds_planned

    def undo_refusal(
        self, *, last_closed_number: int | None, next_round_has_games: bool
    ) -> str | None:
        """Why the last close cannot be undone, or None when it can.

        Never once the debrief has started: the phones stop asking for news then, so
        they would not see the round open again. Never once the next round has a reported
        game, because undoing would throw results away. The console shows the same words
        that tournament.writes.rounds.undo_close_round refuses with.
        """
        if self.phase == Phase.DEBRIEF:
            return gettext("The debrief has started: the results are final.")
        if last_closed_number is None:
            return gettext("No round has been closed yet.")
        if next_round_has_games:
            refusal = (
                gettext("Round %(number)s has started: the close cannot be undone.")
                if self.on_screens  # a card played there is a game under way
                else gettext(
                    "Round %(number)s already has reported games, so the close cannot be undone."
                )
            )
            return refusal % {"number": last_closed_number + 1}
        return None

    def planned_round(self) -> Round | None:
        """The round whose seating exists but whose play has not started, if any."""
        return self.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()
