"""Creating tables and seating players: the bridge between the pure plan and the database.

Terms:
    table plan   how many tables and how many seats at each (tournament.table_plan).
    home table   a player's table for study, practice and round 1.
    planned round a round whose seating exists but whose play has not started: round 1
                 during setup, study and practice, or the next round between rounds.
                 Roster changes (absent, back, added) take effect on the planned round
                 if there is one, otherwise at the next round close.
    variant      a table's hidden rules, drawn from the event's seed (tables.variants).

Each function here writes several models in one transaction and bumps the event's
version so that every screen refreshes.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from tables.models import Table
from tables.variants import Variant, check_variants, draw_variants, redraw_variant
from tournament.exceptions import Refused
from tournament.models import (
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    deal_home_tables,
    table_count_problem,
)


def _refuse_unless_setup(event: Event) -> None:
    if event.phase != Phase.SETUP:
        raise Refused(_("The table plan can only change during setup, before the study phase."))


def planned_round(event: Event) -> Round | None:
    """The round whose seating exists but has not started, if any."""
    return event.rounds.filter(status=RoundStatus.PLANNED).order_by("number").first()


@transaction.atomic
def seat_players(*, event: Event, table_count: int, reshuffle: bool = False) -> Round:
    """Create tables 1..N with drawn variants, and seat present players at random.

    With reshuffle=True the event gets a new seed first, so the deal (not the variants
    of tables that already exist) comes out differently.
    """
    event = Event.objects.get(pk=event.pk)
    _refuse_unless_setup(event)
    names = list(event.players.seatable().values_list("name", flat=True))
    if problem := table_count_problem(len(names), table_count):
        raise Refused(_(problem) % {"min": MIN_TABLE_SIZE, "max": MAX_TABLE_SIZE})
    if reshuffle:
        event.seed = secrets.randbelow(1_000_000)
        event.save(update_fields=["seed"])

    event.rounds.all().delete()
    existing = list(event.tables.order_by("number"))
    if len(existing) != table_count:
        event.tables.all().delete()
        variants = draw_variants(table_count, event.seed, event.trump_anytime_share)
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
    """Put one player at another table in the planned round (before it starts)."""
    if table.event_id != player.event_id:
        raise Refused(_("That table belongs to another event."))
    round_ = planned_round(player.event)
    if round_ is None:
        raise Refused(_("Players can only be moved by hand before a round starts."))
    seat, _created = Seat.objects.update_or_create(
        round=round_,
        player=player,
        defaults={"table": table, "reason": SeatReason.PLACED},
    )
    Event.objects.bump_version(player.event_id)
    return seat


@transaction.atomic
def set_player_status(*, player: Player, status: str, table: Table | None = None) -> Player:
    """Mark a player present, absent or removed; the planned round follows at once.

    A player who comes back (or joins late) is seated at the lowest table unless the
    organizer picks one. Past rounds keep their seats, so their results stay as they were.
    """
    player.status = status
    player.save(update_fields=["status"])
    round_ = planned_round(player.event)
    if round_ is not None:
        if status == PlayerStatus.PRESENT:
            _seat_returning(player=player, round_=round_, table=table)
        else:
            round_.seats.filter(player=player).delete()
    Event.objects.bump_version(player.event_id)
    return player


def _seat_returning(*, player: Player, round_: Round, table: Table | None) -> None:
    if round_.seats.filter(player=player).exists():
        return
    if table is not None:
        reason = SeatReason.PLACED
    elif round_.number == 1:
        # Before round 1 a late arrival joins the emptiest home table, keeping tables balanced.
        table = (
            player.event.tables.annotate(seated=Count("seats", filter=Q(seats__round=round_)))
            .order_by("seated", "number")
            .first()
        )
        reason = SeatReason.HOME
    else:
        table = player.event.tables.order_by("number").first()
        reason = SeatReason.RETURNING
    if table is None:
        return  # no table plan yet: seat_players will seat them
    Seat.objects.create(round=round_, player=player, table=table, reason=reason)


# --- variants ----------------------------------------------------------------------


def _refuse_after_study_unless_confirmed(event: Event, confirmed: bool) -> None:
    if event.phase != Phase.SETUP and not confirmed:
        raise Refused(
            _("The players have already seen their rules. Confirm to change a variant anyway.")
        )


def _save_variants(event: Event, tables: list[Table], by_hand: bool = False) -> None:
    for table in tables:
        table.variant_set_by_hand = by_hand
    Table.objects.bulk_update(tables, ["ace_high", "trump", "trump_anytime", "variant_set_by_hand"])
    Event.objects.bump_version(event.pk)


@transaction.atomic
def redraw_variants(*, event: Event, confirmed: bool = False) -> list[Table]:
    """Draw every table's variant again, with a fresh seed."""
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    variants = draw_variants(len(tables), secrets.randbelow(1_000_000), event.trump_anytime_share)
    for table, variant in zip(tables, variants, strict=True):
        table.set_variant(variant)
    _save_variants(event, tables)
    return tables


@transaction.atomic
def redraw_table_variant(*, table: Table, confirmed: bool = False) -> Table:
    event = table.event
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    index = next(i for i, t in enumerate(tables) if t.pk == table.pk)
    variant = redraw_variant(
        [t.variant for t in tables], index, secrets.randbelow(1_000_000), event.trump_anytime_share
    )
    tables[index].set_variant(variant)
    _save_variants(event, [tables[index]])
    return tables[index]


@transaction.atomic
def set_table_variant(*, table: Table, variant: Variant, confirmed: bool = False) -> list[str]:
    """Set one table's variant by hand; returns warnings about the whole plan (not errors)."""
    event = table.event
    _refuse_after_study_unless_confirmed(event, confirmed)
    table.set_variant(variant)
    _save_variants(event, [table], by_hand=True)
    variants = [t.variant for t in event.tables.order_by("number")]
    return [_(problem) for problem in check_variants(variants, event.trump_anytime_share)]


def table_sizes(round_: Round) -> dict[int, int]:
    """Players seated at each table number in a round."""
    return dict(
        round_.seats.values_list("table__number")
        .annotate(n=Count("id"))
        .values_list("table__number", "n")
    )
