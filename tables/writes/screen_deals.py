"""Dealing at screen tables: a table's next game, every table's first one when study,
practice or a round begins, and a practice game dealt again when its table's seats change.

Terms:
    deal        a game at a screen table (tables.models.Deal): the source's deal of the
                seats in the table's order of names (tables.rules.screen_play.deal_game),
                with a seed from the system's randomness, kept with the deal.
    play time   see tables.writes.screen_play; nothing is dealt out of it.

Every function runs inside the caller's transaction, after Event.objects.lock.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db.models import Max
from django.utils import timezone

from tables.models import Deal, DealEnd, Table
from tables.reads.screen_play import play_round
from tables.rules import screen_play as rules
from tournament.models import Event, Player, Round, Seat
from tournament.rules.ordering import name_key


def _seated_in_order(round_: Round, table: Table) -> list[Player]:
    seats = Seat.objects.filter(round=round_, table=table).select_related("player").order_by()
    return sorted((seat.player for seat in seats), key=lambda player: name_key(player.name))


def deal_next(round_: Round, table: Table, *, practice: bool, number: int, now: datetime) -> Deal:
    players = _seated_in_order(round_, table)
    ids = [player.pk for player in players]
    seed = secrets.randbits(62)
    dealt = rules.deal_game(ids, game_number=number, seed=seed)
    return Deal.objects.create(
        round=round_,
        table=table,
        number=number,
        practice=practice,
        seed=seed,
        seats=ids,
        hands={str(player): list(cards) for player, cards in dealt.hands.items()},
        dealer_id=dealt.dealer,
        leader_id=dealt.leader,
        dealt_at=now,
    )


def deal_after(round_: Round, deal: Deal, *, now: datetime) -> Deal | None:
    """The table's next game once ``deal`` ended, while there is play time to play it
    (``round_.event`` as the caller locked it)."""
    if play_round(round_.event) is None:
        return None
    return deal_next(round_, deal.table, practice=deal.practice, number=deal.number + 1, now=now)


def deal_screen_tables(
    *, event: Event, now: datetime | None = None, keep: bool = False
) -> list[Deal]:
    """Deal a game at every seated table for the play time that just began (the caller
    holds the event's lock: tournament.writes.rounds.advance_phase). The deals still in
    play end uncounted (the study's when practice begins, the practice's when round 1
    opens); with ``keep``, they go on and only the tables without one are dealt (time
    added to a round whose close was undone)."""
    now = now or timezone.now()
    where = play_round(event)
    if not event.on_screens or where is None:
        return []
    round_, practice = where
    in_play = Deal.objects.filter(round__event=event, ended_at__isnull=True)
    if keep:
        playing = set(in_play.values_list("table_id", flat=True))
    else:
        in_play.update(ended_at=now, end=DealEnd.ABANDONED)
        playing = set()
    tables = (
        Table.objects.filter(seats__round=round_)
        .exclude(pk__in=playing)
        .distinct()
        .order_by("number")
    )
    dealt_before = dict(
        Deal.objects.filter(round=round_, practice=practice)
        .values("table_id")
        .annotate(last=Max("number"))
        .values_list("table_id", "last")
    )
    return [
        deal_next(
            round_, table, practice=practice, number=dealt_before.get(table.pk, 0) + 1, now=now
        )
        for table in tables
    ]


def redeal_changed_tables(*, event: Event, now: datetime | None = None) -> list[Deal]:
    """Study and practice at a screen event: the organizer marked a player absent or
    present, or added one, so a table's seats changed under its practice game. That game
    ends uncounted and the table is dealt again with its players now; the other tables
    play on. The caller holds the event's lock."""
    where = play_round(event)
    if not event.on_screens or where is None or not where[1]:
        return []
    round_, _practice = where
    now = now or timezone.now()
    seated: dict[int, set[int]] = {}
    for table_id, player_id in Seat.objects.filter(round=round_).values_list(
        "table_id", "player_id"
    ):
        seated.setdefault(table_id, set()).add(player_id)
    dealt = []
    in_play = {
        deal.table_id: deal for deal in Deal.objects.filter(round=round_, ended_at__isnull=True)
    }
    for table_id in set(seated) | set(in_play):
        deal = in_play.get(table_id)
        if deal is not None and {int(p) for p in deal.seats} == seated.get(table_id, set()):
            continue
        if deal is not None:
            Deal.objects.filter(pk=deal.pk).update(ended_at=now, end=DealEnd.ABANDONED)
        if seated.get(table_id):
            table = Table.objects.get(pk=table_id)
            number = deal.number + 1 if deal is not None else 1
            dealt.append(deal_next(round_, table, practice=True, number=number, now=now))
        Table.objects.bump_version(table_id=table_id, event_id=event.pk)
    return dealt
