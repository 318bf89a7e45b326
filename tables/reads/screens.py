"""What the phone pages show, read from the database: a table's screen and a player's screen.

Terms:
    screen       everything one phone page shows for the event's phase, built here with a
                 fixed number of queries at any event size; the views only render it.
    play round   the round whose seats the phones show: round 1 (the home tables) until
                 play starts, then the round being played or the last one closed.
    rule sheet   the table's own rules, on its screen during the study phase only. Once
                 study ends the sheet is gone from the phone: "the rules are taken away".
    asked game   the "Game k" a table's report form asks about: the next game, unless a
                 player chose an earlier one to contest ("No, someone else won game k").
    confirmable  the latest game, reported once by another phone: this phone is asked to
                 confirm it, and sees what it confirms (for a game cut off by the clock,
                 each player's tricks as the other phone entered them).
    chosen game  that earlier game. The choice holds only while the round is open and
                 this phone has not answered it yet, so a close, an undo or the phone's
                 own report always brings the phone back to the next game.
    mine         the game numbers this phone reported in the round (a display hint, so the
                 page does not ask a phone to confirm its own report), from its cookie; and,
                 when that cookie missed a report (its answer was lost on the way), from the
                 reports stored with the phone's id: a phone's own report is never shown to
                 it as another phone's.
    direction    where a player goes next round, in tournament.rules.movement's words: "up",
                 "down" or "stay".

A player's screen never carries rules: anybody can pick any name on the players link.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Q
from django.utils.translation import gettext as _

from tables.models import Game, GameStatus, Table
from tables.reads import prepared
from tables.reads.game_claims import uses_scoring_clause
from tables.reads.screen_play import games_in_play_won
from tables.rules.rule_sheets import RuleSheet, rule_sheet
from tables.rules.tally import shortcuts
from tables.rules.variants import DECK_SIZE
from tournament.models import Event, Phase, Player, Round, RoundStatus, Seat, SeatReason
from tournament.rules.movement import Direction
from tournament.rules.ordering import name_key

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def play_round_number(event: Event) -> int:
    if event.phase in (Phase.SETUP, Phase.STUDY, Phase.PRACTICE):
        return 1
    return event.round_number


def move_direction(from_table: int, to_table: int) -> Direction:
    """The direction of a move from one table to another, as tournament.rules.movement names it."""
    if to_table > from_table:
        return "up"
    if to_table < from_table:
        return "down"
    return "stay"


def seated_players(round_: Round, table: Table) -> list[Player]:
    """Who sits at a table in a round, in the table's own order (accents and case ignored,
    as movement and tie-breaks use it); one query."""
    # Sorted here: the seats' default order joins four tables, and costs more to compile
    # than the query takes to run.
    seats = round_.seats.filter(table=table).select_related("player").order_by()
    return _in_table_order(seat.player for seat in seats)


def _in_table_order(players: Iterable[Player]) -> list[Player]:
    return sorted(players, key=lambda player: name_key(player.name))


@dataclass(frozen=True)
class RoundRead:
    """A table's round as its caller has just read it, under the event's lock (a report's
    write): who is seated, and the table's games by number with their winners. A screen
    built with it reads none of them again."""

    round_: Round
    players: list[Player]
    games: list[Game]


# --- a table's screen ------------------------------------------------------------------


@dataclass(frozen=True)
class NextTable:
    """Where one player of this table goes for the next round, and why."""

    name: str
    to_table: int | None  # None: not seated next round (absent or removed)
    direction: Direction | None  # None when not seated next round
    reason: str | StrPromise  # a SeatReason's label is lazy
    games: int | None
    tie_broken: bool


@dataclass(frozen=True)
class Result:
    name: str
    games: int


@dataclass
class TableScreen:
    table: Table
    event: Event
    round_: Round | None = None
    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    sheet: RuleSheet | None = None
    can_report: bool = False
    next_game: int = 1
    chosen_game: int | None = None
    time_is_up: bool = False
    confirmable: Game | None = None
    moves: list[NextTable] = field(default_factory=list)
    arriving: list[str] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    is_final: bool = False

    @property
    def polling(self) -> bool:
        # At the debrief too: the phones show the question the room answers
        # (tournament.reads.debrief_answers). A finished event changes no more.
        return not self.event.is_finished

    @property
    def wins(self) -> dict[int, int]:
        counted: dict[int, int] = {}
        for game in self.games:
            if game.status != GameStatus.DISPUTED and game.winner_id:
                counted[game.winner_id] = counted.get(game.winner_id, 0) + 1
        return counted

    @property
    def winner_choices(self) -> list[tuple[Player, int]]:
        wins = self.wins
        return [(player, wins.get(player.pk, 0)) for player in self.players]

    @property
    def asked_game(self) -> int:
        return self.next_game if self.chosen_game is None else self.chosen_game

    @property
    def asked_game_exists(self) -> bool:
        return self.chosen_game is not None

    @property
    def confirmable_tricks(self) -> list[tuple[str, int]]:
        """(name, tricks) of each seated player, in the table's order, when the game to
        confirm was reported with its tricks; [] for a one-tap report."""
        game = self.confirmable
        if game is None or not game.tricks:
            return []
        return [
            (player.name, int(game.tricks[str(player.pk)]))
            for player in self.players
            if str(player.pk) in game.tricks
        ]


def _moves(table: Table, round_: Round, players: list[Player]) -> tuple[list[NextTable], list[str]]:
    """Where this table's players go next round, and who comes to this table; one query."""
    ids = {player.pk for player in players}
    next_seats = list(
        Seat.objects.filter(round__event_id=round_.event_id, round__number=round_.number + 1)
        .filter(Q(player_id__in=ids) | Q(table=table))
        .select_related("table", "player")
    )
    going = {seat.player_id: seat for seat in next_seats if seat.player_id in ids}
    moves = []
    for player in players:
        seat = going.get(player.pk)
        if seat is None:
            moves.append(
                NextTable(player.name, None, None, _("Not seated next round"), None, False)
            )
            continue
        moves.append(
            NextTable(
                name=player.name,
                to_table=seat.table.number,
                direction=move_direction(table.number, seat.table.number),
                reason=SeatReason(seat.reason).label,
                games=seat.games_won_before,
                tie_broken=seat.tie_broken,
            )
        )
    arriving = sorted(
        (seat.player.name for seat in next_seats if seat.player_id not in ids),
        key=name_key,
    )
    return moves, arriving


def _results(screen: TableScreen) -> list[Result]:
    wins = screen.wins
    ranked = sorted(screen.players, key=lambda p: (-wins.get(p.pk, 0), name_key(p.name)))
    return [Result(player.name, wins.get(player.pk, 0)) for player in ranked]


def table_screen(
    table: Table,
    *,
    chosen_game: int | None = None,
    mine: frozenset[int] | set[int] = frozenset(),
    phone: str | None = None,
    known: RoundRead | None = None,
) -> TableScreen:
    """Everything a table's phone shows now; a fixed number of queries at any event size.

    chosen_game is the earlier game the phone asked about (its ?game=k); it is ignored
    unless the round is open, the game exists and this phone has not reported it.
    ``phone`` is the phone's id (see Terms: mine).
    ``known`` is the play round as the caller read it (table.event as fresh as it): none of
    it is read again. Another round is ignored.
    """
    event = table.event
    screen = TableScreen(table=table, event=event)
    if event.phase == Phase.DEBRIEF and event.round_number == 0:
        return screen
    number = play_round_number(event)
    if known is not None and known.round_.number != number:
        known = None
    # Prepared SQL (tables.reads.prepared): every page, report answer and changed poll
    # reads these three, and compiling them as ORM queries cost more than running them.
    screen.round_ = known.round_ if known else prepared.round_of(event.pk, number)
    if screen.round_ is None:
        return screen
    screen.round_.event = event
    seated = {p.pk: p for p in known.players} if known else None
    if seated is None:
        seated = prepared.seated_players(screen.round_, table)
    screen.players = _in_table_order(seated.values())
    if event.phase == Phase.STUDY:
        # Rules exist on this page in the study phase only, for this table only.
        count = len(screen.players)
        screen.sheet = rule_sheet(
            table.variant,
            players=count if 1 <= count <= DECK_SIZE else None,
            translate=_,
        )
        return screen
    if event.phase in (Phase.SETUP, Phase.PRACTICE):
        return screen

    screen.games = (
        list(known.games) if known else prepared.table_games(screen.round_, table, seated)
    )
    screen.next_game = max((game.number for game in screen.games), default=0) + 1
    screen.can_report = screen.round_.status == RoundStatus.OPEN and bool(screen.players)
    if screen.can_report:
        screen.time_is_up = event.time_is_up()
        answerable = chosen_game in {game.number for game in screen.games}
        if answerable and chosen_game not in mine:
            screen.chosen_game = chosen_game
        else:
            latest = screen.games[-1] if screen.games else None
            if (
                latest is not None
                and latest.status == GameStatus.UNCONFIRMED
                and latest.number not in mine
                and not _reported_by(phone, latest)
            ):
                screen.confirmable = latest
    if screen.round_.status == RoundStatus.CLOSED:
        screen.is_final = screen.round_.number >= event.rounds_planned
        if event.phase == Phase.BETWEEN_ROUNDS and not screen.is_final:
            screen.moves, screen.arriving = _moves(table, screen.round_, screen.players)
        screen.results = _results(screen)
    return screen


def _reported_by(phone: str | None, game: Game) -> bool:
    """Whether the phone with this id reported the game (one query, only when asked)."""
    if phone is None:
        return False
    reports = prepared.reports_of_phone(phone, game.round, game.table)
    return any(r.table_id == game.table_id and r.game_number == game.number for r in reports)


# --- a player's screen -----------------------------------------------------------------


@dataclass(frozen=True)
class PlayerScreen:
    event: Event
    player: Player
    seat: Seat | None  # in the play round
    next_seat: Seat | None  # after a round closes
    games_won: int | None  # in the play round, once it is being played (at time up, with
    # the game cut off, as the close counts it, unless its players are to say who won it)
    is_final: bool

    @property
    def polling(self) -> bool:
        # At the debrief too: the phones show the question the room answers
        # (tournament.reads.debrief_answers). A finished event changes no more.
        return not self.event.is_finished

    @property
    def direction(self) -> Direction | None:
        if self.seat is None or self.next_seat is None:
            return None
        return move_direction(self.seat.table.number, self.next_seat.table.number)

    @property
    def time_is_up(self) -> bool:
        """The round's clock has run out: at a table, players finish the trick in hand and
        report; on screens, the game in play counts by its tricks so far."""
        return self.event.phase == Phase.ROUND and self.event.time_is_up()

    @property
    def next_reason(self) -> str | StrPromise:
        return SeatReason(self.next_seat.reason).label if self.next_seat else ""


def player_screen(event: Event, player: Player) -> PlayerScreen:
    """What the player's phone shows now; two queries at most, at any event size (six
    at time up on screens: the game in play is counted too)."""
    number = play_round_number(event)
    seats = {
        seat.round.number: seat
        for seat in Seat.objects.filter(
            player=player, round__event=event, round__number__in=[number, number + 1]
        ).select_related("table", "round")
    }
    seat = seats.get(number)
    is_final = False
    next_seat = None
    games_won = None
    if seat is not None and seat.round.status != RoundStatus.PLANNED:
        games_won = Game.objects.counted().filter(round=seat.round, winner=player).count()
        if _counts_game_in_play(event, seat):
            # Time is up: the game cut off counts by tricks so far, as the close will count it.
            in_play = games_in_play_won(seat.round_id, table_id=seat.table_id)
            games_won += in_play.get(seat.table.number) == player.name
        if seat.round.status == RoundStatus.CLOSED:
            is_final = number >= event.rounds_planned
            if event.phase == Phase.BETWEEN_ROUNDS:
                next_seat = seats.get(number + 1)
    return PlayerScreen(event, player, seat, next_seat, games_won, is_final)


def _counts_game_in_play(event: Event, seat: Seat) -> bool:
    """Whether the player's count includes the game in play at their table: at a screen
    event whose round is open and whose time is up, the close counts that game by tricks
    so far (tables.writes.screen_organizer.count_games_in_play) and nothing more is
    played; before, it is undecided; after the close it is a game like the others. Never
    at an event with a scoring clause: there the players say who won a game, and a game
    counts only once they agree (tables.writes.game_claims), so no screen names the
    winner its tricks would give before the table does."""
    return (
        event.on_screens
        and event.phase == Phase.ROUND
        and seat.round.status == RoundStatus.OPEN
        and event.time_is_up()
        and not uses_scoring_clause(event)
    )


# --- the console's paper entry (organizer) ------------------------------------------------

# Rows on a printed tally sheet, and the fewest the entry form offers.
TALLY_ROWS = 12
MAX_TALLY_ROWS = 60


@dataclass(frozen=True)
class PaperLine:
    """One game number of the entry form: what is recorded for it already, if anything."""

    number: int
    game: Game | None
    sources: list[str]


@dataclass(frozen=True)
class PaperEntryScreen:
    round_: Round
    names: list[str]
    shortcuts: dict[str, str]
    lines: list[PaperLine]

    @property
    def can_enter(self) -> bool:
        return self.round_.status == RoundStatus.OPEN and bool(self.names)


def paper_entry_screen(round_: Round, table: Table, *, rows: int = TALLY_ROWS) -> PaperEntryScreen:
    """The paper entry form of one table-round: its seated names (with the shortcut each has
    on the printed sheet), and a line per game number, with the games already recorded and
    the source of each of their reports. Three queries, whatever the number of games."""
    names = sorted(
        round_.seats.filter(table=table).values_list("player__name", flat=True), key=name_key
    )
    games = {
        game.number: game
        for game in Game.objects.filter(round=round_, table=table)
        .select_related("winner")
        .prefetch_related("reports")
    }
    count = min(max(rows, TALLY_ROWS, max(games, default=0) + 4), MAX_TALLY_ROWS)
    lines = [
        PaperLine(
            number,
            games.get(number),
            [
                report.get_source_display()
                for report in (games[number].reports.all() if number in games else ())
            ],
        )
        for number in range(1, max(count, max(games, default=0)) + 1)
    ]
    return PaperEntryScreen(round_, names, shortcuts(names), lines)
