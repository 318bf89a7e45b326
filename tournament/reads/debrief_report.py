"""The printable debrief report: the whole event on paper for the facilitator.

Terms:
    report      one document (not a screen): the event's settings, every table's variant
                with what it meant, the debrief's four charts (tournament.rules.charts, the same
                as on the projector), at an event whose cards are on screens each round's
                tricks' story after the clash map (tournament.reads.debrief_tricks), the
                disputes list and the final ladder. Only the organizer sees it, so it names
                the variants, before the reveal too.
    disputed game
                as the debrief counts it (tournament.reads.debrief.disputed_games), so the list
                has exactly the games the disputes map counts.
    claim       what the reports of a disputed game named: each winner named, with how
                many reports named them, in the order they first arrived.
    outcome     how the game ended: settled by the organizer (who, when, whom they chose),
                accepted from a late report, deleted, still disputed (it counts for
                nobody), or standing as the phones reported it.
    ladder      the players of the last round played, top table first, each table in its
                order (most games won in that round, then alphabetical: tournament.rules.ordering),
                numbered 1..N; the climb is that table minus their home table.

A constant number of queries at any size: the debrief's five, its three for the disputed
games, and one each for the rounds, the tables, the games, the reports, the corrections
and the last round's winners; at a screen event, one more for the tricks.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import (
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    Table,
)
from tables.rules.variants import clause_name, rule_lines, variant_label
from tournament.common.isolation import with_names
from tournament.models import DifferenceSetChoice, Event, Phase, RoundStatus, shown_name
from tournament.reads.debrief import (
    Debrief,
    TableTimeline,
    build_debrief,
    disputed_games,
    table_timelines,
)
from tournament.reads.debrief_answers import Tally, answers_chart, event_tallies
from tournament.reads.debrief_tricks import tricks_story
from tournament.reads.projector import highlight_count
from tournament.rules import charts
from tournament.rules.cards import NEW_CLAUSES
from tournament.rules.clash import legend_kinds
from tournament.rules.ordering import name_key

Key = tuple[int, int, int]  # (table number, round number, game number)


@dataclass(frozen=True)
class TableRules:
    number: int
    label: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Chart:
    kind: str  # disputes, clashes, paths, flow: the CSS class and the figure's id
    title: str
    caption: str
    svg: SafeString


@dataclass(frozen=True)
class RoundTricks:
    """One round's tricks' story (tournament.reads.debrief_tricks), with its words."""

    number: int
    svg: SafeString
    summaries: list[str]


@dataclass(frozen=True)
class DisputeLine:
    round: int
    table: int
    game: int
    claims: tuple[str, ...]
    outcome: str


@dataclass(frozen=True)
class LadderLine:
    place: int
    name: str
    table: int
    games: int
    climb: int | None

    @property
    def climb_text(self) -> str:
        """E.g. "+2", "0", "-1" (written with a true minus sign); "—" without a home table."""
        if self.climb is None:
            return "—"
        return f"+{self.climb}" if self.climb > 0 else str(self.climb).replace("-", "\u2212")


@dataclass(frozen=True)
class AnswerResult:
    """One question the room answered: its tally and its chart, as on the projector
    (words the organizer hid are left out of both)."""

    tally: Tally
    svg: SafeString

    @property
    def hidden_count(self) -> int:
        return sum(word.count for word in self.tally.hidden)


@dataclass(frozen=True)
class DebriefReport:
    event: Event
    played_on: datetime
    players: int
    rounds_played: int
    tables: list[TableRules]
    sentence: str
    charts: list[Chart]
    kind_legend: list[tuple[str, str]]
    disputes: list[DisputeLine]
    ladder: list[LadderLine]
    ladder_round: int | None
    # Every observer's note, chosen for the projector or not: this is the organizer's paper.
    timelines: list[TableTimeline] = field(default_factory=list)
    # The room's anonymous answers, question by question (tournament.reads.debrief_answers).
    answers: list[AnswerResult] = field(default_factory=list)
    # At an event whose cards are on screens, each round's tricks' story.
    tricks: list[RoundTricks] = field(default_factory=list)

    @property
    def final(self) -> bool:
        """The ladder is the event's last word: the debrief has started."""
        return self.event.phase == Phase.DEBRIEF

    @property
    def difference_clauses(self) -> str:
        """A custom difference set's clauses by name, in the clauses' order; else empty:
        the set's own name says what the others draw from."""
        if self.event.difference_set != DifferenceSetChoice.CUSTOM:
            return ""
        chosen = self.event.draw_clauses
        return ", ".join(clause_name(c, _) for c in NEW_CLAUSES if c in chosen)

    @property
    def anytime_percent(self) -> int:
        return round(self.event.trump_anytime_share * 100)


def _claims(reports: list[str]) -> tuple[str, ...]:
    counts = Counter(reports)
    return tuple(
        with_names(
            ngettext("%(name)s (%(count)s report)", "%(name)s (%(count)s reports)", count),
            {"name": name, "count": count},
            names={"name"},
        )
        for name, count in counts.items()  # first-arrival order: Counter keeps it
    )


def _when(moment: datetime) -> str:
    return time_format(timezone.localtime(moment), "H:i")


def _outcome(
    game: tuple[str | None, str] | None, fix: tuple | None, *, paper_only: bool = False
) -> str:
    """How a disputed game ended (see Terms: outcome). ``game`` is its winner's name and
    status now (None once deleted); ``fix`` the organizer's last correction of it; a
    paper-only event's reports are its tally sheets, never phones."""
    action, who, when = fix if fix else (None, None, None)
    values = {
        "who": shown_name(who) if who else _("the organizer"),
        "time": _when(when) if when else "",
    }
    if game is None:
        if action == CorrectionAction.DELETED:
            return _("Deleted by %(who)s at %(time)s: it counts for nobody.") % values
        return _("No game was recorded.")
    winner, status = game
    values["name"] = winner or ""
    if status == GameStatus.DISPUTED:
        return _("Still disputed: it counts for nobody.")
    if action in (CorrectionAction.SETTLED, CorrectionAction.CORRECTED):
        message = _("Settled by %(who)s at %(time)s: %(name)s won.")
    elif action == CorrectionAction.ACCEPTED_LATE:
        message = _("A late report, accepted by %(who)s at %(time)s: %(name)s won.")
    elif paper_only:
        message = _("%(name)s won, as the tally sheets were entered.")
    else:
        message = _("%(name)s won, as the phones reported.")
    return with_names(message, values, names={"name"})


def dispute_lines(event: Event, keys: set[Key]) -> list[DisputeLine]:
    """Each disputed game (``keys``): what its reports claimed and how it ended; by round,
    table and game. Three queries."""
    games = {
        (table, round_, number): (winner, status)
        for table, round_, number, winner, status in Game.objects.filter(
            round__event=event
        ).values_list("table__number", "round__number", "number", "winner__name", "status")
    }
    claims: dict[Key, list[str]] = defaultdict(list)
    for table, round_, number, winner in (
        GameReport.objects.filter(round__event=event)
        .order_by("received_at", "pk")
        .values_list("table__number", "round__number", "game_number", "winner__name")
    ):
        claims[(table, round_, number)].append(winner)
    fixes: dict[Key, tuple] = {}
    # Newest first (the model's order): the first seen of each game is its last word.
    for table, round_, number, action, who, when in (
        GameCorrection.objects.filter(round__event=event)
        .exclude(action=CorrectionAction.DROPPED_LATE)
        .values_list(
            "table__number",
            "round__number",
            "game_number",
            "action",
            "changed_by__username",
            "changed_at",
        )
    ):
        fixes.setdefault((table, round_, number), (action, who, when))
    return [
        DisputeLine(
            round=round_,
            table=table,
            game=number,
            claims=_claims(claims.get((table, round_, number), [])),
            outcome=_outcome(
                games.get((table, round_, number)), fixes.get(key), paper_only=event.paper_only
            ),
        )
        for key in sorted(keys, key=lambda k: (k[1], k[0], k[2]))
        for table, round_, number in [key]
    ]


def ladder_lines(
    event: Event, paths: list[charts.PlayerPath], rounds: list[int]
) -> list[LadderLine]:
    """The ladder after the last round played (see Terms: ladder). One query."""
    if not rounds:
        return []
    last = rounds[-1]
    wins = Counter(
        Game.objects.counted()
        .filter(round__event=event, round__number=last)
        .values_list("winner__name", flat=True)
    )
    # Each seated player's path, with its last table (known then not to be None).
    seated = [
        (path, table) for path in paths if path.tables and (table := path.tables[-1]) is not None
    ]
    ordered = sorted(
        seated,
        key=lambda seen: (-seen[1], -wins.get(seen[0].name, 0), name_key(seen[0].name)),
    )
    return [
        LadderLine(
            place=place,
            name=path.name,
            table=table,
            games=wins.get(path.name, 0),
            climb=table - path.tables[0] if path.tables[0] is not None else None,
        )
        for place, (path, table) in enumerate(ordered, start=1)
    ]


def build_report(event: Event) -> DebriefReport:
    data = build_debrief(event)
    rounds = list(event.rounds.values_list("number", "status", "started_at"))
    started = [at for _number, _status, at in sorted(rounds) if at is not None]
    tables = [
        TableRules(
            table.number, variant_label(table.variant, _), tuple(rule_lines(table.variant, _))
        )
        for table in Table.objects.filter(event=event).order_by("number")
    ]
    return DebriefReport(
        event=event,
        played_on=started[0] if started else event.created_at,
        players=len(data.paths),
        rounds_played=sum(status != RoundStatus.PLANNED for _number, status, _at in rounds),
        tables=tables,
        sentence=data.sentence,
        charts=_report_charts(data, on_screens=event.on_screens),
        kind_legend=[
            (charts.KIND_SYMBOLS[kind], _(charts.CLASH_TITLES[kind]))
            for kind in legend_kinds(data.cells.values())
        ],
        disputes=dispute_lines(event, disputed_games(event)),
        ladder=ladder_lines(event, data.paths, data.rounds),
        ladder_round=data.rounds[-1] if data.rounds else None,
        timelines=table_timelines(event, data),
        answers=[
            AnswerResult(tally, mark_safe(answers_chart(tally)))  # escaped by the chart
            for tally in event_tallies(event)
        ],
        tricks=_round_tricks(event, data) if event.on_screens else [],
    )


def _round_tricks(event: Event, data: Debrief) -> list[RoundTricks]:
    """Each round's tricks' story, its hatching named apart from the other charts'."""
    story = tricks_story(event, data)
    return [
        RoundTricks(
            number,
            story.round_chart(number, pattern_id=f"hatch-tricks-{number}"),
            story.summaries(number),
        )
        for number in story.rounds
    ]


def _report_charts(data: Debrief, *, on_screens: bool) -> list[Chart]:
    """The debrief's four charts, as on the projector, with their titles and captions:
    the disputes map, the clash map, every player's path and the moves between tables."""
    return [*_grid_charts(data, on_screens=on_screens), _paths_chart(data), _flow_chart(data)]


def _grid_charts(data: Debrief, *, on_screens: bool) -> list[Chart]:
    """The disputes map and the clash map: one grid, the second with the kinds of rules
    that met. Each has its own hatching, as both are in one page. At a screen event they
    count tricks in disagreement where they count disputed games, as on the projector."""
    cells = data.grid_cells()
    if on_screens:
        disputes = (
            _("Where tricks were in disagreement"),
            _(
                "Top table first: the number of tricks whose players pointed at different "
                "cards, in each table and round."
            ),
            _("Tricks in disagreement per table and round"),
            _("Which rules met, and tricks in disagreement, per table and round"),
        )
    else:
        disputes = (
            _("Where games were disputed"),
            _("Top table first: the number of disputed games in each table and round."),
            _("Disputed games per table and round"),
            _("Which rules met, and disputed games, per table and round"),
        )
    return [
        Chart(
            "disputes",
            disputes[0],
            disputes[1],
            mark_safe(  # ElementTree escaped every name and word in the charts
                charts.grid_svg(
                    data.tables,
                    data.rounds,
                    cells,
                    label=disputes[2],
                    show_kinds=False,
                    pattern_id="hatch-disputes",
                    translate=_,
                )
            ),
        ),
        Chart(
            "clashes",
            _("Which rules met at each table"),
            _("Each player brought the rules of their home table."),
            mark_safe(
                charts.grid_svg(
                    data.tables,
                    data.rounds,
                    cells,
                    label=disputes[3],
                    show_kinds=True,
                    pattern_id="hatch-clashes",
                    translate=_,
                )
            ),
        ),
    ]


def _paths_chart(data: Debrief) -> Chart:
    """Every player's path; with many players the biggest climbs and falls are bold."""
    highlight = highlight_count(None, len(data.paths))
    return Chart(
        "paths",
        _("Every player’s path"),
        _("Each line is a player: their table in every round, top table highest.")
        + (
            " "
            + ngettext(
                "The player who climbed or fell furthest is drawn bold and named.",
                "The %(count)s players who climbed or fell furthest are drawn bold and named.",
                highlight,
            )
            % {"count": highlight}
            if highlight
            else ""
        ),
        mark_safe(
            charts.paths_svg(
                data.paths,
                data.rounds,
                data.tables,
                label=_("Every player's table, round by round"),
                highlight=charts.biggest_moves(data.paths, highlight) if highlight else None,
                translate=_,
            )
        ),
    )


def _flow_chart(data: Debrief) -> Chart:
    return Chart(
        "flow",
        _("Moves between tables"),
        _(
            "Each arrow: how many players went from a table to the next round’s table. "
            "Dashed arrows go down."
        ),
        mark_safe(
            charts.flow_svg(
                data.flows,
                data.rounds,
                data.tables,
                label=_("How many players went from each table to each table"),
                translate=_,
            )
        ),
    )
