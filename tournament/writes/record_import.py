"""Reading an event's record (tournament.reads.records) back in, as a new event.

Terms:
    record        an event written down whole as JSON, players by name and tables by
                  number (see tournament.reads.records).
    import        the record becomes a new event of this installation, under a new id and
                  owned by the organizer given. Links get fresh tokens and reports fresh
                  keys, so the new event shares no secret with the old one. Exporting the
                  imported event gives the same record again, but for the time of export.
    problem       why a file cannot be imported: it is not a record, or of another version;
                  a field is missing or of the wrong kind; a name or number points at
                  nothing (a game won by a player not on the roster, a seat at a table that
                  does not exist); or something is there twice (two players with the same
                  name, two games with one number at one table). The message names the
                  place in the file. A file with a problem writes nothing.
    debrief       the record's "debrief" object (see tournament.reads.records): it replaces the
                  default bank the new event is born with, and the shown question is
                  found again by its position. A record without one keeps that default
                  bank, with the debrief at its opening screen.
    unknown user  a username the record gives for who closed a round or corrected a game,
                  which this installation does not have (the record came from elsewhere).
                  The event is imported with that person left blank, and the outcome
                  lists the names so the organizer is told.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_duration
from django.utils.translation import gettext as _

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
from tables.rules.variants import DEFAULT_DISRUPTIVE_SHARE, NEW_CLAUSES, Suit, Variant
from tournament.common.errors import Refused
from tournament.models import (
    NOTE_TEXT_MAX_LENGTH,
    PLAYER_NAME_MAX_LENGTH,
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
from tournament.reads.records import RECORD_FORMAT, RECORD_VERSION
from tournament.rules.debrief_questions import QUESTION_MAX_LENGTH, Stage
from tournament.rules.roster import same_name_key

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

SMALL_INT_MAX = 32767  # PositiveSmallIntegerField, on every database
EVENT_NAME_MAX_LENGTH = Event._meta.get_field("name").max_length
REPORTED_BY_MAX_LENGTH = Game._meta.get_field("reported_by").max_length
USERNAME_MAX_LENGTH = 150
MAX_TRICKS = 100


class RecordProblem(Refused):
    """A file that cannot be imported; its message says where and why."""


def _problem(where: str, problem: str) -> RecordProblem:
    return RecordProblem(
        _("This file cannot be imported: %(where)s: %(problem)s")
        % {"where": where, "problem": problem}
    )


def _is_whole(value: Any) -> bool:
    # JSON's true and false arrive as bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)


_CLAUSE_FIELDS = ("no_trump", "trumps_broken", "must_overtake", "fewest_wins")


class _Fields:
    """One JSON object of the record, read field by field; each refusal names its place."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise _problem(where or _("the file"), _("expected an object ({...})."))
        self.data = value
        self.where = where

    def at(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise _problem(self.at(key), _("this field is missing."))
        return self.data[key]

    def text(
        self, key: str, *, max_length: int, blank: bool = False, null: bool = False
    ) -> str | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise _problem(self.at(key), _("expected text."))
        if not blank and not value.strip():
            raise _problem(self.at(key), _("must not be empty."))
        if len(value) > max_length:
            raise _problem(
                self.at(key),
                _("at most %(max)s characters, this has %(length)s.")
                % {"max": max_length, "length": len(value)},
            )
        return value

    def whole(
        self, key: str, *, minimum: int = 0, maximum: int = SMALL_INT_MAX, null: bool = False
    ) -> int | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not _is_whole(value):
            raise _problem(self.at(key), _("expected a whole number."))
        if not minimum <= value <= maximum:
            raise _problem(
                self.at(key),
                _("expected a number from %(min)s to %(max)s, not %(value)s.")
                % {"min": minimum, "max": maximum, "value": value},
            )
        return value

    def fraction(self, key: str) -> float:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise _problem(self.at(key), _("expected a number from 0 to 1."))
        return float(value)

    def optional(self, key: str, read: Callable[[str], Any], default: Any) -> Any:
        """``read(key)`` when the field is there, else ``default``: the fields added after
        version 1 (the variant clauses, the difference set) read as their classic values
        from an older file."""
        return read(key) if key in self.data else default

    def clause_codes(self, key: str) -> list[str]:
        value = self.raw(key)
        known = [clause.value for clause in NEW_CLAUSES]
        if not isinstance(value, list) or any(code not in known for code in value):
            raise _problem(
                self.at(key),
                _("expected a list of clauses from: %(allowed)s.") % {"allowed": ", ".join(known)},
            )
        return list(dict.fromkeys(value))

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise _problem(self.at(key), _("expected true or false."))
        return value

    def choice(self, key: str, choices: Iterable[str], *, null: bool = False) -> str | None:
        value = self.raw(key)
        if value is None and null:
            return None
        allowed = list(choices)
        if value not in allowed:
            raise _problem(
                self.at(key),
                _("“%(value)s” is not one of: %(allowed)s.")
                % {"value": value, "allowed": ", ".join(allowed)},
            )
        return value

    def moment(self, key: str, *, null: bool = True) -> datetime | None:
        value = self.raw(key)
        if value is None and null:
            return None
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            raise _problem(
                self.at(key), _("expected a time with its time zone (ISO 8601), or null.")
            )
        return moment

    def duration(self, key: str) -> timedelta | None:
        value = self.raw(key)
        if value is None:
            return None
        duration = parse_duration(value) if isinstance(value, str) else None
        if duration is None:
            raise _problem(self.at(key), _("expected a duration (ISO 8601), or null."))
        return duration

    def objects(self, key: str) -> list[_Fields]:
        value = self.raw(key)
        if not isinstance(value, list):
            raise _problem(self.at(key), _("expected a list ([...])."))
        return [_Fields(item, f"{self.at(key)}[{index}]") for index, item in enumerate(value)]

    def snapshot(self, key: str, tricks: Callable[[Any, str], dict | None]) -> dict | None:
        """A corrections-log snapshot: any object, whose tricks (if any) name players."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise _problem(self.at(key), _("expected an object ({...}), or null."))
        if "tricks" in value:
            return {**value, "tricks": tricks(value["tricks"], f"{self.at(key)}.tricks")}
        return value


# --- the record, checked --------------------------------------------------------------


@dataclass
class _Round:
    fields: dict[str, Any]
    closed_by: str | None
    seats: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Checked:
    """A record that passed every check, with players and tables still named/numbered."""

    event: dict[str, Any]
    created_at: datetime | None
    players: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    rounds: list[_Round]
    notes: list[dict[str, Any]] = field(default_factory=list)
    debrief: _Debrief | None = None

    @property
    def usernames(self) -> set[str]:
        names = {r.closed_by for r in self.rounds}
        names.update(c["changed_by"] for r in self.rounds for c in r.corrections)
        return {name for name in names if name}


def check_record(record: Any) -> _Checked:
    """The record's content, checked whole before anything is written (see Terms: problem)."""
    top = _Fields(record, "")
    if record.get("format") != RECORD_FORMAT:
        raise _problem("format", _("this is not a Five Tricks event record."))
    if record.get("version") != RECORD_VERSION:
        raise _problem(
            "version",
            _("this installation reads version %(known)s of the record, not %(version)s.")
            % {"known": RECORD_VERSION, "version": record.get("version")},
        )
    event_fields = _Fields(top.raw("event"), "event")
    rounds_planned = event_fields.whole("rounds_planned", minimum=1, maximum=20)
    event = {
        "name": event_fields.text("name", max_length=EVENT_NAME_MAX_LENGTH),
        "seed": event_fields.whole("seed", maximum=2**31 - 1),
        "rounds_planned": rounds_planned,
        "round_minutes": event_fields.whole("round_minutes", minimum=1, maximum=60),
        "study_minutes": event_fields.whole("study_minutes", minimum=1, maximum=60),
        "practice_minutes": event_fields.whole("practice_minutes", minimum=1, maximum=60),
        "trump_anytime_share": event_fields.fraction("trump_anytime_share"),
        "difference_set": event_fields.optional(
            "difference_set",
            lambda key: event_fields.choice(key, DifferenceSetChoice.values),
            DifferenceSetChoice.CLASSIC.value,
        ),
        "custom_clauses": event_fields.optional("custom_clauses", event_fields.clause_codes, []),
        "disruptive_share": event_fields.optional(
            "disruptive_share", event_fields.fraction, DEFAULT_DISRUPTIVE_SHARE
        ),
        # Records written before the languages are English.
        "language": event_fields.optional(
            "language",
            lambda key: event_fields.choice(key, [code for code, _name in settings.LANGUAGES]),
            settings.LANGUAGE_CODE,
        ),
        "phase": event_fields.choice("phase", Phase.values),
        "round_number": event_fields.whole("round_number", maximum=rounds_planned),
        "clock_ends_at": event_fields.moment("clock_ends_at"),
        "clock_paused_remaining": event_fields.duration("clock_paused_remaining"),
        "rules_revealed": event_fields.flag("rules_revealed"),
    }
    reader = _Reader()
    players = [reader.player_row(item) for item in top.objects("players")]
    tables = [reader.table_row(item) for item in top.objects("tables")]
    rounds = [reader.round_row(item) for item in top.objects("rounds")]
    if event["round_number"] and event["round_number"] not in reader.round_numbers:
        raise _problem(
            "event.round_number",
            _("the event is at round %(number)s, which the file does not have.")
            % {"number": event["round_number"]},
        )
    # Records written before the observers' notes have none.
    notes = [
        reader.note_row(item, rounds_planned)
        for item in (top.objects("notes") if "notes" in record else [])
    ]
    return _Checked(
        event=event,
        created_at=event_fields.moment("created_at"),
        players=players,
        tables=tables,
        rounds=rounds,
        notes=notes,
        debrief=top.optional("debrief", lambda key: check_debrief(top.raw(key), top.at(key)), None),
    )


# --- the debrief, checked ---------------------------------------------------------------


@dataclass
class _Debrief:
    """The record's "debrief" object, checked: questions by position."""

    step: int
    shown_question: int | None
    paths_highlight: str
    questions: list[dict[str, Any]]


def check_debrief(value: Any, where: str) -> _Debrief:
    """The record's debrief questions and where its debrief stands (see Terms: debrief)."""
    debrief = _Fields(value, where)
    questions: list[dict[str, Any]] = []
    positions: set[int] = set()
    for item in debrief.objects("questions"):
        position = item.whole("position", minimum=1, maximum=2**31 - 1)
        if position in positions:
            raise _problem(
                item.at("position"),
                _("two questions are at position %(position)s.") % {"position": position},
            )
        positions.add(position)
        questions.append(
            {
                "position": position,
                "stage": item.choice("stage", [stage.value for stage in Stage]),
                "text": item.text("text", max_length=QUESTION_MAX_LENGTH),
            }
        )
    step = debrief.whole("step", maximum=max(DebriefStep.values))
    if step not in DebriefStep.values:
        raise _problem(
            debrief.at("step"), _("there is no debrief screen %(step)s.") % {"step": step}
        )
    shown = debrief.whole("shown_question", minimum=1, maximum=2**31 - 1, null=True)
    if shown is not None and shown not in positions:
        raise _problem(
            debrief.at("shown_question"),
            _("there is no question at position %(position)s.") % {"position": shown},
        )
    return _Debrief(
        step=step,
        shown_question=shown,
        paths_highlight=debrief.choice("paths_highlight", PathsHighlight.values),
        questions=questions,
    )


class _Reader:
    """Reads the roster, the tables and the rounds in that order, remembering the names
    and numbers already read, so later parts can only point at what exists."""

    def __init__(self) -> None:
        self.roster: set[str] = set()
        self.same_names: dict[str, str] = {}
        self.tables: set[int] = set()
        self.round_numbers: set[int] = set()

    # --- what the rest points at

    def player_row(self, item: _Fields) -> dict[str, Any]:
        name = item.text("name", max_length=PLAYER_NAME_MAX_LENGTH)
        if name in self.roster:
            raise _problem(
                item.at("name"), _("“%(name)s” is on the roster twice.") % {"name": name}
            )
        if (other := self.same_names.get(same_name_key(name))) is not None:
            raise _problem(
                item.at("name"),
                _("“%(name)s” and “%(other)s” are the same name (case and accents aside).")
                % {"name": name, "other": other},
            )
        self.roster.add(name)
        self.same_names[same_name_key(name)] = name
        return {"name": name, "status": item.choice("status", PlayerStatus.values)}

    def table_row(self, item: _Fields) -> dict[str, Any]:
        number = item.whole("number", minimum=1)
        if number in self.tables:
            raise _problem(
                item.at("number"), _("table %(number)s is there twice.") % {"number": number}
            )
        self.tables.add(number)
        row = {
            "number": number,
            "ace_high": item.flag("ace_high"),
            "trump": item.choice("trump", [suit.value for suit in Suit]),
            "trump_anytime": item.flag("trump_anytime"),
            # Added with the clauses beyond the classic three: absent means classic.
            **{key: item.optional(key, item.flag, False) for key in _CLAUSE_FIELDS},
            "variant_set_by_hand": item.flag("variant_set_by_hand"),
            "sheet_language": item.optional(
                "sheet_language",
                lambda key: item.choice(key, ["", *(code for code, _name in settings.LANGUAGES)]),
                "",
            ),
        }
        try:
            Variant(
                **{key: row[key] for key in ("ace_high", "trump", "trump_anytime", *_CLAUSE_FIELDS)}
            )
        except ValueError:
            raise _problem(
                item.at("number"),
                _(
                    "table %(number)s has rules that cannot go together (no trump with a "
                    "trump rule, or trump any time with trumps led once broken)."
                )
                % {"number": number},
            ) from None
        return row

    def player(self, item: _Fields, key: str, *, null: bool = False) -> str | None:
        name = item.raw(key)
        if name is None and null:
            return None
        if not isinstance(name, str) or name not in self.roster:
            raise _problem(item.at(key), _("“%(name)s” is not on the roster.") % {"name": name})
        return name

    def table(self, item: _Fields, key: str, *, null: bool = False) -> int | None:
        number = item.raw(key)
        if number is None and null:
            return None
        if not _is_whole(number) or number not in self.tables:
            raise _problem(item.at(key), _("there is no table %(number)s.") % {"number": number})
        return number

    def tricks(self, value: Any, where: str) -> dict[str, int] | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise _problem(where, _("expected an object of names and tricks, or null."))
        for name, count in value.items():
            if name not in self.roster:
                raise _problem(where, _("“%(name)s” is not on the roster.") % {"name": name})
            if (
                isinstance(count, bool)
                or not isinstance(count, int)
                or not 0 <= count <= MAX_TRICKS
            ):
                raise _problem(
                    where, _("tricks are whole numbers from 0 to %(max)s.") % {"max": MAX_TRICKS}
                )
        return value

    # --- a round and what happened in it

    def round_row(self, item: _Fields) -> _Round:
        number = item.whole("number", minimum=1)
        if number in self.round_numbers:
            raise _problem(
                item.at("number"), _("round %(number)s is there twice.") % {"number": number}
            )
        self.round_numbers.add(number)
        round_ = _Round(
            fields={
                "number": number,
                "status": item.choice("status", RoundStatus.values),
                "started_at": item.moment("started_at"),
                "closed_at": item.moment("closed_at"),
            },
            closed_by=item.text("closed_by", max_length=USERNAME_MAX_LENGTH, null=True),
        )
        seated: set[str] = set()
        for seat in item.objects("seats"):
            round_.seats.append(self.seat_row(seat, number, seated))
        games: set[tuple[int, int]] = set()
        for game in item.objects("games"):
            round_.games.append(self.game_row(game, games))
        for report in item.objects("reports"):
            round_.reports.append(self.report_row(report, games))
        for correction in item.objects("corrections"):
            round_.corrections.append(self.correction_row(correction, games))
        return round_

    def seat_row(self, seat: _Fields, round_number: int, seated: set[str]) -> dict[str, Any]:
        name = self.player(seat, "player")
        if name in seated:
            raise _problem(
                seat.at("player"),
                _("“%(name)s” has two seats in round %(number)s.")
                % {"name": name, "number": round_number},
            )
        seated.add(name)
        return {
            "player": name,
            "table": self.table(seat, "table"),
            "from_table": self.table(seat, "from_table", null=True),
            "reason": seat.choice("reason", SeatReason.values),
            "games_won_before": seat.whole("games_won_before", null=True),
            "tie_broken": seat.flag("tie_broken"),
            "earned_table": self.table(seat, "earned_table", null=True),
            "earned_reason": seat.choice("earned_reason", SeatReason.values, null=True) or "",
        }

    def game_row(self, game: _Fields, games: set[tuple[int, int]]) -> dict[str, Any]:
        key = (self.table(game, "table"), game.whole("number", minimum=1))
        if key in games:
            raise _problem(
                game.at("number"),
                _("table %(table)s has two games numbered %(number)s.")
                % {"table": key[0], "number": key[1]},
            )
        games.add(key)
        status = game.choice("status", GameStatus.values)
        winner = self.player(game, "winner", null=True)
        if winner is None and status != GameStatus.DISPUTED:
            raise _problem(game.at("winner"), _("only a disputed game may have no winner."))
        return {
            "table": key[0],
            "number": key[1],
            "winner": winner,
            "tricks": self.tricks(game.raw("tricks"), game.at("tricks")),
            "finished": game.flag("finished"),
            "status": status,
            "reported_by": game.text("reported_by", max_length=REPORTED_BY_MAX_LENGTH, blank=True),
            "reported_at": game.moment("reported_at", null=False),
            "updated_at": game.moment("updated_at", null=False),
        }

    @staticmethod
    def game_of(item: _Fields, table: int, games: set[tuple[int, int]]) -> int | None:
        """The number of the game a report or a correction belongs to, if any."""
        number = item.raw("game")
        if number is not None and (not _is_whole(number) or (table, number) not in games):
            raise _problem(
                item.at("game"),
                _("table %(table)s has no game %(number)s in this round.")
                % {"table": table, "number": number},
            )
        return number

    def report_row(self, report: _Fields, games: set[tuple[int, int]]) -> dict[str, Any]:
        table = self.table(report, "table")
        return {
            "table": table,
            "game_number": report.whole("game_number", minimum=1),
            "game": self.game_of(report, table, games),
            "winner": self.player(report, "winner"),
            "tricks": self.tricks(report.raw("tricks"), report.at("tricks")),
            "finished": report.flag("finished"),
            "state": report.choice("state", ReportState.values),
            "source": report.choice("source", ReportSource.values),
            "received_at": report.moment("received_at", null=False),
        }

    def note_row(self, note: _Fields, rounds_planned: int) -> dict[str, Any]:
        return {
            "table_number": self.table(note, "table"),
            "round_number": note.whole("round", maximum=rounds_planned),
            "tag": note.choice("tag", NoteTag.values),
            "text": note.text("text", max_length=NOTE_TEXT_MAX_LENGTH, blank=True),
            "author_name": note.text("by", max_length=USERNAME_MAX_LENGTH, blank=True),
            "created_at": note.moment("at", null=False),
            "on_projector": note.flag("on_projector"),
        }

    def correction_row(self, correction: _Fields, games: set[tuple[int, int]]) -> dict[str, Any]:
        table = self.table(correction, "table")
        return {
            "table": table,
            "game_number": correction.whole("game_number", minimum=1),
            "game": self.game_of(correction, table, games),
            "action": correction.choice("action", CorrectionAction.values),
            "changed_by": correction.text("changed_by", max_length=USERNAME_MAX_LENGTH, null=True),
            "changed_at": correction.moment("changed_at", null=False),
            "before": correction.snapshot("before", self.tricks),
            "after": correction.snapshot("after", self.tricks),
        }


# --- writing it ------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportedEvent:
    """The outcome of an import: the new event, and the usernames it could not link."""

    event: Event
    unknown_users: list[str]


def _with_ids(tricks: dict[str, int] | None, players: dict[str, Player]) -> dict | None:
    return None if tricks is None else {str(players[name].pk): n for name, n in tricks.items()}


def _snapshot_with_ids(snapshot: dict | None, players: dict[str, Player]) -> dict | None:
    if snapshot is None or not isinstance(snapshot.get("tricks"), dict):
        return snapshot
    return {**snapshot, "tricks": _with_ids(snapshot["tricks"], players)}


def _new_report_key() -> str:
    return f"import-{secrets.token_hex(16)}"


def import_event(*, record: Any, owner: AbstractBaseUser) -> ImportedEvent:
    """Create a new event from a record (see Terms: import), in one transaction.

    The whole record is checked before the first write; a problem raises RecordProblem
    and nothing is written.
    """
    checked = check_record(record)
    try:
        with transaction.atomic():
            return _create(checked, owner)
    except IntegrityError as error:
        # Checked above; reaching here means a rule of the database the checks missed.
        raise RecordProblem(
            _("This file cannot be imported: the database refused it (%(error)s).")
            % {"error": error}
        ) from error


def _create(checked: _Checked, owner: AbstractBaseUser) -> ImportedEvent:
    users = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=checked.usernames)
    }
    event = Event.objects.create(owner=owner, **checked.event)
    if checked.created_at is not None:
        Event.objects.filter(pk=event.pk).update(created_at=checked.created_at)
        event.created_at = checked.created_at

    players = {
        p.name: p
        for p in Player.objects.bulk_create(
            Player(event=event, name=row["name"], status=row["status"]) for row in checked.players
        )
    }
    tables = {
        t.number: t
        for t in Table.objects.bulk_create(Table(event=event, **row) for row in checked.tables)
    }
    rounds = Round.objects.bulk_create(
        Round(event=event, closed_by=users.get(r.closed_by), **r.fields) for r in checked.rounds
    )

    seats, games, reports, corrections = [], [], [], []
    times: list[tuple[Any, dict[str, datetime]]] = []
    for round_, row in zip(rounds, checked.rounds, strict=True):
        seats.extend(
            Seat(
                round=round_,
                player=players[seat["player"]],
                table=tables[seat["table"]],
                from_table=tables.get(seat["from_table"]),
                reason=seat["reason"],
                games_won_before=seat["games_won_before"],
                tie_broken=seat["tie_broken"],
                earned_table=tables.get(seat["earned_table"]),
                earned_reason=seat["earned_reason"],
            )
            for seat in row.seats
        )
        for game in row.games:
            games.append(
                Game(
                    round=round_,
                    table=tables[game["table"]],
                    number=game["number"],
                    winner=players.get(game["winner"]),
                    tricks=_with_ids(game["tricks"], players),
                    finished=game["finished"],
                    status=game["status"],
                    reported_by=game["reported_by"],
                )
            )
            times.append(
                (games[-1], {"reported_at": game["reported_at"], "updated_at": game["updated_at"]})
            )
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)
    game_of = {(g.round_id, g.table.number, g.number): g for g in games}

    for round_, row in zip(rounds, checked.rounds, strict=True):
        for report in row.reports:
            reports.append(
                GameReport(
                    round=round_,
                    table=tables[report["table"]],
                    game_number=report["game_number"],
                    game=game_of.get((round_.pk, report["table"], report["game"])),
                    winner=players[report["winner"]],
                    tricks=_with_ids(report["tricks"], players),
                    finished=report["finished"],
                    client_key=_new_report_key(),
                    state=report["state"],
                    source=report["source"],
                )
            )
            times.append((reports[-1], {"received_at": report["received_at"]}))
        for correction in row.corrections:
            corrections.append(
                GameCorrection(
                    round=round_,
                    table=tables[correction["table"]],
                    game_number=correction["game_number"],
                    game=game_of.get((round_.pk, correction["table"], correction["game"])),
                    action=correction["action"],
                    changed_by=users.get(correction["changed_by"]),
                    before=_snapshot_with_ids(correction["before"], players),
                    after=_snapshot_with_ids(correction["after"], players),
                )
            )
            times.append((corrections[-1], {"changed_at": correction["changed_at"]}))
    GameReport.objects.bulk_create(reports)
    GameCorrection.objects.bulk_create(corrections)

    # Creating stamps these times with "now"; the record's own times are put back after.
    for row, values in times:
        for name, value in values.items():
            setattr(row, name, value)
    Game.objects.bulk_update(games, ["reported_at", "updated_at"])
    GameReport.objects.bulk_update(reports, ["received_at"])
    GameCorrection.objects.bulk_update(corrections, ["changed_at"])

    ObserverNote.objects.bulk_create(ObserverNote(event=event, **row) for row in checked.notes)
    if checked.debrief is not None:
        _write_debrief(event, checked.debrief)

    unknown = sorted(checked.usernames - set(users))
    return ImportedEvent(event=event, unknown_users=unknown)


def _write_debrief(event: Event, debrief: _Debrief) -> None:
    """The record's bank in place of the default one the new event was born with."""
    DebriefQuestion.objects.filter(event=event).delete()
    questions = DebriefQuestion.objects.bulk_create(
        DebriefQuestion(event=event, **row) for row in debrief.questions
    )
    by_position = {question.position: question for question in questions}
    event.debrief_step = debrief.step
    event.debrief_question = by_position.get(debrief.shown_question)
    event.paths_highlight = debrief.paths_highlight
    event.save(update_fields=["debrief_step", "debrief_question", "paths_highlight"])
