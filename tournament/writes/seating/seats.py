"""Seating players: the table plan's home tables, and a player moved by hand.

Terms:
    table plan    how many tables and how many seats at each (tournament.rules.table_plan).
    home table    a player's table for study, practice and round 1.
    planned round a round whose seating exists but whose play has not started: round 1
                  during setup, study and practice, or the next round between rounds.
    placed        a seat the organizer chose by hand (SeatReason.PLACED); it keeps the table
                  and reason the seating rule gave, so moving the player back shows them
                  again.

Each function locks the event's row first (Event.objects.lock) and bumps its version, so
every screen refreshes.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tables.models import Table
from tables.rules.variants import draw_variants
from tournament.common.errors import Refused
from tournament.models import Event, Phase, Player, PlayerStatus, Round, Seat, SeatReason
from tournament.rules.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    deal_home_tables,
    table_count_problem,
)


def _refuse_unless_setup(event: Event) -> None:
    if event.phase != Phase.SETUP:
        raise Refused(_("The table plan can only change during setup, before the study phase."))


@transaction.atomic
def seat_players(*, event: Event, table_count: int, reshuffle: bool = False) -> Round:
    """Create tables 1..N with drawn variants, and seat present players at random.

    With reshuffle=True the event gets a new seed first, so the deal (not the variants
    of tables that already exist) comes out differently.
    """
    event = Event.objects.lock(event.pk)
    _refuse_unless_setup(event)
    names = list(event.players.seatable().values_list("name", flat=True))
    if problem := table_count_problem(len(names), table_count):
        raise Refused(_(problem) % {"min": MIN_TABLE_SIZE, "max": MAX_TABLE_SIZE})
    if reshuffle:
        # Never the same seed again: "reshuffle" must not hand back the same deal.
        event.seed = (event.seed + 1 + secrets.randbelow(999_999)) % 1_000_000
        event.save(update_fields=["seed"])

    event.rounds.all().delete()
    existing = list(event.tables.order_by("number"))
    if len(existing) != table_count:
        event.tables.all().delete()
        variants = draw_variants(
            table_count,
            event.seed,
            event.trump_anytime_share,
            clauses=event.draw_clauses,
            disruptive_share=event.disruptive_share,
        )
        tables = []
        for number, variant in enumerate(variants, start=1):
            table = Table(event=event, number=number)
            table.set_variant(variant)
            tables.append(table)
        existing = Table.objects.bulk_create(tables)

    by_number = {table.number: table for table in existing}
    first_round = Round.objects.create(event=event, number=1)
    players = {p.name: p for p in event.players.seatable()}
    seating = deal_home_tables(players, table_count, event.seed)
    Seat.objects.bulk_create(
        Seat(
            round=first_round, player=players[name], table=by_number[number], reason=SeatReason.HOME
        )
        for name, number in seating.items()
    )
    Event.objects.bump_version(event.pk)
    return first_round


@transaction.atomic
def move_player(*, player: Player, table: Table) -> Seat:
    """Put one player at another table in the planned round (before it starts).

    The seat keeps where the player came from, so the projector can still show it.
    Refused, changing nothing, when the player already sits at that table.
    """
    if table.event_id != player.event_id:
        raise Refused(_("That table belongs to another event."))
    event = Event.objects.lock(player.event_id)
    player = Player.objects.get(pk=player.pk)
    player.event = event
    if player.status != PlayerStatus.PRESENT:
        raise Refused(
            _("%(name)s is not marked present: mark them back first.") % {"name": player.name}
        )
    round_ = player.event.planned_round()
    if round_ is None:
        raise Refused(_("Players can only be moved by hand before a round starts."))
    # A "move" to the same table would still mark the seat as placed by hand and hide
    # the move the player earned, so it changes nothing.
    if round_.seats.filter(player=player, table=table).exists():
        raise Refused(
            _("%(name)s already sits at table %(table)s.")
            % {"name": player.name, "table": table.number}
        )
    seat = round_.seats.filter(player=player).first()
    if seat is None:
        seat = Seat(round=round_, player=player)
    elif seat.reason != SeatReason.PLACED:
        seat.earned_table_id, seat.earned_reason = seat.table_id, seat.reason
    seat.table = table
    if seat.earned_table_id == table.pk:
        # Back where the seating rule put them: the move they earned shows again.
        seat.reason, seat.earned_table, seat.earned_reason = seat.earned_reason, None, ""
    else:
        seat.reason = SeatReason.PLACED
    seat.save()
    Event.objects.bump_version(player.event_id)
    return seat
