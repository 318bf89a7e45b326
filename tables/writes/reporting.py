"""Reporting games from phones (the organizer's corrections are in tables.writes.corrections).

Terms:
    report       one phone's statement "game k at table t was won by p" (see tables.models).
    client key   a random key the phone makes once per game report; a double tap or a
                 retried request over bad Wi-Fi carries the same key, so it is stored once
                 (tables.writes.store_once). The same key with another report (another
                 round, winner, tricks or game) is refused and changes nothing: a key is
                 one report.
    confirmation a second report for the same game that names the same winner.
    dispute      a second report that names another winner: both are kept, the game counts
                 for nobody, and the organizer settles it.
    late report  a report that reaches a round already closed: kept, not counted, until the
                 organizer accepts it (it then counts as the game it names) or drops it.
    game number  the "Game k" a phone offered. Phones at one table that name the same k
                 speak of the same game, which is how a second phone confirms the first.
    quick retap, phantom game
                 a second tap that may not be a new game: see tables.writes.second_taps.
    phone        the random id a phone keeps in its ``ft_phone`` cookie for weeks, stored
                 on each of its reports (tables.models.GameReport.phone). A phone without
                 the cookie (or paper, or the organizer) has none, and is judged as before.
    duplicate    a second report of game k from the phone that already reported it, with
                 the same winner and a new client key (a reloaded page, a second tab, a
                 forged "confirm"): nothing is stored and the game is not confirmed. Two
                 reports from one phone never make a confirmation. The same phone naming
                 another winner for its own game is stored as a dispute, as from any
                 phone: it counts for nobody until the organizer settles it.
    held report  a report from a phone that already reported at another table in the same
                 round. In a round a phone belongs to one table, so this is the table link
                 used from elsewhere: a player who moved away and kept the old page open,
                 a photo of a tent card's QR code. The report is kept, not counted, and
                 shown to the organizer with its note ("this phone reported at table 3 this
                 round"), who accepts it (it then counts as the game it names) or drops it,
                 as a late report. The phone is told plainly that the organizer will check
                 it. Once the organizer accepted one held report of a phone at a table, that
                 phone's later reports there in the round count as usual: the organizer
                 vouched for it (a table that borrowed the phone of a player from another
                 table, say).

Why holding, and not refusing or counting: a link cannot be taken back from a photo, and
the organizer may rotate a table's link only between rounds without disturbing the room.
Refusing would lose a real result reported by a helpful neighbour; counting would let a
player who moved away add or confirm games at a table they left. Holding loses nothing,
costs the organizer one click, and makes the odd report visible where late reports
already are. The first table a phone reports at in a round is not held, so a phone that
reports at its old table and then at its new one gets the second report held: the note
names the old table, where the organizer looks next. A name that is not seated at the
table in the round is refused, as before: the page offers only the seated players.

A game is counted once, however many reports it has. What a counted report does to its
game (records, confirms or disputes it) is the rule paper tally sheets follow too
(tables.writes.recording). A finished event (see tournament.writes.finishing) takes no
report at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.models import (
    Game,
    GameReport,
    ReportSource,
    ReportState,
    Table,
)
from tables.reads import prepared
from tables.rules.scoring import check_tricks, game_winner
from tables.rules.variants import DECK_SIZE
from tables.writes.recording import Outcome, record_reports
from tables.writes.second_taps import (
    RetapQuestion,
    is_quick_retap,
    just_reported_elsewhere,
    previous_report,
)
from tables.writes.store_once import ClientKey, find_retry, store_once
from tournament.common.errors import Refused
from tournament.models import Event, Player, Round, RoundStatus


@dataclass(frozen=True)
class TableState:
    """The table as a stored report left it, read under the event's lock: what the phone's
    answer shows (tables.reads.screens.table_screen), so it reads none of it again."""

    event: Event  # as locked, its version bumped
    round_: Round  # the round the report names
    players: list[Player]  # seated at the table in that round
    games: list[Game]  # the table's games in that round by number, winners loaded
    table_version: int  # the table's version after the report


@dataclass(frozen=True)
class Asked:
    """What a report asks, to tell a retry of it from another report sent with its key."""

    round_number: int
    game_number: int | None
    winner_id: int | None
    tricks: dict[str, int] | None
    finished: bool

    def is_retry_of(self, stored: GameReport) -> bool:
        """Whether ``stored`` is this report. It may be stored under an earlier game than
        it named (a page behind a deleted game is read as the next game, a tap as the
        confirmation of the game before), never a later one. One query: the round."""
        if self.tricks is None:
            result = stored.tricks is None and stored.winner_id == self.winner_id
        else:
            result = stored.tricks == self.tricks
        return (
            result
            and stored.finished == self.finished
            and (self.game_number is None or stored.game_number <= self.game_number)
            and stored.round.number == self.round_number
        )


@dataclass(frozen=True)
class ReportResult:
    outcome: Outcome
    report: GameReport
    game: Game | None
    # A phantom game: the report named the game after this one, and confirmed this one.
    read_as_confirmation: bool = False
    # None when nothing was stored (a repeated key, a duplicate).
    state: TableState | None = None


def next_game_number(*, round_: Round, table: Table) -> int:
    highest = Game.objects.filter(round=round_, table=table).aggregate(n=Max("number"))["n"]
    return (highest or 0) + 1


def seated_players(round_: Round, table: Table) -> dict[int, Player]:
    """The players seated at a table in a round, by id, in name order: the only ones a
    result may name. Ordered by name alone (the seats' default order joins four tables,
    and compiling it cost more than running the query)."""
    seats = round_.seats.filter(table=table).select_related("player").order_by("player__name")
    return {seat.player_id: seat.player for seat in seats}


def _tricks_json(tricks: Mapping[Player, int] | None) -> dict[str, int] | None:
    return None if tricks is None else {str(p.pk): int(n) for p, n in tricks.items()}


def _refuse_unless_playing(round_: Round | None, round_number: int) -> Round:
    if round_ is None or round_.status == RoundStatus.PLANNED:
        if round_number <= 1:
            raise Refused(_("No round is being played yet: practice games are not scored."))
        raise Refused(
            _("Round %(number)s has not started yet: wait for the organizer to start it.")
            % {"number": round_number}
        )
    return round_


def _winner_from_tricks(
    tricks: Mapping[Player, int],
    seated: Mapping[int, Player],
    *,
    finished: bool,
    fewest_wins: bool = False,
) -> Player:
    """The player with most tricks (the fewest at a fewest-wins table), once the counts fit
    the table's deal (tables.rules.scoring). The phone never says which: the table's rule is
    applied here, so nothing on the phone gives a variant away."""
    counts = {player.name: count for player, count in tricks.items()}
    problems = check_tricks(
        counts,
        # More players than cards: the deal is the 28-player one, one card each.
        players=min(len(seated), DECK_SIZE),
        finished=finished,
        translate=_,
    )
    if problems:
        raise Refused(" ".join(problems))
    by_name = {player.name: player for player in tricks}
    return by_name[game_winner(counts, fewest_wins=fewest_wins)]


def report_game(
    *,
    table: Table,
    round_number: int,
    client_key: str,
    winner: Player | None = None,
    tricks: Mapping[Player, int] | None = None,
    finished: bool | None = None,
    game_number: int | None = None,
    source: str = ReportSource.PHONE,
    previous_key: str | None = None,
    tapped: bool = False,
    phone: str | None = None,
    retap_checked: bool = False,
    now: datetime | None = None,
) -> ReportResult:
    """Store one report of a game at a table, given either the winner or tricks per player.

    With tricks, the winner is the player with most tricks so far (the fewest at a
    fewest-wins table; ties broken alphabetically either way), which is how a game cut
    off by the clock is decided; such a game counts as unfinished unless ``finished``
    says otherwise.

    ``game_number`` is the "Game k" the phone offered; without it the report is the next
    game. A number beyond the next one (a stale page after the organizer deleted a game)
    also means the next game. The same ``client_key`` twice returns the stored report
    (REPEATED) and stores nothing, even when both requests arrive at once.

    ``previous_key`` is the client key of the last report this phone made at this table,
    for a phone without a phone id. A quick retap (see Terms) raises RetapQuestion unless
    ``retap_checked`` says the phone's script already asked; nothing is stored.

    ``tapped`` says the winner was tapped in a phone's list of names, under which another
    phone's report may be waiting for confirmation: such a report can be a phantom game,
    and then confirms the latest game. A phone without the cookie (``previous_key`` None)
    is taken for another phone, as its page already asks it to confirm.

    ``phone`` is the phone's own id (see the module's terms): a second report of the same
    game from it is a DUPLICATE, and a report from a phone that reported at another table
    in this round is HELD for the organizer.
    """
    if not client_key or len(client_key) > 64:
        raise _invalid_key()
    if (winner is None) == (tricks is None):
        raise Refused(_("Report either the winner or the tricks per player."))
    if game_number is not None and game_number < 1:
        raise Refused(_("Games are numbered from 1."))
    if table.event.on_screens:
        # A screen table's games count by themselves (tables.writes.screen_play).
        raise Refused(_("This event's cards are on screens: its games count by themselves."))
    finished = (tricks is None) if finished is None else finished
    winner_id = None if winner is None else winner.pk
    asked = Asked(round_number, game_number, winner_id, _tricks_json(tricks), finished)
    key = _report_key(client_key, table, asked)
    # One transaction, store_once's: a report of this key stored meanwhile is the answer.
    return store_once(
        key=key,
        store=lambda: _report_game(
            table=table,
            key=key,
            round_number=round_number,
            client_key=client_key,
            winner=winner,
            tricks=tricks,
            finished=finished,
            game_number=game_number,
            source=source,
            previous_key=previous_key,
            tapped=tapped,
            phone=phone or None,
            retap_checked=retap_checked,
            now=now or timezone.now(),
        ),
        repeated=_repeated,
    )


def _report_key(client_key: str, table: Table, asked: Asked) -> ClientKey[GameReport]:
    """A report's client key (tables.writes.store_once): a retry is this table's report
    that is the one ``asked``. Another table's key is refused as if it were not a key
    (keys are random, so this is a forged request: never show another table's games),
    and this table's with another report, as a key already used."""
    return ClientKey(
        find=lambda: prepared.report_by_key(client_key),
        mine=lambda stored: stored.table_id == table.pk,
        same=asked.is_retry_of,
        foreign=_invalid_key,
        reused=lambda: Refused(
            _(
                "This key was already used for another report: nothing was changed. "
                "Reload the page and report again."
            )
        ),
    )


def _invalid_key() -> Refused:
    return Refused(
        _("This report could not be matched to your table. Reload the page and report again.")
    )


def _repeated(stored: GameReport) -> ReportResult:
    """A retry's answer: the report stored with its key, REPEATED."""
    return ReportResult(Outcome.REPEATED, stored, stored.game)


def _report_game(
    *,
    table: Table,
    key: ClientKey[GameReport],
    round_number: int,
    client_key: str,
    winner: Player | None,
    tricks: Mapping[Player, int] | None,
    finished: bool,
    game_number: int | None,
    source: str,
    previous_key: str | None,
    tapped: bool,
    phone: str | None,
    retap_checked: bool,
    now: datetime,
) -> ReportResult:
    # First, so this report and a close (or another report) of the event run one
    # after the other: what the checks below read stays true until the commit.
    event = Event.objects.lock(table.event_id)
    if (stored := find_retry(key=key)) is not None:
        return _repeated(stored)
    # A finished event is read-only (tournament.writes.finishing): read under the lock, as
    # the organizer may have finished it since the phone's link was looked up.
    if event.is_finished:
        raise Refused(_("The event is finished: no more games can be reported."))

    round_, winner, seated = _round_and_winner(
        table, round_number, winner=winner, tricks=tricks, finished=finished
    )
    # This phone's reports in the round, at any table: one query, none without a phone.
    mine = _phone_reports(phone, round_, table)

    # Every game of the table in the round, in one query: the latest for the phantom
    # check, the one this report names, and the phone's answer.
    games = {game.number: game for game in _table_games(round_, table, seated)}
    latest = games[max(games)] if games else None
    next_number = (latest.number if latest else 0) + 1
    number = next_number if game_number is None else min(game_number, next_number)
    phantom = (
        tapped
        and tricks is None
        and number == next_number
        and round_.status == RoundStatus.OPEN
        and just_reported_elsewhere(
            latest, winner=winner, previous_key=previous_key, mine=mine, now=now
        )
    )
    # A phantom has a latest game (just_reported_elsewhere); said for the type checker.
    if phantom and latest is not None:
        number = latest.number
    # Only a report that would create a new game can be a quick retap; one for a game
    # that exists already is a confirmation (or a dispute) of another phone's report.
    elif not retap_checked and number == next_number:
        previous = previous_report(mine, previous_key, round_=round_, table=table)
        if is_quick_retap(previous, number=number, winner=winner, now=now):
            raise RetapQuestion(winner=winner, number=number)
    own = _own_report(mine, table=table, number=number, winner=winner)
    if own is not None:
        return ReportResult(Outcome.DUPLICATE, own, own.game)
    report = GameReport(
        round=round_,
        table=table,
        game_number=number,
        winner=winner,
        tricks=_tricks_json(tricks),
        finished=finished,
        client_key=client_key,
        source=source,
        phone=phone or "",
        other_table_number=_other_table(mine, table=table),
    )
    return _store(report, event=event, seated=seated, games=games, phantom=phantom)


def _store(
    report: GameReport,
    *,
    event: Event,
    seated: dict[int, Player],
    games: dict[int, Game],
    phantom: bool,
) -> ReportResult:
    """Store a new report: kept for the organizer (late, held) or counted for its game;
    then the versions bumped, and the table as it now is for the phone's answer."""
    round_, table, number = report.round, report.table, report.game_number
    if (kept := _keep_for_the_organizer(report, round_)) is None:
        outcome, game = _attach(report, round_, table, games.get(number))
        games[number] = game
    else:
        outcome, game = kept, None
    state = TableState(
        event=event,
        round_=round_,
        players=list(seated.values()),
        games=[games[n] for n in sorted(games)],
        table_version=_bump_versions(event, table),
    )
    confirmed = phantom and kept is None
    return ReportResult(outcome, report, game, read_as_confirmation=confirmed, state=state)


def _table_games(round_: Round, table: Table, seated: dict[int, Player]) -> list[Game]:
    """The table's games in the round, with their winners: one query."""
    return prepared.table_games(round_, table, seated)


def _bump_versions(event: Event, table: Table) -> int:
    """Tell the screens that this table's games changed (Table.objects.bump_version), and
    return the table's new version, for the ETag of the phone's answer. ``event`` is the
    locked event: its version in memory follows the bump."""
    version = Table.objects.bump_version(table_id=table.pk, event_id=event.pk)
    # None only for a table that is not there; this one was read under the event's lock.
    assert version is not None
    event.version += 1
    return version


def _round_and_winner(
    table: Table,
    round_number: int,
    *,
    winner: Player | None,
    tricks: Mapping[Player, int] | None,
    finished: bool,
) -> tuple[Round, Player, dict[int, Player]]:
    """The round being played, the winner a report names, given or from its tricks, and
    who is seated: refused unless every player it names is seated at the table in that
    round."""
    round_ = _refuse_unless_playing(
        prepared.round_of(table.event_id, round_number),
        round_number,
    )
    seated = prepared.seated_players(round_, table)
    named = [winner] if winner is not None else list(tricks or {})
    if not named or any(p.pk not in seated for p in named):
        raise Refused(_("That player is not seated at this table in this round."))
    if winner is not None:
        winner = seated[winner.pk]  # as read under the lock (the caller may know only its id)
    if tricks is not None:
        winner = _winner_from_tricks(
            tricks, seated, finished=finished, fewest_wins=table.fewest_wins
        )
    # report_game refuses a report with neither a winner nor tricks, so one set it.
    assert winner is not None
    return round_, winner, seated


def _keep_for_the_organizer(report: GameReport, round_: Round) -> Outcome | None:
    """A late or held report (see Terms), stored uncounted: LATE or HELD; None for any
    other, which is not stored here."""
    closed = round_.status == RoundStatus.CLOSED
    if not closed and report.other_table_number is None:
        return None
    report.state = ReportState.LATE if closed else ReportState.HELD
    report.save()
    return Outcome.LATE if closed else Outcome.HELD


def _phone_reports(phone: str | None, round_: Round, table: Table) -> list[GameReport]:
    """A phone's reports in a round, oldest first: one query, none without a phone."""
    return [] if phone is None else prepared.reports_of_phone(phone, round_, table)


def _own_report(
    mine: list[GameReport], *, table: Table, number: int, winner: Player
) -> GameReport | None:
    """This phone's earlier report of the same game naming the same winner: a duplicate."""
    for earlier in mine:
        if (
            earlier.table_id == table.pk
            and earlier.game_number == number
            and earlier.winner_id == winner.pk
            and earlier.state != ReportState.DROPPED
        ):
            return earlier
    return None


def _other_table(mine: list[GameReport], *, table: Table) -> int | None:
    """The table where this phone last reported in the round, if not this one: the reason
    to hold the report. None once the organizer accepted a held report of the phone here."""
    vouched = any(
        earlier.table_id == table.pk
        and earlier.state == ReportState.ACCEPTED
        and earlier.other_table_number is not None
        for earlier in mine
    )
    elsewhere = [earlier.table.number for earlier in mine if earlier.table_id != table.pk]
    return None if vouched or not elsewhere else elsewhere[-1]


def existing_game(round_: Round, table: Table, number: int) -> Game | None:
    return Game.objects.filter(round=round_, table=table, number=number).order_by().first()


def _attach(
    report: GameReport, round_: Round, table: Table, game: Game | None
) -> tuple[Outcome, Game]:
    """Store a counted report and apply it to its game (None: the table has no such game
    yet), by the rule paper tally sheets share (tables.writes.recording): RECORDED,
    CONFIRMED or DISPUTED."""
    games = {} if game is None else {report.game_number: game}
    [recorded] = record_reports(round_=round_, table=table, reports=[report], games=games)
    return recorded.outcome, recorded.game
