"""Reading an event's record (tournament.reads.records) back in, as a new event.

Terms:
    record        an event written down whole as JSON, players by name and tables by
                  number (see tournament.reads.records). Its sections and fields are
                  listed once in tournament.reads.record_format: the check walks that list
                  to read the record (tournament.writes.record_checks), and the import
                  walks it again to write the rows.
    import        the record becomes a new event of this installation, under a new id and
                  owned by the organizer given. Links get fresh tokens, reports fresh
                  keys and the video rooms a fresh secret, so the new event shares no
                  secret with the old one. Exporting the
                  imported event gives the same record again, but for the time of export.
    problem       why a file cannot be imported (tournament.writes.record_checks: Terms).
                  The whole record is checked before the first write, so a file with a
                  problem writes nothing.
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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _

from tables.models import Game, GameCorrection, GameReport, Table
from tournament.models import (
    DebriefAnswer,
    DebriefQuestion,
    Event,
    ObserverNote,
    Player,
    Round,
    Seat,
    accounts_named,
)
from tournament.reads.record_format import (
    ANSWERS,
    CORRECTIONS,
    DEBRIEF,
    EVENT,
    GAMES,
    HIDDEN_WORDS,
    NOTES,
    PLAYERS,
    QUESTIONS,
    REPORTS,
    ROUNDS,
    SEATS,
    TABLES,
    Kind,
    Section,
)
from tournament.writes.record_checks import Checked, Row, check_record
from tournament.writes.record_fields import RecordProblem
from tournament.writes.record_screens import (
    hands_to_ids,
    names_to_ids,
    write_deals,
    write_silent_channel,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

M = TypeVar("M", bound=models.Model)  # a section's model: Section[Game] makes Games


@dataclass(frozen=True)
class ImportedEvent:
    """The outcome of an import: the new event, and the usernames it could not link."""

    event: Event
    unknown_users: list[str]


def import_event(*, record: Any, owner: User) -> ImportedEvent:
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


def _with_ids(tricks: dict[str, int] | None, players: dict[str, Player]) -> dict | None:
    return None if tricks is None else {str(players[name].pk): n for name, n in tricks.items()}


def _snapshot_with_ids(snapshot: dict | None, players: dict[str, Player]) -> dict | None:
    if snapshot is None or not isinstance(snapshot.get("tricks"), dict):
        return snapshot
    return {**snapshot, "tricks": _with_ids(snapshot["tricks"], players)}


def _new_report_key() -> str:
    return f"import-{secrets.token_hex(16)}"


class _Builder:
    """The new event's rows from checked rows (tournament.reads.record_format: Kind): each
    name, number or position becomes the row it names in the new event, once that row
    exists; a stamped time waits until its row is created (``restamp``)."""

    def __init__(self, users: dict[str, User]) -> None:
        self.users = users
        self.players: dict[str, Player] = {}
        self.tables: dict[int, Table] = {}
        # (round id, table, number); a row outside a round looks a game up with None.
        self.games: dict[tuple[int | None, int, int], Game] = {}
        self.questions: dict[int, DebriefQuestion] = {}  # by position
        # Per model: the stamped fields, and each row created with the record's times.
        self.stamped: dict[type[models.Model], tuple[list[str], list[tuple[Any, Row]]]] = {}

    def fields(self, section: Section, row: Row, *, round_id: int | None = None) -> dict:
        """The model's fields for a checked row, stamped times among them."""
        values = {}
        for one in section.fields:
            value = row[one.key]
            match one.kind:
                case Kind.PLAYER:
                    value = self.players.get(value)
                case Kind.TABLE:
                    value = self.tables.get(value)
                case Kind.GAME:
                    value = self.games.get((round_id, row["table"], value))
                case Kind.QUESTION:
                    value = self.questions.get(value)
                case Kind.USER:
                    value = self.users.get(value)
                case Kind.TRICKS:
                    value = _with_ids(value, self.players)
                case Kind.SNAPSHOT:
                    value = _snapshot_with_ids(value, self.players)
                case Kind.NAMES:
                    value = names_to_ids(value, self.players)
                case Kind.HANDS:
                    value = hands_to_ids(value, self.players)
            values[one.model_field] = value
        return values

    def row(self, section: Section[M], row: Row, **parents: Any) -> M:
        """A new (unsaved) row of the section's model."""
        values = self.fields(section, row, round_id=getattr(parents.get("round"), "pk", None))
        stamped = [one.model_field for one in section.fields if one.stamped]
        times = {name: values.pop(name) for name in stamped}
        instance = section.model(**parents, **values)
        if stamped:
            self.stamped.setdefault(section.model, (stamped, []))[1].append((instance, times))
        return instance

    def restamp(self) -> None:
        """Creating stamps these times with "now"; the record's own are put back."""
        for model, (names, rows) in self.stamped.items():
            for instance, times in rows:
                for name, value in times.items():
                    setattr(instance, name, value)
            # _default_manager: each model's one manager, objects, as the type of any model
            # has it.
            model._default_manager.bulk_update([instance for instance, _times in rows], names)


def _create(checked: Checked, owner: User) -> ImportedEvent:
    # By record name: a username, or a co-facilitator's name and role (accounts_named).
    usernames = accounts_named(checked.usernames)
    accounts = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=set(usernames.values()))
    }
    users = {name: accounts[username] for name, username in usernames.items()}
    build = _Builder(users)
    values = build.fields(EVENT, checked.event)
    created_at = values.pop("created_at")
    event = Event.objects.create(owner=owner, **values)
    if created_at is not None:
        Event.objects.filter(pk=event.pk).update(created_at=created_at)
        event.created_at = created_at

    build.players = {
        player.name: player
        for player in Player.objects.bulk_create(
            build.row(PLAYERS, row, event=event) for row in checked.players
        )
    }
    build.tables = {
        table.number: table
        for table in Table.objects.bulk_create(
            build.row(TABLES, row, event=event) for row in checked.tables
        )
    }
    rounds = Round.objects.bulk_create(
        build.row(ROUNDS, row, event=event) for row in checked.rounds
    )
    in_rounds = list(zip(rounds, checked.rounds, strict=True))

    def parts(section: Section[M]) -> list[M]:
        return [
            build.row(section, part, round=round_)
            for round_, row in in_rounds
            for part in row[section.key]
        ]

    Seat.objects.bulk_create(parts(SEATS))
    games = Game.objects.bulk_create(parts(GAMES))
    build.games = {(game.round_id, game.table.number, game.number): game for game in games}
    reports = parts(REPORTS)
    for report in reports:
        report.client_key = _new_report_key()
    GameReport.objects.bulk_create(reports)
    GameCorrection.objects.bulk_create(parts(CORRECTIONS))
    write_deals(build, in_rounds)
    write_silent_channel(build, in_rounds)
    build.restamp()

    ObserverNote.objects.bulk_create(build.row(NOTES, row, event=event) for row in checked.notes)
    if checked.debrief is not None:
        _write_debrief(event, checked.debrief, build)

    unknown = sorted(checked.usernames - set(users))
    return ImportedEvent(event=event, unknown_users=unknown)


def _write_debrief(event: Event, debrief: Row, build: _Builder) -> None:
    """The record's bank in place of the default one the new event was born with."""
    DebriefQuestion.objects.filter(event=event).delete()
    rows = debrief[QUESTIONS.key]
    questions = DebriefQuestion.objects.bulk_create(
        build.row(QUESTIONS, row, event=event, hidden_words=row[HIDDEN_WORDS]) for row in rows
    )
    build.questions = {question.position: question for question in questions}
    # The answers are anonymous: each gets a fresh phone id, which only keeps them apart.
    DebriefAnswer.objects.bulk_create(
        build.row(ANSWERS, answer, question=question, phone=secrets.token_urlsafe(16))
        for question, row in zip(questions, rows, strict=True)
        for answer in row[ANSWERS.key]
    )
    values = build.fields(DEBRIEF, debrief)
    for name, value in values.items():
        setattr(event, name, value)
    event.save(update_fields=list(values))
