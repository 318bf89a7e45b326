"""One event written down whole: the JSON record and the results sheet (CSV).

Terms:
    record        everything one event holds, as plain JSON: settings, roster, tables and
                  variants, every round's seats, games, reports and corrections, and where
                  the phases and the clock stand. Players are named by name and tables by
                  number, never by database id, so a record moves between installations
                  (tournament.writes.record_import reads it back as a new event).
    format, version
                  the first two fields of a record: RECORD_FORMAT says what the file is,
                  RECORD_VERSION which shape of it; an import refuses any other.
    secret        what lets someone act as a table, a player or the projector: the phone
                  and projector links' tokens. A record never holds one; an import makes
                  fresh ones. The printed-kit stamps are left out too, since they carry
                  a table's token and are remade by the next printing.
    derived       what the app computes again from the rest: player name keys, version
                  counters, the report keys phones made. Not written either.
    debrief       the event's debrief questions (its bank, each with its position and
                  stage), which screen the debrief is at, the question it shows (by
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
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.duration import duration_iso_string
from django.utils.translation import gettext as _

from tables.models import Game, GameCorrection, GameReport, GameStatus
from tournament.models import (
    DebriefQuestion,
    Event,
    ObserverNote,
    Player,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.rules.movement import explain_moves

RECORD_FORMAT = "fivetricks-event"
RECORD_VERSION = 1
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_BOM = "\ufeff"


def iso(moment: datetime | None) -> str | None:
    """A time as the record writes it: ISO 8601 in UTC, to the microsecond."""
    return None if moment is None else moment.astimezone(UTC).isoformat()


def _names_for(tricks: Any, names: dict[int, str]) -> Any:
    """Tricks per player as stored (player id -> count) rewritten with names, sorted."""
    if not isinstance(tricks, dict):
        return tricks
    return dict(sorted((names.get(int(key), key), count) for key, count in tricks.items()))


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
    """The record of an event (see Terms), read in nine queries whatever its size."""
    with _one_moment():
        return _read_record(event, now or timezone.now())


def _read_record(event: Event, now: datetime) -> dict[str, Any]:
    event = Event.objects.get(pk=event.pk)
    players = list(Player.objects.filter(event=event).values("id", "name", "status"))
    names = {player["id"]: player["name"] for player in players}
    tables = list(
        event.tables.values(
            "id",
            "number",
            "ace_high",
            "trump",
            "trump_anytime",
            "no_trump",
            "trumps_broken",
            "must_overtake",
            "fewest_wins",
            "variant_set_by_hand",
            "sheet_language",
        ).order_by("number")
    )
    numbers = {table["id"]: table["number"] for table in tables}
    rounds = list(
        Round.objects.filter(event=event)
        .values("id", "number", "status", "started_at", "closed_at", "closed_by__username")
        .order_by("number")
    )
    by_round: dict[int, dict[str, list]] = {
        r["id"]: {"seats": [], "games": [], "reports": [], "corrections": []} for r in rounds
    }

    for seat in Seat.objects.filter(round__event=event).values(
        "round_id",
        "player_id",
        "table_id",
        "from_table_id",
        "reason",
        "games_won_before",
        "tie_broken",
        "earned_table_id",
        "earned_reason",
    ):
        by_round[seat["round_id"]]["seats"].append(
            {
                "player": names[seat["player_id"]],
                "table": numbers[seat["table_id"]],
                "from_table": numbers.get(seat["from_table_id"]),
                "reason": seat["reason"],
                "games_won_before": seat["games_won_before"],
                "tie_broken": seat["tie_broken"],
                "earned_table": numbers.get(seat["earned_table_id"]),
                "earned_reason": seat["earned_reason"] or None,
            }
        )

    game_numbers: dict[int, int] = {}
    for game in Game.objects.filter(round__event=event).values(
        "id",
        "round_id",
        "table_id",
        "number",
        "winner_id",
        "tricks",
        "finished",
        "status",
        "reported_by",
        "reported_at",
        "updated_at",
    ):
        game_numbers[game["id"]] = game["number"]
        by_round[game["round_id"]]["games"].append(
            {
                "table": numbers[game["table_id"]],
                "number": game["number"],
                "winner": names.get(game["winner_id"]),
                "tricks": _names_for(game["tricks"], names),
                "finished": game["finished"],
                "status": game["status"],
                "reported_by": game["reported_by"],
                "reported_at": iso(game["reported_at"]),
                "updated_at": iso(game["updated_at"]),
            }
        )

    for report in (
        GameReport.objects.filter(round__event=event)
        .values(
            "round_id",
            "table_id",
            "game_number",
            "game_id",
            "winner_id",
            "tricks",
            "finished",
            "state",
            "source",
            "received_at",
        )
        .order_by("received_at", "pk")
    ):
        by_round[report["round_id"]]["reports"].append(
            {
                "table": numbers[report["table_id"]],
                "game_number": report["game_number"],
                "game": game_numbers.get(report["game_id"]),
                "winner": names[report["winner_id"]],
                "tricks": _names_for(report["tricks"], names),
                "finished": report["finished"],
                "state": report["state"],
                "source": report["source"],
                "received_at": iso(report["received_at"]),
            }
        )

    for correction in (
        GameCorrection.objects.filter(round__event=event)
        .values(
            "round_id",
            "table_id",
            "game_number",
            "game_id",
            "action",
            "changed_by__username",
            "changed_at",
            "before",
            "after",
        )
        .order_by("changed_at", "pk")
    ):
        by_round[correction["round_id"]]["corrections"].append(
            {
                "table": numbers[correction["table_id"]],
                "game_number": correction["game_number"],
                "game": game_numbers.get(correction["game_id"]),
                "action": correction["action"],
                "changed_by": correction["changed_by__username"],
                "changed_at": iso(correction["changed_at"]),
                "before": _snapshot_with_names(correction["before"], names),
                "after": _snapshot_with_names(correction["after"], names),
            }
        )

    for lists in by_round.values():
        lists["seats"].sort(key=lambda seat: (seat["table"], seat["player"]))
        lists["games"].sort(key=lambda game: (game["table"], game["number"]))

    paused = event.clock_paused_remaining
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "exported_at": iso(now),
        "event": {
            "name": event.name,
            "created_at": iso(event.created_at),
            "seed": event.seed,
            "rounds_planned": event.rounds_planned,
            "round_minutes": event.round_minutes,
            "study_minutes": event.study_minutes,
            "practice_minutes": event.practice_minutes,
            "trump_anytime_share": event.trump_anytime_share,
            "difference_set": event.difference_set,
            "custom_clauses": list(event.custom_clauses or []),
            "disruptive_share": event.disruptive_share,
            "language": event.language,
            "phase": event.phase,
            "round_number": event.round_number,
            "clock_ends_at": iso(event.clock_ends_at),
            "clock_paused_remaining": None if paused is None else duration_iso_string(paused),
            "rules_revealed": event.rules_revealed,
        },
        "players": sorted(
            ({"name": p["name"], "status": p["status"]} for p in players),
            key=lambda player: player["name"],
        ),
        "tables": [{key: value for key, value in table.items() if key != "id"} for table in tables],
        "rounds": [
            {
                "number": r["number"],
                "status": r["status"],
                "started_at": iso(r["started_at"]),
                "closed_at": iso(r["closed_at"]),
                "closed_by": r["closed_by__username"],
                **by_round[r["id"]],
            }
            for r in rounds
        ],
        # The observers' notes (tournament.writes.notes); a record without them imports too.
        "notes": [
            {
                "table": note["table_number"],
                "round": note["round_number"],
                "tag": note["tag"],
                "text": note["text"],
                "by": note["author_name"],
                "at": iso(note["created_at"]),
                "on_projector": note["on_projector"],
            }
            for note in ObserverNote.objects.filter(event=event)
            .order_by("table_number", "created_at", "pk")
            .values(
                "table_number",
                "round_number",
                "tag",
                "text",
                "author_name",
                "created_at",
                "on_projector",
            )
        ],
        "debrief": _debrief_record(event),
    }


def _debrief_record(event: Event) -> dict[str, Any]:
    """The record's "debrief" object (see Terms: debrief), in one query."""
    questions = list(
        DebriefQuestion.objects.filter(event=event)
        .values("id", "position", "stage", "text")
        .order_by("position")
    )
    shown = next((q["position"] for q in questions if q["id"] == event.debrief_question_id), None)
    return {
        "step": event.debrief_step,
        "shown_question": shown,
        "paths_highlight": event.paths_highlight,
        "questions": [
            {"position": q["position"], "stage": q["stage"], "text": q["text"]} for q in questions
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
    removed) has no move. After the last round there is no next seating, so the move is
    the one the movement rule gives from the round's results, without a next table, as
    the projector shows the final moves. A round still being played has its games so far.
    """
    reasons = dict(SeatReason.choices)
    all_tables = [table["number"] for table in record["tables"]]
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
        final_moves = {}
        if round_["status"] == RoundStatus.CLOSED and following is None:
            standings: dict[int, dict[str, int]] = defaultdict(dict, {n: {} for n in all_tables})
            for seat in round_["seats"]:
                standings[seat["table"]][seat["player"]] = wins[seat["player"]]
            final_moves = explain_moves(standings)
        seats = sorted(round_["seats"], key=lambda s: (s["table"], -wins[s["player"]], s["player"]))
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
            elif name in final_moves:
                final = final_moves[name]
                move = _direction(table, final.to_table)
                reason = str(reasons.get(final.reason.value, final.reason.value))
            rows.append([number, table, name, wins[name], move, reason, next_table])
    return rows


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
