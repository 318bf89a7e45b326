"""Events, players, rounds and seats.

Terms:
    event    one tournament run by one organizer: a roster, tables, phases and rounds.
    phase    where the event stands: setup, study, practice, a round, between rounds
             (a round was closed and its moves are shown), debrief.
    round    a timed period of play, numbered 1..N. A round is *planned* once its
             seating exists, *open* while games are reported, *closed* once the
             organizer has confirmed its results and the next round's seating.
    seat     who sits at which table in which round. Round 1's seats are the home
             tables, where players also study and practise.
    move up / move down
             after a round, a table's best player(s) go to the next higher-numbered
             table and its worst player(s) to the next lower one; a seat records the
             table its player came from and why (see tournament.rules.movement).
    clock    kept on the server as an end time (or the time left while paused), so
             every screen shows the same countdown and a reload changes nothing.
    version  a counter bumped by every write that a screen could show; polling
             screens compare it to answer "nothing changed" cheaply.
    debrief question
             one question of the event's own debrief bank (DebriefQuestion); every event
             is born with the default bank (tournament.rules.debrief_questions), which the
             organizer then edits. The projector shows one at a time
             (Event.debrief_question, with DebriefStep.QUESTION).
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Count, F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.rules.cards import (
    DEFAULT_DISRUPTIVE_SHARE,
    NEW_CLAUSES,
    Clause,
    DifferenceSet,
    difference_clauses,
)
from tournament.rules.debrief_questions import (
    QUESTION_MAX_LENGTH,
    STAGE_TITLES,
    Stage,
    default_bank,
)
from tournament.rules.roster import same_name_key

PLAYER_NAME_MAX_LENGTH = 40
SECRET_TOKEN_BYTES = 24  # 192 bits: unguessable links for tables and projectors


# URL-safe base64 as new_secret_token writes it, at most as long as the token fields.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_secret_token() -> str:
    return secrets.token_urlsafe(SECRET_TOKEN_BYTES)


def looks_like_token(token: str) -> bool:
    """Whether a link's token could be one we made, checked before any query, so a
    mangled link (NUL bytes, spaces, 10 kB) is a 404 and never a database error."""
    return TOKEN_PATTERN.fullmatch(token) is not None


def new_seed() -> int:
    return secrets.randbelow(1_000_000)


class Phase(models.TextChoices):
    SETUP = "setup", _("Setup")
    STUDY = "study", _("Study")
    PRACTICE = "practice", _("Practice")
    ROUND = "round", _("Round")
    BETWEEN_ROUNDS = "between", _("Between rounds")
    DEBRIEF = "debrief", _("Debrief")


class DebriefStep(models.IntegerChoices):
    """The projector's debrief screens: the data screens, and QUESTION for whichever
    debrief question Event.debrief_question points at. The order the organizer steps
    through them is the running order (SCREENS_BEFORE_STAGE), not these numbers."""

    OPENING = 0, _("Debrief: the ladder")
    DISPUTES = 1, _("Where games were disputed")
    CLASHES = 2, _("Which rules met")
    PATHS = 3, _("Every player's path")
    FLOW = 4, _("Moves between tables")
    RESULTS = 5, _("Final results")
    REVEAL = 6, _("Each table's rules")
    QUESTION = 7, _("A debrief question")


# Where the data screens fall among the stages of the talk (see
# tournament.rules.debrief_questions: running order). The ladder opens the debrief and the
# feelings come before any data; the disputes map opens the talk about noticing, the map
# of which rules met the talk about coping; the paths and the moves come before adapting
# or insisting, and the results and the reveal before real teams and workplaces.
SCREENS_BEFORE_STAGE: dict[Stage, tuple[DebriefStep, ...]] = {
    Stage.FEELINGS: (DebriefStep.OPENING,),
    Stage.NOTICING: (DebriefStep.DISPUTES,),
    Stage.COPING: (DebriefStep.CLASHES,),
    Stage.ADAPTING: (DebriefStep.PATHS, DebriefStep.FLOW),
    Stage.REAL_WORLD: (DebriefStep.RESULTS, DebriefStep.REVEAL),
}


class PathsHighlight(models.TextChoices):
    """Which paths the debrief's paths chart draws bold; the values are those of the
    projector's ?highlight= (tournament.reads.projector.highlight_count)."""

    AUTO = "", _("A few, when there are many players")
    CLIMBERS = "climbers", _("The biggest climbers and fallers")
    NONE = "0", _("None: every path alike")


CLOCKED_PHASES = {Phase.STUDY, Phase.PRACTICE, Phase.ROUND}
# Titles of the phases without a round number (Event.phase_title words the others).
PHASE_TITLES = {
    Phase.SETUP: _("Getting ready"),
    Phase.STUDY: _("Study the rules"),
    Phase.PRACTICE: _("Practice"),
    Phase.DEBRIEF: _("Debrief"),
}


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

    def lock(self, event_id: int) -> Event:
        """The event as it stands now, its row locked until the transaction ends.

        Every bridge that writes an event's rows calls this first, inside its transaction,
        so two requests for one event run one after the other and the second sees what
        the first committed (a report and a round close, a confirmation and a dispute).
        SQLite's write lock does that for the whole database, taken at BEGIN (IMMEDIATE
        transactions): there FOR UPDATE is left out and this is a plain read. Taking the
        event first, before any other row, keeps two requests from each holding a row
        the other waits for.
        """
        return self.select_for_update().get(pk=event_id)

    def bump_version(self, event_id: int) -> None:
        """Tell every polling screen that something it shows has changed.

        A change confined to one table's games bumps that table instead
        (tables.models.TableQuerySet.bump_version), so the phones at every other table
        keep answering 304.
        """
        self.filter(pk=event_id).update(
            version=F("version") + 1, shared_version=F("shared_version") + 1
        )


class DifferenceSetChoice(models.TextChoices):
    """The organizer's choice of hidden differences (tables.rules.variants.DifferenceSet)."""

    CLASSIC = DifferenceSet.CLASSIC.value, _("Classic: direction, trump, trump any time")
    GENTLE = DifferenceSet.GENTLE.value, _("Classic + gentle: no trump, trumps led once broken")
    DISRUPTIVE = (
        DifferenceSet.DISRUPTIVE.value,
        _("Classic + disruptive: fewest tricks wins, must play higher"),
    )
    CUSTOM = DifferenceSet.CUSTOM.value, _("Custom: choose the clauses")


class Event(models.Model):
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
        help_text=_("The new clauses a custom set draws from, by code (tables.rules.variants)."),
    )
    disruptive_share = models.FloatField(
        _("share of tables with a disruptive clause"),
        default=DEFAULT_DISRUPTIVE_SHARE,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text=_("Fewest tricks wins, must play higher: at most this share of the tables."),
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
    paper_only = models.BooleanField(
        _("paper only"),
        default=False,
        help_text=_(
            "No phones: the tent cards carry no QR code, and each table records its games "
            "on a paper tally sheet that you type in."
        ),
    )
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
    radar_disputes = models.PositiveSmallIntegerField(
        _("radar: disputes at one table"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_("A table with this many unsettled disputes in the round is flagged."),
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
            DebriefQuestion.objects.add_default_bank(self)

    # --- the clock -------------------------------------------------------------------

    def phase_minutes(self, phase: str | None = None) -> int | None:
        return {
            Phase.STUDY: self.study_minutes,
            Phase.PRACTICE: self.practice_minutes,
            Phase.ROUND: self.round_minutes,
        }.get(phase or self.phase)

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

    @property
    def has_clock(self) -> bool:
        return self.phase in CLOCKED_PHASES and (
            self.clock_ends_at is not None or self.clock_paused_remaining is not None
        )

    @property
    def clock_is_paused(self) -> bool:
        return self.clock_paused_remaining is not None

    def clock_remaining(self, now: datetime | None = None) -> timedelta | None:
        """Time left on the clock, never negative; None when the phase has no clock."""
        if not self.has_clock:
            return None
        if self.clock_paused_remaining is not None:
            return max(self.clock_paused_remaining, timedelta(0))
        return max(self.clock_ends_at - (now or timezone.now()), timedelta(0))

    def clock_seconds_left(self, now: datetime | None = None) -> int | None:
        remaining = self.clock_remaining(now)
        if remaining is None:
            return None
        # Round up so the screens show 0:00 only when time is really up.
        return int(-(-remaining.total_seconds() // 1))

    def time_is_up(self, now: datetime | None = None) -> bool:
        remaining = self.clock_remaining(now)
        return remaining is not None and remaining <= timedelta(0)

    def start_clock(self, minutes: int, now: datetime | None = None) -> None:
        self.clock_ends_at = (now or timezone.now()) + timedelta(minutes=minutes)
        self.clock_paused_remaining = None

    def stop_clock(self) -> None:
        self.clock_ends_at = None
        self.clock_paused_remaining = None

    def pause_clock(self, now: datetime | None = None) -> None:
        if self.has_clock and not self.clock_is_paused:
            self.clock_paused_remaining = self.clock_remaining(now)

    def resume_clock(self, now: datetime | None = None) -> None:
        if self.clock_is_paused:
            self.clock_ends_at = (now or timezone.now()) + self.clock_paused_remaining
            self.clock_paused_remaining = None

    def add_clock_time(self, seconds: int = 60, now: datetime | None = None) -> None:
        extra = timedelta(seconds=seconds)
        if self.clock_is_paused:
            self.clock_paused_remaining += extra
        elif self.has_clock:
            # After time is up, "one more minute" means a minute from now.
            self.clock_ends_at = max(self.clock_ends_at, now or timezone.now()) + extra

    def end_clock_now(self, now: datetime | None = None) -> None:
        if self.has_clock:
            self.clock_ends_at = now or timezone.now()
            self.clock_paused_remaining = None

    def save_and_bump(self, update_fields: list[str]) -> None:
        """Save the given fields and bump both versions in the same UPDATE."""
        self.version = F("version") + 1
        self.shared_version = F("shared_version") + 1
        self.save(update_fields=[*update_fields, "version", "shared_version"])
        self.refresh_from_db(fields=["version", "shared_version"])

    # --- finished and archived ---------------------------------------------------------

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
            return gettext(
                "Round %(number)s already has reported games, so the close cannot be undone."
            ) % {"number": last_closed_number + 1}
        return None

    def planned_round(self) -> Round | None:
        """The round whose seating exists but whose play has not started, if any."""
        return self.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()


class PlayerStatus(models.TextChoices):
    PRESENT = "present", _("Present")
    ABSENT = "absent", _("Absent")
    REMOVED = "removed", _("Removed")


class PlayerQuerySet(models.QuerySet["Player"]):
    def bulk_create(self, objs, *args, **kwargs):
        # bulk_create skips save(), where the name key is set.
        objs = list(objs)
        for player in objs:
            player.name_key = same_name_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)

    def seatable(self) -> PlayerQuerySet:
        return self.filter(status=PlayerStatus.PRESENT)

    def on_roster(self) -> PlayerQuerySet:
        return self.exclude(status=PlayerStatus.REMOVED)


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX_LENGTH)
    # The name with case and accents folded, computed in Python (tournament.rules.roster), so
    # SQLite and PostgreSQL refuse exactly the names the roster check refuses.
    name_key = models.TextField(editable=False, default="")
    # Removed players stay in the database so that past rounds stay as they were.
    status = models.CharField(
        _("status"), max_length=10, choices=PlayerStatus, default=PlayerStatus.PRESENT
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "name_key"],
                name="player_name_unique_per_event",
                violation_error_message=_("This event already has a player with that name."),
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = same_name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class RoundStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
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


class SignInAttemptQuerySet(models.QuerySet["SignInAttempt"]):
    def since(self, moment: datetime) -> SignInAttemptQuerySet:
        return self.filter(attempted_at__gte=moment)

    def counts(self, *, username: str, address: str, since: datetime) -> tuple[int, int]:
        """How many attempts in the window named this account, and came from this address,
        in one query. An empty username (a cleared account's rows) counts for no account."""
        totals = self.since(since).aggregate(
            account=Count("pk", filter=Q(username=username) & ~Q(username="")),
            address=Count("pk", filter=Q(address=address)),
        )
        return totals["account"], totals["address"]

    def newest_times(self, n: int) -> list[datetime]:
        return list(self.order_by("-attempted_at").values_list("attempted_at", flat=True)[:n])


class SignInAttempt(models.Model):
    """A password sign-in that has not succeeded: under way, or failed.

    tournament.writes.signin writes one before it checks a password and counts them per account
    and per client address over a window, in the database so that every server worker
    (process) sees the same counts. A success deletes its own row and blanks the
    account's name on the others, which then count for their address only; rows older
    than the window are pruned on the next attempt.
    """

    # As typed at the sign-in form, casefolded; blank once the account has signed in.
    username = models.CharField(max_length=150, blank=True)
    address = models.CharField(max_length=64)
    attempted_at = models.DateTimeField(db_index=True)

    objects = SignInAttemptQuerySet.as_manager()

    class Meta:
        verbose_name = _("sign-in attempt")
        verbose_name_plural = _("sign-in attempts")
        indexes = [
            models.Index(fields=["username", "attempted_at"], name="signin_attempt_account"),
            models.Index(fields=["address", "attempted_at"], name="signin_attempt_address"),
        ]

    def __str__(self) -> str:
        return f"{self.username or '-'} from {self.address} at {self.attempted_at:%H:%M:%S}"


# --- the debrief's questions -----------------------------------------------------------


STAGE_CHOICES = [(stage.value, _(STAGE_TITLES[stage])) for stage in Stage]


class DebriefQuestionQuerySet(models.QuerySet["DebriefQuestion"]):
    def add_default_bank(self, event: Event, *, after: int = 0) -> list[DebriefQuestion]:
        """The default questions in the event's language, appended after ``after``."""
        with translation.override(event.language):
            bank = default_bank(gettext)
        return self.bulk_create(
            DebriefQuestion(event=event, position=after + place, stage=q.stage, text=q.text)
            for place, q in enumerate(bank, start=1)
        )

    def last_position(self, event: Event) -> int:
        return self.filter(event=event).aggregate(last=models.Max("position"))["last"] or 0


class DebriefQuestion(models.Model):
    """One question of an event's debrief bank. Its stage places it in the talk; within
    a stage the questions go by position (unique per event, gaps allowed)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="debrief_questions")
    position = models.PositiveIntegerField(_("position"))
    stage = models.CharField(_("stage"), max_length=16, choices=STAGE_CHOICES)
    text = models.CharField(_("question"), max_length=QUESTION_MAX_LENGTH)

    objects = DebriefQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("debrief question")
        verbose_name_plural = _("debrief questions")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "position"], name="debrief_question_position_unique"
            ),
            models.CheckConstraint(condition=~Q(text=""), name="debrief_question_not_empty"),
            models.CheckConstraint(
                condition=Q(stage__in=[stage.value for stage in Stage]),
                name="debrief_question_stage_known",
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def stage_title(self) -> str:
        return gettext(STAGE_TITLES[Stage(self.stage)])


# --- co-facilitators and their notes ---------------------------------------------------


class CoRole(models.TextChoices):
    """What a co-facilitator may do (see tournament.access for the capabilities)."""

    OBSERVER = "observer", _("observer")
    ASSISTANT = "assistant", _("assistant")


COFACILITATOR_NAME_MAX_LENGTH = 40


class CoFacilitatorQuerySet(models.QuerySet["CoFacilitator"]):
    def active(self) -> CoFacilitatorQuerySet:
        return self.filter(revoked_at__isnull=True)


class CoFacilitator(models.Model):
    """An invitation to help run one event, and (once its link is used) the account it
    signed in: a user without a password, bound to this one invitation. Revoking sets
    revoked_at; every console request checks it (EventQuerySet.reachable_by)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="cofacilitators")
    name = models.CharField(_("name"), max_length=COFACILITATOR_NAME_MAX_LENGTH)
    role = models.CharField(_("role"), max_length=10, choices=CoRole, default=CoRole.OBSERVER)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="cofacilitation",
    )
    created_at = models.DateTimeField(_("invited"), auto_now_add=True)
    redeemed_at = models.DateTimeField(_("joined"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = CoFacilitatorQuerySet.as_manager()

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("co-facilitator")
        verbose_name_plural = _("co-facilitators")
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="cofacilitator_named"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_role_display()})"

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_redeemed(self) -> bool:
        return self.redeemed_at is not None


class NoteTag(models.TextChoices):
    """What an observer saw at a table: the large buttons of the notes page."""

    CONFUSION = "confusion", _("Confusion")
    GESTURES = "gestures", _("Gestures or drawing")
    RULE_IMPOSED = "rule_imposed", _("A rule imposed")
    DISPUTE = "dispute", _("A dispute")
    ADAPTING = "adapting", _("Someone adapting")
    DOMINATING = "dominating", _("Someone dominating")
    WITHDRAWING = "withdrawing", _("Someone withdrawing")
    LAUGHTER = "laughter", _("Laughter")


NOTE_TEXT_MAX_LENGTH = 200


class ObserverNote(models.Model):
    """What a facilitator saw at a table: a tag and an optional short text, stamped with
    the table, the round and the time. Kept by numbers (not rows) so that a note outlives
    a re-planned table and travels in the exports as it was written."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notes")
    table_number = models.PositiveSmallIntegerField(_("table"))
    round_number = models.PositiveSmallIntegerField(
        _("round"), help_text=_("0: before round 1 (study or practice).")
    )
    tag = models.CharField(_("what"), max_length=16, choices=NoteTag)
    text = models.CharField(_("note"), max_length=NOTE_TEXT_MAX_LENGTH, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # As shown when written: the author's account may be gone by the report.
    author_name = models.CharField(_("by"), max_length=150, blank=True)
    created_at = models.DateTimeField(_("written"), default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    on_projector = models.BooleanField(
        _("shown on the projector"),
        default=False,
        help_text=_("Chosen by the organizer for the debrief; never shown otherwise."),
    )

    class Meta:
        ordering = ["event", "table_number", "created_at", "pk"]
        verbose_name = _("observer's note")
        verbose_name_plural = _("observers' notes")
        constraints = [
            models.CheckConstraint(
                condition=Q(tag__in=[tag.value for tag in NoteTag]), name="note_tag_known"
            ),
            models.CheckConstraint(condition=Q(table_number__gte=1), name="note_table_numbered"),
        ]
        indexes = [models.Index(fields=["event", "created_at"], name="note_event_time")]

    def __str__(self) -> str:
        return f"T{self.table_number} R{self.round_number} {self.tag}"
