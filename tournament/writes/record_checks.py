"""An event's record checked whole, before the import (tournament.writes.record_import)
writes anything.

Terms:
    record        an event written down whole as JSON, players by name and tables by
                  number; its sections and fields are listed in
                  tournament.reads.record_format, which the check walks in the record's
                  order, reading each field by its kind (tournament.writes.record_fields).
    problem       why a file cannot be imported: it is not a record, or of another version;
                  it nests too deep, holds text that is not valid Unicode, or has more
                  players or rounds than the limits (tournament.writes.record_file); a
                  field is missing or of the wrong kind; a name or number points at
                  nothing (a game won by a player not on the roster, a seat at a table that
                  does not exist); or something is there twice (two players with the same
                  name, two games with one number at one table). The message names the
                  place in the file.
    checked row   one object of the record as read: its record keys, with values checked
                  and in their kinds (a time is a datetime), names and numbers still
                  standing for the rows they point at.
    older record  a record written before a field or a section existed: the field reads as
                  its ``missing`` value (tournament.reads.record_format: Terms: missing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tables.models import GameStatus
from tables.rules.screen_play import is_card
from tables.rules.silent_channel import VIDEO_MAX_LENGTH
from tournament.models import DebriefStep
from tournament.reads.record_format import (
    ANSWERS,
    CLAUSE_FIELDS,
    CORRECTIONS,
    DEBRIEF,
    EVENT,
    GAMES,
    HIDDEN_WORDS,
    MAX_TRICKS,
    NOTES,
    PLAYERS,
    QUESTIONS,
    RECORD_FORMAT,
    RECORD_VERSION,
    REPORTS,
    REQUIRED,
    ROUNDS,
    SEATS,
    TABLES,
    Field,
    Kind,
    Section,
)
from tournament.reads.record_screens import DEALS
from tournament.rules.cards import Variant
from tournament.rules.debrief_questions import ANSWER_MAX_LENGTH, AnswerKind
from tournament.rules.roster import (
    bidi_controls,
    code_point,
    control_characters,
    same_name_key,
    shown,
)
from tournament.writes.record_fields import RecordObject, RecordProblem, is_whole, problem
from tournament.writes.record_file import MAX_PLAYERS, MAX_ROUNDS, check_shape
from tournament.writes.record_screens import (
    check_deals,
    check_silent_channel,
    read_points,
    read_video_link,
)

Row = dict[str, Any]


def _listed(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise problem(where, _("expected a list of cards."))
    return value


@dataclass
class Checked:
    """A record that passed every check, as checked rows (see Terms). A round's row also
    holds its seats, games, reports and corrections; the debrief's, its questions."""

    event: Row
    players: list[Row]
    tables: list[Row]
    rounds: list[Row]
    notes: list[Row] = field(default_factory=list)
    debrief: Row | None = None

    @property
    def usernames(self) -> set[str]:
        names = {r["closed_by"] for r in self.rounds}
        names.update(c["changed_by"] for r in self.rounds for c in r[CORRECTIONS.key])
        names.update(
            trick["settled_by"]
            for r in self.rounds
            for deal in r[DEALS.key]
            for trick in deal["tricks"]
        )
        return {name for name in names if name}


def check_record(record: Any) -> Checked:
    """The record's content, checked whole before anything is written (see Terms: problem)."""
    check_shape(record)
    top = RecordObject(record, "")
    if record.get("format") != RECORD_FORMAT:
        raise problem("format", _("this is not a Five Tricks event record."))
    if record.get("version") != RECORD_VERSION:
        raise problem(
            "version",
            _("this installation reads version %(known)s of the record, not %(version)s.")
            % {"known": RECORD_VERSION, "version": record.get("version")},
        )
    _check_counts(record)
    reader = _Reader()
    reader.event = reader.read(EVENT, RecordObject(top.raw(EVENT.key), EVENT.key))
    players = [reader.player_row(item) for item in top.objects(PLAYERS.key)]
    tables = [reader.table_row(item) for item in top.objects(TABLES.key)]
    rounds = [reader.round_row(item) for item in top.objects(ROUNDS.key)]
    if (number := reader.event["round_number"]) and number not in reader.round_numbers:
        raise problem(
            "event.round_number",
            _("the event is at round %(number)s, which the file does not have.")
            % {"number": number},
        )
    notes = (
        [reader.read(NOTES, item) for item in top.objects(NOTES.key)]
        if NOTES.key in record
        else NOTES.default()
    )
    debrief = (
        reader.debrief_row(RecordObject(top.raw(DEBRIEF.key), DEBRIEF.key))
        if DEBRIEF.key in record
        else DEBRIEF.default()
    )
    return Checked(reader.event, players, tables, rounds, notes=notes, debrief=debrief)


def _check_counts(record: dict[str, Any]) -> None:
    """Refuse a record of more players or rounds than the count limits (see
    tournament.writes.record_file: Terms), before reading any of them."""
    players, rounds = record.get(PLAYERS.key), record.get(ROUNDS.key)
    players = len(players) if isinstance(players, list) else 0
    rounds = len(rounds) if isinstance(rounds, list) else 0
    if players > MAX_PLAYERS or rounds > MAX_ROUNDS:
        raise RecordProblem(
            _(
                "This file cannot be imported: it has %(players)s players and %(rounds)s "
                "rounds, and an event has at most %(max_players)s players and "
                "%(max_rounds)s rounds."
            )
            % {
                "players": players,
                "rounds": rounds,
                "max_players": MAX_PLAYERS,
                "max_rounds": MAX_ROUNDS,
            }
        )


class _Reader:
    """Reads the record's sections field by field, the roster, the tables and the rounds in
    that order, remembering the names and numbers already read, so later parts can only
    point at what exists."""

    def __init__(self) -> None:
        self.event: Row = {}  # the event's fields, which bound some later ones
        self.roster: set[str] = set()
        self.same_names: dict[str, str] = {}
        self.tables: set[int] = set()
        self.round_numbers: set[int] = set()
        self.games: set[tuple[int, int]] = set()  # (table, number) in the round being read
        self.positions: set[int] = set()  # the debrief's questions

    def read(self, section: Section, item: RecordObject) -> Row:
        """One object of a section, its fields in the record's order (see Terms: older
        record)."""
        row: Row = {}
        for one in section.fields:
            if one.missing is not REQUIRED and one.key not in item.data:
                row[one.key] = one.default()
            else:
                row[one.key] = self.value(one, item, row)
        return row

    def value(self, one: Field, item: RecordObject, row: Row) -> Any:
        """One field, read by its kind (tournament.reads.record_format.Kind)."""
        key, null = one.key, one.null
        match one.kind:
            case Kind.TEXT | Kind.USER:
                return item.text(key, max_length=one.max_length, blank=one.blank, null=null)
            case Kind.WHOLE:
                maximum = one.maximum
                if isinstance(maximum, str):
                    maximum = {**self.event, **row}[maximum]
                return item.whole(key, minimum=one.minimum, maximum=maximum, null=null)
            case Kind.CHOICE:
                assert one.choices is not None  # every CHOICE field names its choices
                value = item.choice(key, one.choices(), null=null)
                return "" if value is None and one.null_is_blank else value
            case Kind.MOMENT:
                return item.moment(key, null=null)
            case Kind.PLAYER:
                return self.player(item, key, null=null)
            case Kind.TABLE | Kind.TABLE_NUMBER:
                return self.table(item, key, null=null)
            case Kind.GAME:
                return self.game_of(item, row["table"])
            case Kind.QUESTION:
                return self.question(item, one)
            case Kind.TRICKS:
                return self.tricks(item.raw(key), item.at(key))
            case Kind.SNAPSHOT:
                return item.snapshot(key, self.tricks)
            case Kind.CARD:
                if null and item.raw(key) in (None, ""):
                    return ""
                return self.card(item.raw(key), item.at(key))
            case Kind.POINTS:
                return read_points(item.raw(key), item.at(key))
            case Kind.VIDEO | Kind.VIDEO_PATTERN:
                link = item.text(key, max_length=VIDEO_MAX_LENGTH, blank=True)
                return read_video_link(link, item.at(key), pattern=one.kind == Kind.VIDEO_PATTERN)
            case Kind.NAMES:
                return self.names(item.raw(key), item.at(key))
            case Kind.HANDS:
                return self.hands(item.raw(key), item.at(key))
        reads = {
            Kind.FRACTION: item.fraction,
            Kind.FLAG: item.flag,
            Kind.CLAUSES: item.clause_codes,
            Kind.DURATION: item.duration,
        }
        return reads[one.kind](key)

    # --- what the rest points at

    def player(self, item: RecordObject, key: str, *, null: bool = False) -> str | None:
        name = item.raw(key)
        if name is None and null:
            return None
        if not isinstance(name, str) or name not in self.roster:
            raise problem(item.at(key), _("“%(name)s” is not on the roster.") % {"name": name})
        return name

    def table(self, item: RecordObject, key: str, *, null: bool = False) -> int | None:
        number = item.raw(key)
        if number is None and null:
            return None
        if not is_whole(number) or number not in self.tables:
            raise problem(item.at(key), _("there is no table %(number)s.") % {"number": number})
        return number

    def game_of(self, item: RecordObject, table: int) -> int | None:
        """The number of the game a report or a correction belongs to, if any."""
        number = item.raw("game")
        if number is not None and (not is_whole(number) or (table, number) not in self.games):
            raise problem(
                item.at("game"),
                _("table %(table)s has no game %(number)s in this round.")
                % {"table": table, "number": number},
            )
        return number

    def question(self, item: RecordObject, one: Field) -> int | None:
        """The position of the question the debrief shows, if any."""
        assert isinstance(one.maximum, int)  # bounded by a number, not by an event's field
        position = item.whole(one.key, minimum=one.minimum, maximum=one.maximum, null=True)
        if position is not None and position not in self.positions:
            raise problem(
                item.at(one.key),
                _("there is no question at position %(position)s.") % {"position": position},
            )
        return position

    def card(self, value: Any, where: str) -> str:
        if not is_card(value):
            raise problem(where, _("“%(card)s” is not a card of Five Tricks.") % {"card": value})
        return value

    def names(self, value: Any, where: str) -> list[str]:
        if not isinstance(value, list) or not value:
            raise problem(where, _("expected a list of names."))
        for name in value:
            if not isinstance(name, str) or name not in self.roster:
                raise problem(where, _("“%(name)s” is not on the roster.") % {"name": name})
        if len(set(value)) != len(value):
            raise problem(where, _("a name is there twice."))
        return value

    def hands(self, value: Any, where: str) -> dict[str, list[str]]:
        if not isinstance(value, dict):
            raise problem(where, _("expected an object of names and cards."))
        self.names(list(value), where)
        cards = [self.card(card, where) for hand in value.values() for card in _listed(hand, where)]
        if len(set(cards)) != len(cards):
            raise problem(where, _("a card was dealt twice."))
        return value

    def tricks(self, value: Any, where: str) -> dict[str, int] | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise problem(where, _("expected an object of names and tricks, or null."))
        for name, count in value.items():
            if name not in self.roster:
                raise problem(where, _("“%(name)s” is not on the roster.") % {"name": name})
            if not is_whole(count) or not 0 <= count <= MAX_TRICKS:
                raise problem(
                    where, _("tricks are whole numbers from 0 to %(max)s.") % {"max": MAX_TRICKS}
                )
        return value

    # --- the roster and the tables

    def player_row(self, item: RecordObject) -> Row:
        row = self.read(PLAYERS, item)
        name = row["name"]
        self.refuse_invisible(item, name)
        if name in self.roster:
            raise problem(item.at("name"), _("“%(name)s” is on the roster twice.") % {"name": name})
        if (other := self.same_names.get(same_name_key(name))) is not None:
            raise problem(
                item.at("name"),
                _("“%(name)s” and “%(other)s” are the same name (case and accents aside).")
                % {"name": name, "other": other},
            )
        self.roster.add(name)
        self.same_names[same_name_key(name)] = name
        return row

    def refuse_invisible(self, item: RecordObject, name: str) -> None:
        """A name is text and nothing else (tournament.rules.roster: Terms: control, bidi
        control); every other part of the record names players by it, so it is refused,
        not changed."""
        if controls := control_characters(name, spaces=False):
            raise problem(
                item.at("name"),
                _(
                    "“%(name)s” holds a control character (%(character)s), which cannot be "
                    "part of a name."
                )
                % {"name": shown(name), "character": code_point(controls[0])},
            )
        if marks := bidi_controls(name):
            raise problem(
                item.at("name"),
                _(
                    "“%(name)s” holds an invisible direction mark (%(character)s), which could "
                    "make it look like another name."
                )
                % {"name": shown(name), "character": code_point(marks[0])},
            )

    def table_row(self, item: RecordObject) -> Row:
        row = self.read(TABLES, item)
        number = row["number"]
        if number in self.tables:
            raise problem(
                item.at("number"), _("table %(number)s is there twice.") % {"number": number}
            )
        self.tables.add(number)
        try:
            Variant(
                **{key: row[key] for key in ("ace_high", "trump", "trump_anytime", *CLAUSE_FIELDS)}
            )
        except ValueError:
            raise problem(
                item.at("number"),
                _(
                    "table %(number)s has rules that cannot go together (no trump with a "
                    "trump rule, or trump any time with trumps led once broken)."
                )
                % {"number": number},
            ) from None
        return row

    # --- a round and what happened in it

    def round_row(self, item: RecordObject) -> Row:
        row = self.read(ROUNDS, item)
        number = row["number"]
        if number in self.round_numbers:
            raise problem(
                item.at("number"), _("round %(number)s is there twice.") % {"number": number}
            )
        self.round_numbers.add(number)
        seated: set[str] = set()
        row[SEATS.key] = [self.seat_row(seat, number, seated) for seat in item.objects(SEATS.key)]
        self.games = set()
        row[GAMES.key] = [self.game_row(game) for game in item.objects(GAMES.key)]
        for part in (REPORTS, CORRECTIONS):
            row[part.key] = [self.read(part, each) for each in item.objects(part.key)]
        row[DEALS.key] = check_deals(self, item)
        row.update(check_silent_channel(self, item))
        return row

    def seat_row(self, item: RecordObject, round_number: int, seated: set[str]) -> Row:
        row = self.read(SEATS, item)
        if row["player"] in seated:
            raise problem(
                item.at("player"),
                _("“%(name)s” has two seats in round %(number)s.")
                % {"name": row["player"], "number": round_number},
            )
        seated.add(row["player"])
        return row

    def game_row(self, item: RecordObject) -> Row:
        row = self.read(GAMES, item)
        key = (row["table"], row["number"])
        if key in self.games:
            raise problem(
                item.at("number"),
                _("table %(table)s has two games numbered %(number)s.")
                % {"table": key[0], "number": key[1]},
            )
        self.games.add(key)
        if row["winner"] is None and row["status"] != GameStatus.DISPUTED:
            raise problem(item.at("winner"), _("only a disputed game may have no winner."))
        return row

    # --- the debrief

    def answers_of(self, item: RecordObject, question: Row) -> Row:
        """A question's hidden words and its answers (a record written before them has
        none): words for a words question, numbers for the others."""
        hidden = item.data.get(HIDDEN_WORDS, [])
        if not isinstance(hidden, list) or not all(
            isinstance(word, str) and len(word) <= ANSWER_MAX_LENGTH for word in hidden
        ):
            raise problem(item.at(HIDDEN_WORDS), _("expected a list of short texts."))
        answers = []
        if ANSWERS.key in item.data:
            for each in item.objects(ANSWERS.key):
                answer = self.read(ANSWERS, each)
                words = question["answer_kind"] == AnswerKind.WORDS
                if words and not answer["text"].strip():
                    raise problem(each.at("text"), _("must not be empty."))
                if not words and answer["number"] is None:
                    raise problem(each.at("number"), _("expected a whole number."))
                answers.append(answer)
        return {HIDDEN_WORDS: hidden, ANSWERS.key: answers}

    def debrief_row(self, item: RecordObject) -> Row:
        """The record's debrief questions and where its debrief stands; the questions come
        first, as the shown question is one of them."""
        questions = []
        for each in item.objects(QUESTIONS.key):
            question = self.read(QUESTIONS, each)
            if (position := question["position"]) in self.positions:
                raise problem(
                    each.at("position"),
                    _("two questions are at position %(position)s.") % {"position": position},
                )
            self.positions.add(position)
            questions.append({**question, **self.answers_of(each, question)})
        row = self.read(DEBRIEF, item)
        if row["step"] not in DebriefStep.values:
            raise problem(
                item.at("step"), _("there is no debrief screen %(step)s.") % {"step": row["step"]}
            )
        return {**row, QUESTIONS.key: questions}
