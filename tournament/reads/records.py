"""One event written down whole: the JSON record and the results sheet (CSV).

Terms:
    record        everything one event holds, as plain JSON: settings, roster, tables and
                  variants, every round's seats, games, reports and corrections, and where
                  the phases and the clock stand. Players are named by name and tables by
                  number, never by database id, so a record moves between installations
                  (tournament.writes.record_import reads it back as a new event). Its
                  parts and fields, and how each is written, are listed once in
                  tournament.reads.record_format; the export walks that list.
    format, version
                  the first two fields of a record: RECORD_FORMAT says what the file is,
                  RECORD_VERSION which shape of it; an import refuses any other.
    made by       which release of the product wrote the record, e.g. "Five Tricks 0.2.0"
                  (tournament.common.product): for whoever reads the file. An import
                  ignores it, and a record written before it existed has none.
    secret        what lets someone act as a table, a player or the projector (the phone
                  and projector links' tokens) or join a table's video call (the event's
                  video secret, tournament.models.tokens). A record never holds one; an
                  import makes fresh ones: a copy never meets in the original's rooms,
                  and a file that was passed around opens none of them. The printed-kit
                  stamps are left out too, since they carry a table's token and are
                  remade by the next printing.
    who           who closed a round or corrected a game: an account by its record name
                  (tournament.models.cofacilitators: "Noor · assistant", never the
                  account's internal number).
    derived       what the app computes again from the rest: player name keys, version
                  counters, the report keys phones made. Not written either.
    debrief       the event's debrief questions (its bank, each with its position and
                  stage, how the room answers it, the words hidden and the room's
                  anonymous answers), which screen the debrief is at, the question it shows (by
                  position) and which paths its chart draws bold: the record's "debrief"
                  object. A record written before it had none; it imports with the
                  default bank, as a new event gets.
    results sheet one spreadsheet row per player per round played: where they sat, the
                  games they won, and their move (up, down, stay) with its reason and the
                  table it led to. Planned rounds, not played yet, have no rows.
    neutralised   a text cell that a spreadsheet would read as a formula (it starts with
                  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading
                  quote, so a player called "=HYPERLINK(...)" stays a name.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.duration import duration_iso_string
from django.utils.translation import gettext as _

from tables.models import GameStatus
from tournament.common.product import made_by
from tournament.models import (
    DebriefAnswer,
    DebriefQuestion,
    Event,
    ObserverNote,
    Player,
    Round,
    RoundStatus,
    SeatReason,
    record_name,
)
from tournament.reads.record_format import (
    ANSWERS,
    DEBRIEF,
    EVENT,
    GAMES,
    HIDDEN_WORDS,
    NOTES,
    PLAYERS,
    QUESTIONS,
    RECORD_FORMAT,
    RECORD_VERSION,
    ROUND_PARTS,
    ROUNDS,
    TABLES,
    Field,
    Kind,
    Section,
)
from tournament.reads.record_screens import DEALS, screen_deals, silent_channel, trick_rows
from tournament.rules.ordering import name_key

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_BOM = "\ufeff"


def iso(moment: datetime | None) -> str | None:
    """A time as the record writes it: ISO 8601 in UTC, to the microsecond."""
    return None if moment is None else moment.astimezone(UTC).isoformat()


def _names_for(tricks: Any, names: dict[int, str]) -> Any:
    """Tricks per player as stored (player id -> count) rewritten with names, sorted. A game
    counted by a screen table holds its players' names already
    (tables.writes.screen_games.end_deal): they are kept as they are."""
    if not isinstance(tricks, dict):
        return tricks
    return dict(
        sorted(
            (names.get(int(key), key) if str(key).isdigit() else key, count)
            for key, count in tricks.items()
        )
    )


def _snapshot_with_names(snapshot: Any, names: dict[int, str]) -> Any:
    """A corrections-log snapshot with its tricks (the only ids it holds) named."""
    if not isinstance(snapshot, dict) or "tricks" not in snapshot:
        return snapshot
    return {**snapshot, "tricks": _names_for(snapshot["tricks"], names)}


@contextmanager
def _one_moment() -> Iterator[None]:
    """Reads that all see the same moment, so that a report landing while the record is
    read never names a game the record lacks. Any SQLite transaction gives that (and,
    begun IMMEDIATE as every transaction here, makes a phone's report wait while the
    record is read: about a seventh of a second at 500 players). PostgreSQL needs
    REPEATABLE READ, set before the transaction's first query."""
    starts_transaction = not connection.in_atomic_block
    with transaction.atomic():
        if starts_transaction and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def export_event(event: Event, *, now: datetime | None = None) -> dict[str, Any]:
    """The record of an event (see Terms), read in fifteen queries whatever its size."""
    with _one_moment():
        return _read_record(event, now or timezone.now())


class _Writer:
    """Writes a section's rows as the record holds them (tournament.reads.record_format:
    Kind), with the names, numbers and positions that stand for the rows they point at."""

    def __init__(self, *, names: dict[int, str], numbers: dict[int, int]) -> None:
        self.names = names
        self.numbers = numbers
        self.games: dict[int, int] = {}  # game id -> number, once the games are read
        self.positions: dict[int, int] = {}  # question id -> position, likewise

    def row(self, section: Section, values: dict[str, Any]) -> dict[str, Any]:
        return {field.key: self.value(field, values[field.column]) for field in section.fields}

    def value(self, field: Field, value: Any) -> Any:
        """One field's stored value as the record writes it."""
        match field.kind:
            case Kind.MOMENT:
                return iso(value)
            case Kind.DURATION:
                return None if value is None else duration_iso_string(value)
            case Kind.CLAUSES:
                return list(value or [])
            case Kind.PLAYER:
                return self.names.get(value)
            case Kind.TABLE:
                return self.numbers.get(value)
            case Kind.GAME:
                return self.games.get(value)
            case Kind.QUESTION:
                return self.positions.get(value)
            case Kind.TRICKS:
                return _names_for(value, self.names)
            case Kind.SNAPSHOT:
                return _snapshot_with_names(value, self.names)
            case Kind.NAMES:
                return [self.names.get(int(player)) for player in value]
            case Kind.HANDS:
                return {self.names.get(int(player)): list(cards) for player, cards in value.items()}
            case Kind.USER:
                return record_name(value) if value else value
        return (value or None) if field.null_is_blank else value

    def rows(self, section: Section, values: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        written = [self.row(section, row) for row in values]
        if section.sort_by:
            written.sort(key=lambda row: tuple(row[key] for key in section.sort_by))
        return written


def _query(section: Section, rows: QuerySet, *also: str) -> list[dict[str, Any]]:
    """A section's rows as stored: its fields' columns, the id and ``also``, in its order."""
    values = rows.values("id", *also, *section.columns)
    return list(values.order_by(*section.order_by) if section.order_by else values)


def _attributes(instance: Any, section: Section) -> dict[str, Any]:
    """A section held by one object (the event, its debrief), as a query would read it."""
    return {field.column: getattr(instance, field.column) for field in section.fields}


def _read_record(event: Event, now: datetime) -> dict[str, Any]:
    """The record, section by section as tournament.reads.record_format lists them: each
    list section in one query, a round's parts grouped by round."""
    event = Event.objects.get(pk=event.pk)
    players = _query(PLAYERS, Player.objects.filter(event=event))
    tables = _query(TABLES, event.tables.all())
    rounds = _query(ROUNDS, Round.objects.filter(event=event))
    out = _Writer(
        names={player["id"]: player["name"] for player in players},
        numbers={table["id"]: table["number"] for table in tables},
    )
    parts: dict[int, dict[str, list]] = {r["id"]: {} for r in rounds}
    for part in ROUND_PARTS:
        # _default_manager: each model's one manager, objects, as the type of any model has it.
        stored = _query(part, part.model._default_manager.filter(round__event=event), "round_id")
        if part is GAMES:
            out.games = {game["id"]: game["number"] for game in stored}
        by_round = defaultdict(list)
        for row in stored:
            by_round[row["round_id"]].append(row)
        for round_id, lists in parts.items():
            lists[part.key] = out.rows(part, by_round[round_id])
    deals = screen_deals(event, out)  # after the games: a deal names the game it counted as
    silent = silent_channel(event, out)
    for round_id, lists in parts.items():
        lists[DEALS.key] = deals.get(round_id, [])
        lists.update(silent[round_id])
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "made_by": made_by(),
        "exported_at": iso(now),
        EVENT.key: out.row(EVENT, _attributes(event, EVENT)),
        PLAYERS.key: out.rows(PLAYERS, players),
        TABLES.key: out.rows(TABLES, tables),
        ROUNDS.key: [{**out.row(ROUNDS, r), **parts[r["id"]]} for r in rounds],
        NOTES.key: out.rows(NOTES, _query(NOTES, ObserverNote.objects.filter(event=event))),
        DEBRIEF.key: _debrief_record(event, out),
    }


def _debrief_record(event: Event, out: _Writer) -> dict[str, Any]:
    """The record's "debrief" object (see Terms: debrief), in one query."""
    questions = _query(QUESTIONS, DebriefQuestion.objects.filter(event=event), HIDDEN_WORDS)
    out.positions = {question["id"]: question["position"] for question in questions}
    answers = defaultdict(list)
    rows = _query(ANSWERS, DebriefAnswer.objects.filter(question__event=event), "question_id")
    # Sorted here, by code point: PostgreSQL orders text by its collation (case ignored),
    # SQLite by code point, and a record reads the same from either.
    for answer in sorted(rows, key=lambda a: (a["question_id"], a["text"], a["number"] or 0)):
        answers[answer["question_id"]].append(answer)
    return {
        **out.row(DEBRIEF, _attributes(event, DEBRIEF)),
        QUESTIONS.key: [
            {
                **out.row(QUESTIONS, question),
                HIDDEN_WORDS: list(question[HIDDEN_WORDS] or []),
                ANSWERS.key: out.rows(ANSWERS, answers[question["id"]]),
            }
            for question in questions
        ],
    }


# --- the results sheet ---------------------------------------------------------------


def neutralised(cell: Any) -> Any:
    """A cell safe to open in a spreadsheet (see Terms: neutralised); numbers unchanged."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _direction(from_table: int, to_table: int) -> str:
    if to_table > from_table:
        return _("up")
    if to_table < from_table:
        return _("down")
    return _("stay")


def results_rows(record: dict[str, Any]) -> list[list[Any]]:
    """The results sheet of a record (see Terms), header first.

    A closed round's move is the one its close committed: the player's seat in the next
    round, with that seat's reason. A player not seated in the next round (absent,
    removed) has no move. The last round has no moves at all: nobody moves after it, so
    its rows carry the games won and nothing in the move columns. A round still being
    played has its games so far.
    """
    reasons = dict(SeatReason.choices)
    rounds = {r["number"]: r for r in record["rounds"]}
    rows: list[list[Any]] = [
        [
            _("Round"),
            _("Table"),
            _("Player"),
            _("Games won"),
            _("Move"),
            _("Reason"),
            _("Next table"),
        ]
    ]
    for number, round_ in sorted(rounds.items()):
        if round_["status"] == RoundStatus.PLANNED:
            continue
        wins = Counter(
            game["winner"]
            for game in round_["games"]
            if game["winner"] is not None and game["status"] != GameStatus.DISPUTED
        )
        following = rounds.get(number + 1)
        next_seats = {seat["player"]: seat for seat in following["seats"]} if following else {}
        seats = sorted(
            round_["seats"], key=lambda s: (s["table"], -wins[s["player"]], name_key(s["player"]))
        )
        for seat in seats:
            name, table = seat["player"], seat["table"]
            move = reason = next_table = ""
            if round_["status"] == RoundStatus.CLOSED and following is not None:
                if (next_seat := next_seats.get(name)) is not None:
                    next_table = next_seat["table"]
                    move = _direction(table, next_table)
                    reason = str(reasons.get(next_seat["reason"], next_seat["reason"]))
                else:
                    reason = _("Not seated in round %(number)s") % {"number": number + 1}
            rows.append([number, table, name, wins[name], move, reason, next_table])
    return rows


def tricks_csv(record: dict[str, Any]) -> str:
    """The screen tables' tricks as CSV text (tournament.reads.record_screens: trick row)."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in trick_rows(record):
        writer.writerow([neutralised(cell) for cell in row])
    return CSV_BOM + out.getvalue()


def results_csv(record: dict[str, Any]) -> str:
    """The results sheet as CSV text, starting with a byte order mark so that spreadsheets
    read the names' accents as UTF-8."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in results_rows(record):
        writer.writerow([neutralised(cell) for cell in row])
    return CSV_BOM + out.getvalue()


NOTES_HEADER = ("table", "round", "tag", "what", "text", "by", "at", "on_projector")


def notes_csv(record: dict[str, Any]) -> str:
    """The observers' notes as CSV (one row a note, by table and time), with the results
    sheet's byte order mark and its guard against formulas."""
    from tournament.models import NoteTag  # the tags' words, in the language active now

    labels = dict(NoteTag.choices)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(NOTES_HEADER)  # column names for programs, like the record's keys
    for note in record.get("notes", []):
        row = [
            note["table"],
            note["round"],
            note["tag"],
            str(labels.get(note["tag"], note["tag"])),
            note["text"],
            note["by"],
            note["at"],
            "yes" if note["on_projector"] else "",
        ]
        writer.writerow([neutralised(cell) for cell in row])
    return CSV_BOM + out.getvalue()


ANSWERS_HEADER = ("question", "kind", "answer")


def answers_csv(record: dict[str, Any]) -> str:
    """The room's answers to the debrief's questions as CSV: one row an answer, with its
    question and the question's kind (words, scale, rounds, tables), in the bank's order;
    nothing that says who answered, from where, or when."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(ANSWERS_HEADER)
    for question in (record.get(DEBRIEF.key) or {}).get(QUESTIONS.key, []):
        for answer in question.get(ANSWERS.key, []):
            value = answer["text"] if answer["text"] else answer["number"]
            row = [question["text"], question["answer_kind"], value]
            writer.writerow([neutralised(cell) for cell in row])
    return CSV_BOM + out.getvalue()
