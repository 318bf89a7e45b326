"""The event record's JSON format, described once: the export writes what this lists and
the import reads it back by the same list.

Terms:
    record    an event written down whole as JSON (tournament.reads.records writes it,
              tournament.writes.record_import reads it back as a new event).
    section   one part of the record: the event, the players, the tables, the rounds and,
              in each round, its seats, games, reports and corrections; the observers'
              notes; the debrief and its questions. A section names the model its rows
              come from and go back to, and its fields in the order the record writes
              them. The top of the record and a round hold sections in turn; that nesting
              is written out where each is read (the export and the import), not here.
    field     one key of a section's objects: the model field it comes from and goes back
              to (``attr``; the same name unless said), its kind, and its bounds.
    kind      how a field is written and read back (Kind): a plain value checked against
              its bounds; a time or a duration as ISO 8601 text; or a reference, written
              as what a person reads (a player's name, a table's number, a game's number,
              a question's position, a username) and read back as the row it names in the
              new event.
    missing   what a record written before a field (or a section) existed reads as: the
              value a new event gets, so an older record imports as the event it was. A
              field without it is required.
    stamped   a time the database stamps when the row is created (auto_now_add, auto_now);
              the import puts the record's own time back once the rows exist.

Why here, in the reads layer: the description names the models, their choices and their
field lengths, so it is not a pure rule (tournament.rules holds only those); the export
is a read model, and the import, a write, sits above the reads and may import it. One
list then serves both, and a field added to it is written and read back alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import models

from tables.models import (
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    ReportSource,
    ReportState,
    Table,
)
from tournament.models import (
    NOTE_TEXT_MAX_LENGTH,
    PLAYER_NAME_MAX_LENGTH,
    CardsOn,
    DebriefAnswer,
    DebriefQuestion,
    DebriefStep,
    DifferenceSetChoice,
    Event,
    NoteTag,
    ObserverNote,
    PathsHighlight,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.rules.cards import DEFAULT_DISRUPTIVE_SHARE, Suit
from tournament.rules.debrief_questions import (
    ANSWER_MAX_LENGTH,
    QUESTION_MAX_LENGTH,
    AnswerKind,
    Stage,
)

RECORD_FORMAT = "fivetricks-event"
RECORD_VERSION = 1

SMALL_INT_MAX = 32767  # PositiveSmallIntegerField, on every database
INT_MAX = 2**31 - 1
USERNAME_MAX_LENGTH = 150
MAX_TRICKS = 100


class Kind(StrEnum):
    """How a field is written (export) and read back (import)."""

    TEXT = "text"  # as is; text of at most max_length, not blank unless allowed
    WHOLE = "whole"  # as is; a whole number from minimum to maximum
    FRACTION = "fraction"  # as is; a number from 0 to 1
    FLAG = "flag"  # as is; true or false
    CHOICE = "choice"  # as is; one of the choices
    CLAUSES = "clauses"  # a list; codes of the clauses beyond the classic three
    MOMENT = "moment"  # ISO 8601 in UTC, to the microsecond; with its time zone
    DURATION = "duration"  # ISO 8601 duration, or null
    PLAYER = "player"  # a player (foreign key) by name; a name on the roster
    TABLE = "table"  # a table (foreign key) by number; a table of the record
    TABLE_NUMBER = "table_number"  # a table's number kept as a number; a table of the record
    GAME = "game"  # a game (foreign key) by number; a game of the row's table in its round
    QUESTION = "question"  # a debrief question (foreign key) by position; one of the record's
    USER = "user"  # a user (foreign key) by username; any text, blank if this site lacks it
    TRICKS = "tricks"  # tricks per player: ids written as names; names on the roster
    SNAPSHOT = "snapshot"  # a corrections-log snapshot: any object, its tricks as TRICKS
    CARD = "card"  # a card's code, "7H" (tables.rules.screen_play)
    NAMES = "names"  # a list of players (ids) written as names; each on the roster, once
    HANDS = "hands"  # cards per player: ids written as names; each card dealt once
    POINTS = "points"  # a stroke's points, [[x, y], ...] inside the pad (tables.rules)
    VIDEO = "video"  # a video room's https address, or blank (tables.rules.silent_channel)
    VIDEO_PATTERN = "video_pattern"  # the same with {table} (and {event}) in it, or blank


# The kinds whose value is another row: the model field is a foreign key, read by its id.
REFERENCES = (Kind.PLAYER, Kind.TABLE, Kind.GAME, Kind.QUESTION)
REQUIRED = object()  # a field's ``missing`` when every record has it


@dataclass(frozen=True)
class Field:
    """One key of a section's objects (see Terms: field)."""

    key: str
    kind: Kind
    attr: str = ""  # the model field; the key when empty
    null: bool = False
    blank: bool = False  # TEXT: an empty text is allowed
    minimum: int = 0  # WHOLE
    maximum: int | str = SMALL_INT_MAX  # WHOLE; a str names the event field that bounds it
    max_length: int = 0  # TEXT, USER
    choices: Callable[[], list[str]] | None = None  # CHOICE: read when checked (settings)
    null_is_blank: bool = False  # CHOICE: the model keeps "" where the record has null
    stamped: bool = False  # see Terms: stamped
    missing: Any = REQUIRED  # see Terms: missing; a callable is called for a fresh value

    @property
    def model_field(self) -> str:
        return self.attr or self.key

    @property
    def column(self) -> str:
        """The column a ``values()`` query reads it from."""
        if self.kind in REFERENCES:
            return f"{self.model_field}_id"
        if self.kind == Kind.USER:
            return f"{self.model_field}__username"
        return self.model_field

    def default(self) -> Any:
        """The value of this field in a record written before it existed."""
        return self.missing() if callable(self.missing) else self.missing


# A section's model: Section[Game] reads and makes Games. Covariant, so that sections of
# several models make a tuple of Section[Model] (a section is frozen: only read).
M = TypeVar("M", bound=models.Model, covariant=True)


@dataclass(frozen=True)
class Section(Generic[M]):
    """One part of the record (see Terms: section)."""

    key: str
    model: type[M]
    fields: tuple[Field, ...]
    order_by: tuple[str, ...] = ()  # the export's query order (model fields)
    sort_by: tuple[str, ...] = ()  # or the order of the rows written (record keys)
    missing: Any = REQUIRED  # see Terms: missing

    @property
    def columns(self) -> list[str]:
        return [field.column for field in self.fields]

    def default(self) -> Any:
        """This section in a record written before it existed."""
        return self.missing() if callable(self.missing) else self.missing


def _values(choices: type[models.TextChoices]) -> Callable[[], list[str]]:
    return lambda: list(choices.values)


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def _minutes(key: str) -> Field:
    return Field(key, Kind.WHOLE, minimum=1, maximum=60)


def _time(key: str, *, attr: str = "", null: bool = False, stamped: bool = False) -> Field:
    return Field(key, Kind.MOMENT, attr=attr, null=null, stamped=stamped)


def _max_length(model: type[models.Model], name: str) -> int:
    """The longest text a model's field holds, as the model declares it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.CharField)
    assert field.max_length is not None
    return field.max_length


def _username(key: str) -> Field:
    return Field(key, Kind.USER, null=True, max_length=USERNAME_MAX_LENGTH)


# For the sections other modules describe (tournament.reads.record_screens).
time_field = _time
username_field = _username


# The clauses beyond the classic three, added after version 1: absent means classic.
CLAUSE_FIELDS = ("no_trump", "trumps_broken", "must_overtake", "fewest_wins")

EVENT = Section(
    "event",
    Event,
    (
        Field("name", Kind.TEXT, max_length=_max_length(Event, "name")),
        _time("created_at", null=True, stamped=True),
        Field("seed", Kind.WHOLE, maximum=INT_MAX),
        Field("rounds_planned", Kind.WHOLE, minimum=1, maximum=20),
        _minutes("round_minutes"),
        _minutes("study_minutes"),
        _minutes("practice_minutes"),
        Field("trump_anytime_share", Kind.FRACTION),
        Field(
            "difference_set",
            Kind.CHOICE,
            choices=_values(DifferenceSetChoice),
            missing=DifferenceSetChoice.CLASSIC.value,
        ),
        Field("custom_clauses", Kind.CLAUSES, missing=list),
        Field("disruptive_share", Kind.FRACTION, missing=DEFAULT_DISRUPTIVE_SHARE),
        # Records written before the languages are English.
        Field(
            "language",
            Kind.CHOICE,
            choices=_languages,
            missing=lambda: settings.LANGUAGE_CODE,
        ),
        Field("phase", Kind.CHOICE, choices=_values(Phase)),
        Field("round_number", Kind.WHOLE, maximum="rounds_planned"),
        _time("clock_ends_at", null=True),
        Field("clock_paused_remaining", Kind.DURATION, null=True),
        Field("rules_revealed", Kind.FLAG),
        # Cards on screens (issue 33); a record written before them is a room's event.
        Field("cards", Kind.CHOICE, choices=_values(CardsOn), missing=CardsOn.TABLE.value),
        Field("screen_stall_seconds", Kind.WHOLE, minimum=10, maximum=600, missing=60),
        # Video rooms (issue 34); a record written before them has none.
        Field("video_pattern", Kind.VIDEO_PATTERN, missing=""),
    ),
)

PLAYERS = Section(
    "players",
    Player,
    (
        Field("name", Kind.TEXT, max_length=PLAYER_NAME_MAX_LENGTH),
        Field("status", Kind.CHOICE, choices=_values(PlayerStatus)),
    ),
    sort_by=("name",),
)

TABLES = Section(
    "tables",
    Table,
    (
        Field("number", Kind.WHOLE, minimum=1),
        Field("ace_high", Kind.FLAG),
        Field("trump", Kind.CHOICE, choices=lambda: [suit.value for suit in Suit]),
        Field("trump_anytime", Kind.FLAG),
        *(Field(key, Kind.FLAG, missing=False) for key in CLAUSE_FIELDS),
        Field("variant_set_by_hand", Kind.FLAG),
        Field("sheet_language", Kind.CHOICE, choices=lambda: ["", *_languages()], missing=""),
        Field("video_link", Kind.VIDEO, missing=""),
    ),
    order_by=("number",),
)

ROUNDS = Section(
    "rounds",
    Round,
    (
        Field("number", Kind.WHOLE, minimum=1),
        Field("status", Kind.CHOICE, choices=_values(RoundStatus)),
        _time("started_at", null=True),
        _time("closed_at", null=True),
        _username("closed_by"),
    ),
    order_by=("number",),
)

SEATS = Section(
    "seats",
    Seat,
    (
        Field("player", Kind.PLAYER),
        Field("table", Kind.TABLE),
        Field("from_table", Kind.TABLE, null=True),
        Field("reason", Kind.CHOICE, choices=_values(SeatReason)),
        Field("games_won_before", Kind.WHOLE, null=True),
        Field("tie_broken", Kind.FLAG),
        Field("earned_table", Kind.TABLE, null=True),
        Field(
            "earned_reason",
            Kind.CHOICE,
            choices=_values(SeatReason),
            null=True,
            null_is_blank=True,
        ),
    ),
    sort_by=("table", "player"),
)

GAMES = Section(
    "games",
    Game,
    (
        Field("table", Kind.TABLE),
        Field("number", Kind.WHOLE, minimum=1),
        Field("winner", Kind.PLAYER, null=True),
        Field("tricks", Kind.TRICKS),
        Field("finished", Kind.FLAG),
        Field("status", Kind.CHOICE, choices=_values(GameStatus)),
        Field(
            "reported_by",
            Kind.TEXT,
            blank=True,
            max_length=_max_length(Game, "reported_by"),
        ),
        _time("reported_at", stamped=True),
        _time("updated_at", stamped=True),
    ),
    sort_by=("table", "number"),
)

REPORTS = Section(
    "reports",
    GameReport,
    (
        Field("table", Kind.TABLE),
        Field("game_number", Kind.WHOLE, minimum=1),
        Field("game", Kind.GAME, null=True),
        Field("winner", Kind.PLAYER),
        Field("tricks", Kind.TRICKS),
        Field("finished", Kind.FLAG),
        Field("state", Kind.CHOICE, choices=_values(ReportState)),
        Field("source", Kind.CHOICE, choices=_values(ReportSource)),
        _time("received_at", stamped=True),
    ),
    order_by=("received_at", "pk"),
)

CORRECTIONS = Section(
    "corrections",
    GameCorrection,
    (
        Field("table", Kind.TABLE),
        Field("game_number", Kind.WHOLE, minimum=1),
        Field("game", Kind.GAME, null=True),
        Field("action", Kind.CHOICE, choices=_values(CorrectionAction)),
        _username("changed_by"),
        _time("changed_at", stamped=True),
        Field("before", Kind.SNAPSHOT),
        Field("after", Kind.SNAPSHOT),
    ),
    order_by=("changed_at", "pk"),
)

# What each round holds besides its own fields, in the record's order.
ROUND_PARTS = (SEATS, GAMES, REPORTS, CORRECTIONS)

# The observers' notes (tournament.writes.notes); records written before them have none.
NOTES = Section(
    "notes",
    ObserverNote,
    (
        Field("table", Kind.TABLE_NUMBER, attr="table_number"),
        Field("round", Kind.WHOLE, attr="round_number", maximum="rounds_planned"),
        Field("tag", Kind.CHOICE, choices=_values(NoteTag)),
        Field("text", Kind.TEXT, blank=True, max_length=NOTE_TEXT_MAX_LENGTH),
        Field("by", Kind.TEXT, attr="author_name", blank=True, max_length=USERNAME_MAX_LENGTH),
        _time("at", attr="created_at"),
        Field("on_projector", Kind.FLAG),
    ),
    order_by=("table_number", "created_at", "pk"),
    missing=list,
)

# The debrief's questions, and where the debrief stands (the event's fields); a record
# written before the debrief has none, and imports with the default bank.
QUESTIONS = Section(
    "questions",
    DebriefQuestion,
    (
        Field("position", Kind.WHOLE, minimum=1, maximum=INT_MAX),
        Field("stage", Kind.CHOICE, choices=lambda: [stage.value for stage in Stage]),
        Field("text", Kind.TEXT, max_length=QUESTION_MAX_LENGTH),
        # Answers from phones (issue 25); a record written before them has none.
        Field(
            "answer_kind",
            Kind.CHOICE,
            choices=lambda: [kind.value for kind in AnswerKind],
            missing=AnswerKind.NONE.value,
        ),
        Field("answers_open", Kind.FLAG, missing=True),
        Field("answers_revealed", Kind.FLAG, missing=False),
    ),
    order_by=("position",),
)
# Beside a question's fields: the word keys the organizer hid (a list of text, written
# and read where the questions are), and its answers.
HIDDEN_WORDS = "hidden_words"
# The room's answers to a question, anonymous: the words or the number, nothing that
# says which phone (or who) gave them; sorted by what they say, not by when.
ANSWERS = Section(
    "answers",
    DebriefAnswer,
    (
        Field("text", Kind.TEXT, blank=True, max_length=ANSWER_MAX_LENGTH),
        Field("number", Kind.WHOLE, null=True, minimum=1),
    ),
    order_by=("question_id", "text", "number"),
    missing=list,
)

DEBRIEF = Section(
    "debrief",
    Event,
    (
        Field("step", Kind.WHOLE, attr="debrief_step", maximum=max(DebriefStep.values)),
        Field(
            "shown_question",
            Kind.QUESTION,
            attr="debrief_question",
            null=True,
            minimum=1,
            maximum=INT_MAX,
        ),
        Field("paths_highlight", Kind.CHOICE, choices=_values(PathsHighlight)),
    ),
    missing=None,
)
