"""The console's radar: which tables need the facilitator now, ranked, each with why.

Terms:
    flag        one reason a table needs attention, with its weight:
                  disputes  disputed games waiting to be settled: one is enough, since a
                            disputed game counts for nobody until the facilitator settles it
                  late      reports kept for the facilitator (late or held, see
                            tables.writes.reporting), not yet accepted or dropped: they count
                            only once accepted, whichever round they name
                  newcomers players moved in (or joined) and the table has reported nothing
                            this long into the round (Event.radar_newcomer_minutes): the
                            phones went quiet after the move
                  quiet     no report for this long (Event.radar_quiet_minutes), counted from
                            the table's last report or the round's start
                  streak    one player won every game so far, at least Event.radar_streak
                  stall     (cards on screens) a complete trick in disagreement for longer
                            than Event.screen_stall_seconds, or (at an event with a scoring
                            clause) a game whose players point at different winners that
                            long (tables.reads.game_claims: claim stall): the organizer
                            settles it
                  gone      (cards on screens) players whose screen has not shown up for a
                            minute: the organizer may play for them or end the game
                  disagree  (cards on screens) the players point at different cards (or
                            winners) now, or tricks were taken after a disagreement this
                            round
    rank        tables by their heaviest flag, then how many flags, then the higher table.

Only while a round is open; a paused clock silences the time flags, never the disputes
or the late reports. A paper-only event (Event.paper_only) has no time flags at all: its
tables hand in their tally sheets when the round ends, so a table is always silent before.
Five queries whatever the number of players: the round, the tables, the reports (the
round's last one and the kept ones, together), the games, the newcomers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import KEPT_FOR_THE_ORGANIZER, Game, GameReport, GameStatus, Table
from tables.reads.screen_play import TableAlerts, table_alerts
from tournament.common.isolation import with_names
from tournament.models import Event, Phase, Round, RoundStatus, Seat, SeatReason

# Seats that did not come from another table: nobody new sits there.
SETTLED_REASONS = (
    SeatReason.HOME,
    SeatReason.STAYS,
    SeatReason.STAYS_AT_TOP,
    SeatReason.STAYS_AT_BOTTOM,
)
WEIGHT = {
    "stall": 45,
    "disputes": 40,
    "gone": 38,
    "late": 35,
    "newcomers": 30,
    "disagree": 25,
    "quiet": 20,
    "streak": 10,
}


@dataclass(frozen=True)
class Flag:
    kind: str
    text: str
    weight: float


@dataclass(frozen=True)
class RadarLine:
    table: int
    flags: list[Flag]

    @property
    def weight(self) -> float:
        return max(flag.weight for flag in self.flags)


def _minutes(since: datetime, now: datetime) -> int:
    return max(0, int((now - since).total_seconds() // 60))


def build_radar(event: Event, *, now: datetime | None = None) -> list[RadarLine]:
    """The tables that need the facilitator now, most urgent first (see Terms)."""
    if event.phase != Phase.ROUND:
        return []
    now = now or timezone.now()
    round_ = Round.objects.filter(
        event=event, number=event.round_number, status=RoundStatus.OPEN
    ).first()
    if round_ is None:
        return []
    reading = _read_round(event, round_)
    # A screen table tells its own story: stalls, disagreements and players gone, in
    # place of the time since its last report (its games report themselves).
    screens = table_alerts(event, round_.pk, now) if event.on_screens else None
    lines = []
    for table_id, number in reading.numbers.items():
        time_flags = (
            screen_flags(screens.get(table_id))
            if screens is not None
            else [_time_flag(event, round_, reading, table_id, now)]
        )
        flags = [
            flag
            for flag in (
                _dispute_flag(reading.disputed[table_id]),
                _late_flag(reading.kept[table_id]),
                *time_flags,
                _streak_flag(event, reading.winners[table_id]),
            )
            if flag is not None
        ]
        if flags:
            lines.append(RadarLine(number, flags))
    return sorted(lines, key=lambda line: (-line.weight, -len(line.flags), -line.table))


@dataclass(frozen=True)
class _RoundReading:
    """What the radar reads of the open round, by table id: four queries."""

    numbers: dict[int, int]  # every table's number
    last_report: dict[int, datetime]  # tables that reported at all
    disputed: Counter[int]  # unsettled disputed games
    kept: Counter[int]  # late or held reports not handled yet, of any round
    winners: dict[int, Counter[str]]  # games won by each winner's name
    newcomers: dict[int, int]  # seats that came from another table, or from none


def _read_round(event: Event, round_: Round) -> _RoundReading:
    numbers = dict(Table.objects.filter(event=event).values_list("pk", "number"))
    last_report: dict[int, datetime] = {}
    kept: Counter[int] = Counter()
    for table_id, round_id, state, last, count in (
        GameReport.objects.filter(table__event=event)
        .filter(Q(round=round_) | Q(state__in=KEPT_FOR_THE_ORGANIZER))
        .order_by()
        .values("table_id", "round_id", "state")
        .annotate(last=Max("received_at"), count=Count("pk"))
        .values_list("table_id", "round_id", "state", "last", "count")
    ):
        if round_id == round_.pk:
            last_report[table_id] = max(last, last_report.get(table_id, last))
        if state in KEPT_FOR_THE_ORGANIZER:
            kept[table_id] += count
    disputed: Counter[int] = Counter()
    winners: dict[int, Counter[str]] = defaultdict(Counter)
    for table_id, winner, status in Game.objects.filter(round=round_).values_list(
        "table_id", "winner__name", "status"
    ):
        if status == GameStatus.DISPUTED:
            disputed[table_id] += 1
        elif winner is not None:
            winners[table_id][winner] += 1
    newcomers = dict(
        Seat.objects.filter(round=round_)
        .exclude(reason__in=SETTLED_REASONS)
        .values("table_id")
        .annotate(count=Count("pk"))
        .values_list("table_id", "count")
    )
    return _RoundReading(numbers, last_report, disputed, kept, winners, newcomers)


def screen_flags(alerts: TableAlerts | None) -> list[Flag | None]:
    """A screen table's flags: a stalled trick (or game), a trick (or game) in
    disagreement now (or tricks that were, this round), players gone."""
    if alerts is None:
        return []
    flags: list[Flag | None] = []
    if alerts.stalled_seconds is not None:
        flags.append(
            Flag(
                "stall",
                _("A trick in disagreement for %(seconds)s s: settle it")
                % {"seconds": alerts.stalled_seconds},
                WEIGHT["stall"] + alerts.stalled_seconds / 60,
            )
        )
    elif alerts.claim_stalled_seconds is not None:
        flags.append(
            Flag(
                "stall",
                _("The players point at different winners for %(seconds)s s: settle the game")
                % {"seconds": alerts.claim_stalled_seconds},
                WEIGHT["stall"] + alerts.claim_stalled_seconds / 60,
            )
        )
    elif alerts.claim_disagrees:
        flags.append(
            Flag("disagree", _("The players point at different winners now"), WEIGHT["disagree"])
        )
    elif alerts.disagrees or alerts.disagreed:
        text = (
            _("The players point at different cards now")
            if alerts.disagrees
            else ngettext(
                "%(count)s trick taken after a disagreement",
                "%(count)s tricks taken after a disagreement",
                alerts.disagreed,
            )
            % {"count": alerts.disagreed}
        )
        flags.append(Flag("disagree", text, WEIGHT["disagree"] + alerts.disagreed))
    if alerts.gone:
        flags.append(
            Flag(
                "gone",
                with_names(
                    ngettext(
                        "Gone for more than a minute: %(names)s",
                        "Gone for more than a minute: %(names)s",
                        len(alerts.gone),
                    ),
                    {"names": ", ".join(alerts.gone)},
                    names={"names"},
                ),
                WEIGHT["gone"] + len(alerts.gone),
            )
        )
    return flags


def _dispute_flag(count: int) -> Flag | None:
    if not count:
        return None
    return Flag(
        "disputes",
        ngettext(
            "%(count)s disputed game waiting",
            "%(count)s disputed games waiting",
            count,
        )
        % {"count": count},
        WEIGHT["disputes"] + count,
    )


def _late_flag(count: int) -> Flag | None:
    if not count:
        return None
    return Flag(
        "late",
        ngettext(
            "%(count)s late report waiting for you",
            "%(count)s late reports waiting for you",
            count,
        )
        % {"count": count},
        WEIGHT["late"] + count,
    )


def _time_flag(
    event: Event, round_: Round, reading: _RoundReading, table_id: int, now: datetime
) -> Flag | None:
    """Newcomers and nothing reported since the round started, else a quiet table; neither
    while the clock is paused, nor at a paper-only event (see the module's docstring)."""
    if event.clock_is_paused or event.paper_only:
        return None
    silent_since_start = table_id not in reading.last_report
    waited = _minutes(reading.last_report.get(table_id, round_.started_at or now), now)
    newcomers = reading.newcomers.get(table_id)
    if newcomers and silent_since_start and waited >= event.radar_newcomer_minutes:
        return Flag(
            "newcomers",
            ngettext(
                "%(count)s newcomer arrived and nothing reported for %(minutes)s min",
                "%(count)s newcomers arrived and nothing reported for %(minutes)s min",
                newcomers,
            )
            % {"count": newcomers, "minutes": waited},
            WEIGHT["newcomers"] + waited / 10,
        )
    if waited >= event.radar_quiet_minutes:
        return Flag(
            "quiet",
            ngettext("No report for %(minutes)s min", "No report for %(minutes)s min", waited)
            % {"minutes": waited},
            WEIGHT["quiet"] + waited / 10,
        )
    return None


def _streak_flag(event: Event, wins: Counter[str]) -> Flag | None:
    games = sum(wins.values())
    if len(wins) != 1 or games < event.radar_streak:
        return None
    return Flag(
        "streak",
        ngettext(
            "%(name)s won the only game",
            "%(name)s won all %(count)s games",
            games,
        )
        % {"count": games, "name": next(iter(wins))},
        WEIGHT["streak"] + games / 10,
    )
