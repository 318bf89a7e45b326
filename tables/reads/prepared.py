"""A table's round as its phones read it (the round, who is seated, the games) and the
rows a report reads under its event's lock, by prepared SQL.

Terms:
    prepared   SQL written once per process from the models' own table and column names,
               with %s placeholders (SQLite and PostgreSQL alike), run through the ORM's
               raw() so its values are converted as any query's (dates, JSON, booleans).
               Compiling an ORM query (its joins, its default order, select_related) cost
               several times what running it did: a report reads six of them while it
               holds the database's write lock, and a phone's page three, with every
               page, every report's answer and every changed poll (docs/PERFORMANCE.md,
               issue 23).
    related    a row another row points to (a game's winner, a report's table) is set from
               what the write has in hand when it can be, else loaded when first used, as
               the ORM does: the rare paths (a key sent twice, a phone that reported at
               another table) pay a query there.

Each function returns model instances, as the ORM query it stands for did; nothing here
writes. tables.writes.reporting calls them inside its transaction, after
Event.objects.lock; tables.reads.screens for a table's screen.
"""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from django.db import connection, models

from tables.models import Game, GameReport, Table
from tournament.models import Event, Player, Round, Seat

M = TypeVar("M", bound=models.Model)


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    # get_field finds reverse relations too, which have no column; these names are columns.
    assert isinstance(field, models.Field)
    return f'"{field.column}"'


def _table(model: type[models.Model]) -> str:
    return f'"{model._meta.db_table}"'


@cache
def _round_sql() -> str:
    return (
        f"SELECT {_columns(Round, 'r')} FROM {_table(Round)} r "
        f"WHERE r.{_column(Round, 'event')} = %s AND r.{_column(Round, 'number')} = %s"
    )


@cache
def _seated_sql() -> str:
    return (
        f"SELECT {_columns(Player, 'p')} FROM {_table(Player)} p "
        f"JOIN {_table(Seat)} s ON s.{_column(Seat, 'player')} = p.{_column(Player, 'id')} "
        f"WHERE s.{_column(Seat, 'round')} = %s AND s.{_column(Seat, 'table')} = %s "
        f"ORDER BY p.{_column(Player, 'name')}, p.{_column(Player, 'id')}"
    )


@cache
def _games_sql() -> str:
    return (
        f"SELECT {_columns(Game, 'g')} FROM {_table(Game)} g "
        f"WHERE g.{_column(Game, 'round')} = %s AND g.{_column(Game, 'table')} = %s "
        f"ORDER BY g.{_column(Game, 'number')}"
    )


@cache
def _reports_of_phone_sql() -> str:
    return (
        f"SELECT {_columns(GameReport, 'gr')} FROM {_table(GameReport)} gr "
        f"WHERE gr.{_column(GameReport, 'round')} = %s "
        f"AND gr.{_column(GameReport, 'phone')} = %s "
        f"ORDER BY gr.{_column(GameReport, 'received_at')}, gr.{_column(GameReport, 'id')}"
    )


@cache
def _report_by_key_sql() -> str:
    return (
        f"SELECT {_columns(GameReport, 'gr')} FROM {_table(GameReport)} gr "
        f"WHERE gr.{_column(GameReport, 'client_key')} = %s"
    )


def round_of(event_id: int, number: int) -> Round | None:
    """The event's round with that number (one at most: they are unique per event)."""
    return next(iter(Round.objects.raw(_round_sql(), (event_id, number))), None)


def seated_players(round_: Round, table: Table) -> dict[int, Player]:
    """The players seated at the table in the round, by id, in name order."""
    return {p.pk: p for p in Player.objects.raw(_seated_sql(), (round_.pk, table.pk))}


def table_games(round_: Round, table: Table, players: dict[int, Player]) -> list[Game]:
    """The table's games in the round by number; a winner among ``players`` is set from
    them (a settled game's winner from elsewhere loads when first used)."""
    games = list(Game.objects.raw(_games_sql(), (round_.pk, table.pk)))
    for game in games:
        game.round, game.table = round_, table
        if game.winner_id is not None and (winner := players.get(game.winner_id)) is not None:
            game.winner = winner
    return games


def reports_of_phone(phone: str, round_: Round, table: Table) -> list[GameReport]:
    """The phone's reports in the round, at any table, oldest first."""
    reports = list(GameReport.objects.raw(_reports_of_phone_sql(), (round_.pk, phone)))
    for report in reports:
        report.round = round_
        if report.table_id == table.pk:
            report.table = table
    return reports


def report_by_key(client_key: str) -> GameReport | None:
    """The report stored with that client key (keys are unique), if any."""
    return next(iter(GameReport.objects.raw(_report_by_key_sql(), (client_key,))), None)


def _converters(model: type[models.Model]) -> list[tuple[models.Field, object, list]]:
    """Each concrete field of ``model`` with what turns its database value into Python's,
    as a compiled query applies them (dates, JSON, booleans, per backend)."""
    found: list[tuple[models.Field, object, list]] = []
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        found.append(
            (
                field,
                column,
                connection.ops.get_db_converters(column) + column.get_db_converters(connection),
            )
        )
    return found


@cache
def _table_with_event(key: str = "token") -> tuple[str, list, list]:
    sql = (
        f"SELECT {_columns(Table, 't')}, {_columns(Event, 'e')} FROM {_table(Table)} t "
        f"JOIN {_table(Event)} e ON e.{_column(Event, 'id')} = t.{_column(Table, 'event')} "
        f"WHERE t.{_column(Table, key)} = %s"
    )
    return sql, _converters(Table), _converters(Event)


def _instance(model: type[M], fields: list, values: tuple) -> M:
    converted = []
    for (_field, column, converters), value in zip(fields, values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f, _c, _v in fields], converted)


def table_by_token(token: str) -> Table | None:
    """The table a link's token names, its event loaded: what every phone request starts
    with (tables.views.links), so it is prepared too. The token must look like one
    (tournament.models.looks_like_token), which the caller checks."""
    return _table_and_event("token", token)


def table_with_event(table_id: int) -> Table:
    """The table by id, its event loaded: a screen table's pushed state
    (tables.views.screen) reads it for every change of the table."""
    table = _table_and_event("id", table_id)
    if table is None:
        raise Table.DoesNotExist(table_id)
    return table


def _table_and_event(key: str, value: str | int) -> Table | None:
    sql, table_fields, event_fields = _table_with_event(key)
    with connection.cursor() as cursor:
        cursor.execute(sql, (value,))
        row = cursor.fetchone()
    if row is None:
        return None
    table = _instance(Table, table_fields, row[: len(table_fields)])
    table.event = _instance(Event, event_fields, row[len(table_fields) :])
    return table
