"""Creating tables and seating players: the bridge between the pure plan and the database.

Terms:
    table plan   how many tables and how many seats at each (tournament.rules.table_plan).
    home table   a player's table for study, practice and round 1.
    planned round a round whose seating exists but whose play has not started: round 1
                 during setup, study and practice, or the next round between rounds.
                 Roster changes (absent, back, added) take effect on the planned round
                 if there is one, otherwise at the next round close.
    variant      a table's hidden rules, drawn from the event's seed (tables.rules.variants).

Each function here writes several models in one transaction and bumps the event's
version so that every screen refreshes. Each locks the event's row first
(Event.objects.lock), so two organizer tabs (or a tab and a round close) never
interleave their reads and writes.

Roster changes (add, rename, absent, back, remove) never touch a round that has started:
past rounds stay exactly as they were played.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _

from tables.models import VARIANT_FIELDS, Table, variant_warnings
from tables.rules.variants import Variant, classic_variants, draw_variants, redraw_variant
from tournament.common.errors import Refused
from tournament.common.languages import known_language
from tournament.models import (
    PLAYER_NAME_MAX_LENGTH,
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
    Seat,
    SeatReason,
)
from tournament.rules.movement import Move
from tournament.rules.roster import ProblemKind, clean_name, name_problem, same_name_key
from tournament.rules.table_plan import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    deal_home_tables,
    table_count_problem,
)


@dataclass(frozen=True)
class PlayersAdded:
    """The outcome of adding players: who was added, and where they will sit."""

    players: list[Player]
    joining_note: str


@dataclass(frozen=True)
class StatusChanged:
    """The outcome of marking a player present or absent: their seat in the planned
    round (None when not seated there), and that round (None between round close and
    the next, when they join at the next close)."""

    player: Player
    planned_round: Round | None
    seat: Seat | None


def joining_note(event: Event, planned: Round | None) -> str:
    """Where players added now will sit (the rule for late joiners), for the organizer."""
    if planned is None:
        if event.phase == Phase.ROUND:
            return _("They join the lowest table when you close this round.")
        return ""
    if planned.number == 1:
        return _("They are seated at the home tables with the fewest players.")
    return _("They join the lowest table in round %(number)s.") % {"number": planned.number}


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


@transaction.atomic
def set_player_status(*, player: Player, status: str, table: Table | None = None) -> StatusChanged:
    """Mark a player present, absent or removed; the planned round follows at once.

    A player who comes back (or joins late) is seated at the lowest table unless the
    organizer picks one. Past rounds keep their seats, so their results stay as they were.
    """
    if status not in PlayerStatus.values:
        raise ValueError(f"unknown player status {status!r}")
    if table is not None and table.event_id != player.event_id:
        raise Refused(_("That table belongs to another event."))
    player.event = Event.objects.lock(player.event_id)
    player.status = status
    player.save(update_fields=["status"])
    round_ = player.event.planned_round()
    seat = None
    if round_ is not None:
        if status == PlayerStatus.PRESENT:
            seat = _seat_returning(player=player, round_=round_, table=table)
        else:
            round_.seats.filter(player=player).delete()
    Event.objects.bump_version(player.event_id)
    return StatusChanged(player=player, planned_round=round_, seat=seat)


def _seat_returning(*, player: Player, round_: Round, table: Table | None) -> Seat | None:
    seat = round_.seats.filter(player=player).select_related("table").first()
    if seat is not None:
        if table is not None:
            seat.table, seat.reason = table, SeatReason.PLACED
            seat.save(update_fields=["table", "reason"])
        return seat
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
        played_before = Seat.objects.filter(player=player).exclude(round=round_).exists()
        reason = SeatReason.RETURNING if played_before else SeatReason.JOINING
    if table is None:
        return None  # no table plan yet: seat_players will seat them
    return Seat.objects.create(round=round_, player=player, table=table, reason=reason)


def _taken_names(event: Event, *, other_than: Player | None = None) -> dict[str, Player]:
    # Compared by the same key the database's constraint uses (Player.name_key).
    players = event.players.only("name", "status")
    if other_than is not None:
        players = players.exclude(pk=other_than.pk)
    return {same_name_key(player.name): player for player in players}


def _refuse_taken_name(taken: dict[str, Player], name: str) -> None:
    clash = taken.get(same_name_key(name))
    if clash is None:
        return
    values = {"name": name, "other": clash.name}
    # Spelled differently (capitals): name the player it is taken by, or the organizer
    # looks for an identical name and does not find it.
    if clash.status == PlayerStatus.REMOVED:
        if clash.name != name:
            raise Refused(
                _(
                    "“%(name)s” clashes with “%(other)s”, who was removed earlier: put them "
                    "back from the list of removed players."
                )
                % values
            )
        raise Refused(
            _("%(name)s was removed earlier: put them back from the list of removed players.")
            % values
        )
    if clash.name != name:
        raise Refused(
            _(
                "“%(name)s” clashes with “%(other)s” already on the roster — names must "
                "differ by more than capital letters and accents."
            )
            % values
        )
    raise Refused(_("%(name)s is already on the roster.") % values)


def _checked_name(raw: str) -> str:
    name = clean_name(raw)
    problem = name_problem(name, max_length=PLAYER_NAME_MAX_LENGTH)
    if problem == ProblemKind.EMPTY:
        raise Refused(_("Type a name: letters, digits or symbols."))
    if problem == ProblemKind.TOO_LONG:
        raise Refused(
            _("That name has %(length)s characters; the limit is %(limit)s.")
            % {"length": len(name), "limit": PLAYER_NAME_MAX_LENGTH}
        )
    return name


@transaction.atomic
def add_players(*, event: Event, names: Iterable[str]) -> PlayersAdded:
    """Add players to the roster; they are seated in the planned round if there is one.

    Before round 1 they join the emptiest home tables, keeping the tables balanced; later
    they join the lowest table. Names must be new to the event (see tournament.rules.roster).
    """
    cleaned = [_checked_name(name) for name in names]
    event = Event.objects.lock(event.pk)
    taken = _taken_names(event)
    for name in cleaned:
        _refuse_taken_name(taken, name)
    if len({same_name_key(name) for name in cleaned}) != len(cleaned):
        raise Refused(_("The same name is listed twice."))
    try:
        with transaction.atomic():
            players = Player.objects.bulk_create(Player(event=event, name=n) for n in cleaned)
    except IntegrityError:
        # The constraint (Player.name_key) caught a name written past the check above, by
        # a write that did not lock the event: say whose name it is, as the check does.
        taken = _taken_names(event)
        for name in cleaned:
            _refuse_taken_name(taken, name)
        raise
    round_ = event.planned_round()
    tables = list(event.tables.order_by("number"))
    if round_ is not None and tables:
        if round_.number == 1:
            seated = round_.table_sizes()
            sizes = {table.number: seated.get(table.number, 0) for table in tables}
            by_number = {table.number: table for table in tables}
            seats = []
            for player in players:
                number = min(sizes, key=lambda n: (sizes[n], n))
                sizes[number] += 1
                seats.append(
                    Seat(
                        round=round_,
                        player=player,
                        table=by_number[number],
                        reason=SeatReason.HOME,
                    )
                )
        else:
            seats = [
                Seat(round=round_, player=player, table=tables[0], reason=SeatReason.JOINING)
                for player in players
            ]
        Seat.objects.bulk_create(seats)
    Event.objects.bump_version(event.pk)
    return PlayersAdded(players=players, joining_note=joining_note(event, round_))


@transaction.atomic
def rename_player(*, player: Player, name: str) -> Player:
    """Correct a player's name; every round, past ones included, shows the new spelling."""
    name = _checked_name(name)
    player.event = Event.objects.lock(player.event_id)
    _refuse_taken_name(_taken_names(player.event, other_than=player), name)
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        # As in add_players: the constraint caught what the check could not see yet.
        _refuse_taken_name(_taken_names(player.event, other_than=player), name)
        raise
    Event.objects.bump_version(player.event_id)
    return player


def has_history(player: Player) -> bool:
    """Whether the player took part in a round that started, or a game names them."""
    from tables.models import Game, GameReport

    return (
        player.seats.exclude(round__status=RoundStatus.PLANNED).exists()
        or Game.objects.filter(winner=player).exists()
        or GameReport.objects.filter(winner=player).exists()
    )


@transaction.atomic
def remove_player(*, player: Player) -> bool:
    """Take a player off the roster. Returns True when they were deleted outright.

    A player who never played (a typo, a no-show) is deleted, which frees the name. One who
    played is only marked removed, so past rounds and their results stay as they were.
    """
    Event.objects.lock(player.event_id)
    if has_history(player):
        set_player_status(player=player, status=PlayerStatus.REMOVED)
        return False
    event_id = player.event_id
    player.seats.all().delete()
    player.delete()
    Event.objects.bump_version(event_id)
    return True


# --- the next round ----------------------------------------------------------------


# Called inside close_round's transaction: no savepoint, so the close's query count stays put.
@transaction.atomic(savepoint=False)
def seat_next_round(*, event: Event, closed: Round, moves: dict[str, Move]) -> Round:
    """Create the round after ``closed`` and seat everyone present by the moves.

    Players absent or removed since are not seated (their move is not applied); present
    players who had no seat in the closed round return at the lowest table.
    """
    tables = {table.number: table for table in Table.objects.filter(event=event)}
    lowest = tables[min(tables)]
    next_round = Round.objects.create(event=event, number=closed.number + 1)
    present = {p.name: p for p in event.players.filter(status=PlayerStatus.PRESENT)}
    seats = []
    for name, move in moves.items():
        player = present.pop(name, None)
        if player is None:
            continue  # absent or removed since: not seated, their move is not applied
        seats.append(
            Seat(
                round=next_round,
                player=player,
                table=tables[move.to_table],
                from_table=tables[move.from_table],
                reason=SeatReason(move.reason.value),
                games_won_before=move.games,
                tie_broken=move.tie_broken,
            )
        )
    if present:
        # Present but not seated in the closed round: back from an absence, or new.
        played_before = set(
            Seat.objects.filter(player__in=present.values()).values_list("player_id", flat=True)
        )
        seats.extend(
            Seat(
                round=next_round,
                player=player,
                table=lowest,
                reason=SeatReason.RETURNING if player.pk in played_before else SeatReason.JOINING,
            )
            for player in present.values()
        )
    Seat.objects.bulk_create(seats)
    return next_round


# --- variants ----------------------------------------------------------------------


def _refuse_after_study_unless_confirmed(event: Event, confirmed: bool) -> None:
    # The phase is read again: the caller's event may be older than a click on "Start study".
    phase = Event.objects.lock(event.pk).phase
    if not event.tables.exists():
        raise Refused(_("Make the table plan first: variants are drawn for its tables."))
    if phase == Phase.DEBRIEF:
        raise Refused(_("The debrief has started: the variants the tables played are final."))
    if phase != Phase.SETUP and not confirmed:
        raise Refused(
            _("The players have already seen their rules. Confirm to change a variant anyway.")
        )


def _save_variants(event: Event, tables: list[Table], by_hand: bool = False) -> None:
    for table in tables:
        table.variant_set_by_hand = by_hand
    Table.objects.bulk_update(tables, [*VARIANT_FIELDS, "trump", "variant_set_by_hand"])
    Event.objects.bump_version(event.pk)


@transaction.atomic
def redraw_variants(*, event: Event, confirmed: bool = False) -> list[Table]:
    """Draw every table's variant again, with a fresh seed."""
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    variants = draw_variants(
        len(tables),
        secrets.randbelow(1_000_000),
        event.trump_anytime_share,
        clauses=event.draw_clauses,
        disruptive_share=event.disruptive_share,
    )
    for table, variant in zip(tables, variants, strict=True):
        table.set_variant(variant)
    _save_variants(event, tables)
    return tables


@transaction.atomic
def use_classic_variants(*, event: Event, confirmed: bool = False) -> list[Table]:
    """Give tables 1 to 10 the source tournament's own ten rule sheets (the classic set);
    further tables continue it (tables.rules.variants.classic_variants)."""
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    variants = classic_variants(len(tables), event.trump_anytime_share)
    for table, variant in zip(tables, variants, strict=True):
        table.set_variant(variant)
    _save_variants(event, tables)
    return tables


@transaction.atomic
def redraw_table_variant(*, table: Table, confirmed: bool = False) -> Table:
    """Draw one table's variant again, keeping the draw's rules against the other tables:
    it follows the event's difference set (the table may carry one of its clauses, and
    gets back its own while the plan lacks it) and the anytime and disruptive caps."""
    event = table.event
    _refuse_after_study_unless_confirmed(event, confirmed)
    tables = list(event.tables.order_by("number"))
    index = next(i for i, t in enumerate(tables) if t.pk == table.pk)
    variant = redraw_variant(
        [t.variant for t in tables],
        index,
        secrets.randbelow(1_000_000),
        event.trump_anytime_share,
        clauses=event.draw_clauses,
        disruptive_share=event.disruptive_share,
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
    return variant_warnings(event.tables.all(), event.trump_anytime_share, event.disruptive_share)


# --- table links -------------------------------------------------------------------


@transaction.atomic
def rotate_table_link(*, table: Table) -> Table:
    """Give a table a new phone link (a lost or photographed QR code); the old one stops.

    The new token and the version bump land together, so no screen polls in between and
    keeps showing the old link as current.
    """
    Event.objects.lock(table.event_id)
    table.rotate_token()
    Event.objects.bump_version(table.event_id)
    return table


@transaction.atomic
def set_sheet_language(*, table: Table, language: str) -> Table:
    """Print a table's rule sheet (and its tent card and guide) in ``language``, or in the
    event's language when it is blank; the kit then marks the table for a reprint."""
    if language and not known_language(language):
        raise Refused(_("Choose a language from the list."))
    Event.objects.lock(table.event_id)
    table.sheet_language = language
    table.save(update_fields=["sheet_language"])
    Event.objects.bump_version(table.event_id)
    return table
