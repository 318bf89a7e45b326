"""The roster: adding, renaming and removing players, and marking them absent or back.

Terms:
    roster        the event's players, present, absent or removed.
    planned round a round whose seating exists but whose play has not started: round 1
                  during setup, study and practice, or the next round between rounds.
                  Roster changes (absent, back, added) take effect on the planned round
                  if there is one, otherwise at the next round close.
    joining       where a player added or back now sits: before round 1 the home table with
                  the fewest players, later the lowest table (or a table the organizer
                  picks).
    taken name    a name already on the roster, compared as the database's constraint
                  compares them (Player.name_key: capitals, accents and invisible
                  characters ignored; tournament.rules.roster: Terms: same name).
    history       a player took part in a round that started, or a game names them: such a
                  player is only marked removed, never deleted.

Roster changes never touch a round that has started: past rounds stay exactly as they
were played. Each function locks the event's row first (Event.objects.lock) and bumps its
version, so every screen refreshes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import Deal, Game, GameReport, Gesture, Stroke, Table
from tables.writes.screen_deals import redeal_changed_tables
from tournament.common.errors import Refused
from tournament.models import (
    EVENT_MAX_PLAYERS,
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
from tournament.rules.roster import (
    ProblemKind,
    clean_name,
    code_point,
    control_characters,
    name_problem,
    same_name_key,
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
    redeal_changed_tables(event=player.event)  # a screen table's practice game
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
    if problem == ProblemKind.CONTROL:
        raise Refused(
            _(
                "That name holds a control character (%(character)s), which cannot be part "
                "of a name. Retype the name."
            )
            % {"character": code_point(control_characters(name)[0])}
        )
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
    if len(taken) + len(cleaned) > EVENT_MAX_PLAYERS:
        raise Refused(
            ngettext(
                "An event has at most %(max)s players: it has %(count)s, and this is %(new)s more.",
                "An event has at most %(max)s players: it has %(count)s, and these are "
                "%(new)s more.",
                len(cleaned),
            )
            % {"max": EVENT_MAX_PLAYERS, "count": len(taken), "new": len(cleaned)}
        )
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
        redeal_changed_tables(event=event)  # a screen table's practice game
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
    """Whether the player took part in a round that started, or a game names them, or
    (cards on screens) they were dealt in, even a practice game, or drew or gestured at a
    table: its plays and its pad stay."""
    return (
        player.seats.exclude(round__status=RoundStatus.PLANNED).exists()
        or Game.objects.filter(winner=player).exists()
        or GameReport.objects.filter(winner=player).exists()
        or Stroke.objects.filter(player=player).exists()
        or Gesture.objects.filter(player=player).exists()
        or any(
            player.pk in seats
            for seats in Deal.objects.filter(round__event_id=player.event_id).values_list(
                "seats", flat=True
            )
        )
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
