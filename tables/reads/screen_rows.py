"""A screen table's rows as its hottest paths read them, by prepared SQL: the deal in
play at a table, a deal's plays, taken tricks and pointing, and the versions the live
channel watches.

Terms:
    prepared   SQL written once per process from the models' own table and column names
               and run through the ORM's raw(), so values are converted as any query's
               (tables.reads.prepared says why: compiling an ORM query cost more than
               running it). Each card played and each pointing is read back by every
               write that follows it at its table and by every push of the table's state
               (tournament.serving.live_channel), so these few queries run hundreds of times a
               second in a busy room.
    current    the trick being played or pointed at: one more than the tricks taken.
    deal before
               the table's deal dealt just before a deal, in the same round: the game
               whose last trick, once taken, ended it and dealt this one (or one ended
               otherwise: by the organizer, the seats' change in practice).

Nothing here writes.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import connection, models

from tables.models import Deal, Play, Pointing, ScreenSeat, ScreenSighting, Table, TakenTrick
from tournament.models import Event, Player


def _column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column, not a reverse relation
    return f'"{field.column}"'


def _table(model: type[models.Model]) -> str:
    return f'"{model._meta.db_table}"'


@cache
def _sql() -> dict[str, str]:
    deal = _column(Play, "deal")
    taken_count = (
        f"(SELECT COUNT(*) FROM {_table(TakenTrick)} WHERE {_column(TakenTrick, 'deal')} = %s)"
    )
    return {
        "deal": (
            f"SELECT * FROM {_table(Deal)} WHERE {_column(Deal, 'table')} = %s "
            f"AND {_column(Deal, 'ended_at')} IS NULL"
        ),
        "plays": f"SELECT * FROM {_table(Play)} WHERE {deal} = %s ORDER BY {_column(Play, 'id')}",
        "taken": (
            f"SELECT * FROM {_table(TakenTrick)} WHERE {_column(TakenTrick, 'deal')} = %s "
            f"ORDER BY {_column(TakenTrick, 'number')}"
        ),
        # The deal's taken tricks and the last one of the deal before it (see Terms), in
        # one statement: a new deal's screens say who took the trick that ended the last.
        "taken_since": (
            f"SELECT * FROM {_table(TakenTrick)} WHERE {_column(TakenTrick, 'deal')} = %s "
            f"UNION ALL SELECT * FROM (SELECT * FROM {_table(TakenTrick)} "
            f"WHERE {_column(TakenTrick, 'deal')} = (SELECT {_column(Deal, 'id')} "
            f"FROM {_table(Deal)} WHERE {_column(Deal, 'round')} = %s "
            f"AND {_column(Deal, 'table')} = %s AND {_column(Deal, 'id')} < %s "
            f"ORDER BY {_column(Deal, 'id')} DESC LIMIT 1) "
            f"ORDER BY {_column(TakenTrick, 'number')} DESC LIMIT 1) AS deal_before"
        ),
        "pointing": (
            f"SELECT * FROM {_table(Pointing)} WHERE {_column(Pointing, 'deal')} = %s "
            f"AND {_column(Pointing, 'trick')} = {taken_count} + 1 "
            f"ORDER BY {_column(Pointing, 'id')}"
        ),
        "players": f"SELECT * FROM {_table(Player)} WHERE {_column(Player, 'id')} IN ",
        # The events' shared versions and the tables' versions, in one statement (see
        # versions_of): 0 or 1 says which, then the row's id and its version.
        "event_versions": (
            f"SELECT 0, {_column(Event, 'id')}, {_column(Event, 'shared_version')} "
            f"FROM {_table(Event)} WHERE {_column(Event, 'id')} IN {{ids}}"
        ),
        "table_versions": (
            f"SELECT 1, {_column(Table, 'id')}, {_column(Table, 'version')} "
            f"FROM {_table(Table)} WHERE {_column(Table, 'id')} IN {{ids}}"
        ),
        # A player's sightings and their seat holder's last action, the newest kept in
        # Python (see last_seen): one statement, each half by its own index.
        "seen": (
            f"SELECT {_column(ScreenSighting, 'player')}, {_column(ScreenSighting, 'last_seen')} "
            f"FROM {_table(ScreenSighting)} WHERE {_column(ScreenSighting, 'player')} IN {{ids}} "
            f"UNION ALL SELECT {_column(ScreenSeat, 'player')}, "
            f"{_column(ScreenSeat, 'seen_at')} AS {_column(ScreenSighting, 'last_seen')} "
            f"FROM {_table(ScreenSeat)} WHERE {_column(ScreenSeat, 'player')} IN {{ids}}"
        ),
    }


def _in(ids: list[int]) -> str:
    return "(" + ", ".join(["%s"] * len(ids)) + ")"


def deal_in_play_at(table_id: int) -> Deal | None:
    """The deal in play at a table (one at most: a constraint says so)."""
    return next(iter(Deal.objects.raw(_sql()["deal"], (table_id,))), None)


def plays_of(deal_id: int) -> list[Play]:
    """The deal's plays, in the order they were made."""
    return list(Play.objects.raw(_sql()["plays"], (deal_id,)))


def taken_of(deal_id: int) -> list[TakenTrick]:
    """The deal's taken tricks, by number."""
    return list(TakenTrick.objects.raw(_sql()["taken"], (deal_id,)))


def taken_since(deal: Deal) -> tuple[list[TakenTrick], TakenTrick | None]:
    """The deal's taken tricks, by number, and the last trick taken in the deal before it
    (see Terms; None when there is none, or it took no trick). One query."""
    asked = (deal.pk, deal.round_id, deal.table_id, deal.pk)
    rows = list(TakenTrick.objects.raw(_sql()["taken_since"], asked))
    own = sorted((row for row in rows if row.deal_id == deal.pk), key=lambda row: row.number)
    before = next((row for row in rows if row.deal_id != deal.pk), None)
    return own, before


def pointing_of(deal_id: int) -> list[Pointing]:
    """Every pointing at the deal's current trick, in the order made (see Terms)."""
    return list(Pointing.objects.raw(_sql()["pointing"], (deal_id, deal_id)))


def people(ids: list[int]) -> tuple[dict[int, str], dict[int, datetime]]:
    """The names of these players, and when a screen of theirs last showed up (see
    last_seen). Two queries."""
    if not ids:
        return {}, {}
    names = {p.pk: p.name for p in Player.objects.raw(_sql()["players"] + _in(ids), ids)}
    return names, last_seen(ids)


def last_seen(ids: list[int]) -> dict[int, datetime]:
    """When a screen of each of these players last showed up, where one did: the newer of
    their sighting and their seat holder's last action (tables.models.screen_play,
    Terms: sighting, seat holder). One query."""
    if not ids:
        return {}
    sql = _sql()["seen"].replace("{ids}", _in(ids))
    seen: dict[int, datetime] = {}
    for row in ScreenSighting.objects.raw(sql, [*ids, *ids]):
        if row.player_id not in seen or row.last_seen > seen[row.player_id]:
            seen[row.player_id] = row.last_seen
    return seen


def versions_of(*, event_ids: set[int], table_ids: set[int]) -> tuple[dict, dict]:
    """The events' shared versions and the tables' versions, by id, in one statement:
    the live channel's watcher reads them at every wake (tournament.serving.live_channel),
    and each round trip and each query the ORM compiles is a turn at the interpreter's
    lock, which request and render threads hold most of the time under load."""
    found: tuple[dict[int, int], dict[int, int]] = ({}, {})
    parts, params = [], []
    for name, ids in (("event_versions", event_ids), ("table_versions", table_ids)):
        if ids:
            parts.append(_sql()[name].format(ids=_in(sorted(ids))))
            params += sorted(ids)
    if parts:
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            for kind, pk, version in cursor.fetchall():
                found[kind][pk] = version
    return found
