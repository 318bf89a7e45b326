"""What the projector shows now: one screen per phase, or the room's ladder.

Terms:
    screen    what the projector shows now: one per phase (setup, study, practice, a
              round, the moves between rounds, the final results after the last round,
              the debrief, and the tables' rules once revealed), or the room's ladder
              when asked for.
    view      what a projector link asks for (?view=): the phase's screen (stage), or the
              room's ladder.
    clock     the phase's clock as the projector shows it: time left, paused, or time up.
    debrief   the organizer steps the projector through its screens (Event.debrief_step,
              tournament.models.DebriefStep): the ladder, where games were disputed,
              which rules met (tournament.rules.clash: the kind of difference, never whose
              rules), every player's path, the moves between tables, the final results,
              the reveal; at an event whose cards are on screens, the tricks' story after
              which rules met (tournament.reads.debrief_tricks). The charts are SVG from
              tournament.rules.charts.
    highlight ?highlight=climbers, or a number, on the paths screen: that many players who
              climbed or fell furthest are drawn bold and named, the rest thin and grey.
              With many players a few are highlighted anyway. Without ?highlight the
              organizer's choice on the console counts (Event.paths_highlight).
    question  one of the event's debrief questions, large, with its stage and its number
              (tournament.reads.debrief: slide). It shows the organizer's words and nothing of
              the game, so it is safe before the reveal. A question the room answers from
              its phones shows how many answered so far, and once the organizer reveals
              them, the answers as a chart (tournament.reads.debrief_answers).

The boards come from tournament.reads.projector.boards, the rule cards from
tournament.reads.projector.rule_cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournament.common.polling import clock_text
from tournament.models import DebriefStep, Event, Phase
from tournament.reads.debrief import (
    Slide,
    TableTimeline,
    build_debrief,
    debrief_progress,
    table_timelines,
)
from tournament.reads.debrief_answers import Tally, answers_chart, shown_tally
from tournament.reads.debrief_tricks import tricks_story
from tournament.reads.projector.boards import (
    LegendEntry,
    ReasonMark,
    ladder_board,
    moves_board,
    round_standings,
)
from tournament.reads.projector.rule_cards import RulePage, revealed_rules
from tournament.rules import charts
from tournament.rules.board_layout import Board, lay_out
from tournament.rules.clash import legend_kinds


class ScreenKind(StrEnum):
    SETUP = "setup"
    STUDY = "study"
    PRACTICE = "practice"
    ROUND = "round"
    MOVES = "moves"
    FINAL = "final"
    DEBRIEF = "debrief"
    DISPUTES = "disputes"
    CLASHES = "clashes"
    PATHS = "paths"
    FLOW = "flow"
    TRICKS = "tricks"
    RULES = "rules"
    QUESTION = "question"
    LADDER = "ladder"


class View(StrEnum):
    """What a projector link asks for: the phase's screen, or the room's ladder."""

    STAGE = "stage"
    LADDER = "ladder"

    @classmethod
    def parse(cls, value: str | None) -> View:
        try:
            return cls(value or cls.STAGE)
        except ValueError:
            return cls.STAGE


# --- the screen ---------------------------------------------------------------------


@dataclass(frozen=True)
class Clock:
    """The phase's clock as the projector shows it.

    paused: stopped with time left. A clock paused once time was up shows time up alone:
    the room needs "Time!", not a pause that changes nothing.
    """

    seconds_left: int
    paused: bool

    @classmethod
    def of(cls, event: Event) -> Clock | None:
        seconds = event.clock_seconds_left()
        if seconds is None:
            return None
        return cls(seconds, paused=event.clock_is_paused and seconds > 0)

    @property
    def time_up(self) -> bool:
        return self.seconds_left <= 0

    @property
    def text(self) -> str:
        return clock_text(self.seconds_left)


@dataclass(frozen=True)
class Screen:
    kind: ScreenKind
    event: Event
    view: View
    clock: Clock | None = None
    board: Board | None = None
    legend: list[LegendEntry] = field(default_factory=list)
    rule_pages: list[RulePage] = field(default_factory=list)
    next_round: int | None = None
    final_round: int | None = None  # the last round, once played: the ladder shows its games
    debrief_step: int | None = None
    chart: SafeString | None = None  # SVG from tournament.rules.charts, names escaped there
    sentence: str = ""
    kind_legend: list[LegendEntry] = field(default_factory=list)
    question: Slide | None = None  # the debrief question shown; None when it is gone
    # The observers' notes the organizer chose, each table's beside its disputes and
    # clashes (tournament.reads.debrief.table_timelines); a note not chosen never shows here.
    timelines: list[TableTimeline] = field(default_factory=list)

    @property
    def chart_is_wide(self) -> bool:
        """A chart wider than 16:9 (many tables: tournament.rules.charts.svg.canvas) needs
        the panel's whole width; a narrower one leaves room at its side for the legend."""
        found = re.search(r'viewBox="0 0 (\d+)', self.chart or "")
        return found is not None and int(found[1]) > charts.svg.WIDTH

    answers: Tally | None = None  # the room's answers to the question shown, if it takes any

    @property
    def time_up(self) -> bool:
        return self.clock is not None and self.clock.time_up


def _ladder_screen(kind: ScreenKind, event: Event, view: View) -> Screen:
    played_out = (
        event.phase in (Phase.BETWEEN_ROUNDS, Phase.DEBRIEF)
        and event.is_last_round
        and event.round_number > 0
    )
    return Screen(
        kind,
        event,
        view,
        board=ladder_board(event, final=played_out),
        final_round=event.round_number if played_out else None,
    )


def build_screen(event: Event, view: View = View.STAGE, highlight: str | None = None) -> Screen:
    """Everything one screen shows, for the event's phase (or the ladder when asked)."""
    clock = Clock.of(event)
    if view == View.LADDER:
        return _ladder_screen(ScreenKind.LADDER, event, view)
    if event.phase == Phase.STUDY:
        return Screen(ScreenKind.STUDY, event, view, clock=clock)
    if event.phase == Phase.PRACTICE:
        return Screen(ScreenKind.PRACTICE, event, view, clock=clock)
    if event.phase == Phase.ROUND:
        round_ = event.rounds.filter(number=event.round_number).first()
        board = round_standings(event, round_) if round_ else lay_out((), "standings")
        return Screen(ScreenKind.ROUND, event, view, clock=clock, board=board)
    if event.phase == Phase.BETWEEN_ROUNDS:
        if event.is_last_round:
            return _ladder_screen(ScreenKind.FINAL, event, view)
        next_round = event.round_number + 1
        board, legend = moves_board(event, next_round)
        return Screen(
            ScreenKind.MOVES, event, view, board=board, legend=legend, next_round=next_round
        )
    if event.phase == Phase.DEBRIEF:
        return debrief_screen(event, view, highlight)
    return Screen(ScreenKind.SETUP, event, view)


# Paths drawn bold when the screen is asked for "climbers", and when there are so many
# players that every path in colour would be a tangle.
HIGHLIGHT_CLIMBERS = 6
MANY_PATHS = 40


def highlight_count(value: str | None, players: int) -> int:
    """How many paths ?highlight= asks to draw bold: "climbers", a number, or none (then
    a few only when there are many players); 0 draws every path alike."""
    if value == "climbers":
        return HIGHLIGHT_CLIMBERS
    if value and value.isdigit():
        return min(int(value), players)
    return HIGHLIGHT_CLIMBERS if players > MANY_PATHS else 0


def debrief_screen(event: Event, view: View, highlight: str | None = None) -> Screen:
    """The debrief screen the organizer stepped to. No chart names a variant."""
    step = event.debrief_step
    if step == DebriefStep.QUESTION:
        shown = debrief_progress(event).shown
        # A question answered aloud costs nothing more than before.
        answers = shown_tally(event) if shown is not None and shown.takes_answers else None
        chart = None
        if answers is not None and answers.question.answers_revealed:
            chart = mark_safe(answers_chart(answers))  # every word escaped by the chart
        return Screen(
            ScreenKind.QUESTION,
            event,
            view,
            debrief_step=step,
            question=shown,
            answers=answers,
            chart=chart,
        )
    if step == DebriefStep.OPENING:
        return replace(_ladder_screen(ScreenKind.DEBRIEF, event, view), debrief_step=step)
    if step == DebriefStep.RESULTS:
        return replace(_ladder_screen(ScreenKind.FINAL, event, view), debrief_step=step)
    if step == DebriefStep.REVEAL:
        pages = revealed_rules(event, every=event.rules_revealed)
        return Screen(ScreenKind.RULES, event, view, rule_pages=pages, debrief_step=step)
    return _chart_screen(event, view, step, highlight)


def _chart_screen(event: Event, view: View, step: int, highlight: str | None) -> Screen:
    """A debrief screen with a chart: the disputes, the clashes, the tricks' story, the
    paths, the moves between tables."""
    data = build_debrief(event)
    legend = [
        LegendEntry(ReasonMark(charts.KIND_SYMBOLS[k], str(k)), _(charts.CLASH_TITLES[k]))
        for k in legend_kinds(data.cells.values())
    ]
    if step == DebriefStep.TRICKS and event.on_screens:
        story = tricks_story(event, data)
        # Only the kinds that met: the key shares the screen with the chart.
        met = {cell.kind for cell in data.cells.values()}
        return Screen(
            ScreenKind.TRICKS,
            event,
            view,
            debrief_step=step,
            chart=story.story_chart(),
            kind_legend=[entry for entry in legend if entry.mark.tone in met],
        )
    timelines: list[TableTimeline] = []
    # The tricks' story is only for a screen event: elsewhere its step shows the clashes.
    if step in (DebriefStep.DISPUTES, DebriefStep.CLASHES, DebriefStep.TRICKS):
        # One grid; the clash screen adds which rules met to the disputes.
        clashes = step != DebriefStep.DISPUTES
        svg = charts.grid_svg(
            data.tables,
            data.rounds,
            data.grid_cells(),
            label=_grid_label(event, clashes=clashes),
            show_kinds=clashes,
            translate=_,
        )
        kind = ScreenKind.CLASHES if clashes else ScreenKind.DISPUTES
        timelines = table_timelines(event, data, chosen_only=True)
    elif step == DebriefStep.PATHS:
        count = highlight_count(highlight or event.paths_highlight, len(data.paths))
        svg = charts.paths_svg(
            data.paths,
            data.rounds,
            data.tables,
            label=_("Every player's table, round by round"),
            highlight=charts.biggest_moves(data.paths, count) if count else None,
            translate=_,
        )
        kind = ScreenKind.PATHS
    else:
        svg = charts.flow_svg(
            data.flows,
            data.rounds,
            data.tables,
            label=_("How many players went from each table to each table"),
            translate=_,
        )
        kind = ScreenKind.FLOW
    return Screen(
        kind,
        event,
        view,
        debrief_step=step,
        chart=mark_safe(svg),  # ElementTree escaped every name and word in it
        sentence=data.sentence if kind == ScreenKind.CLASHES else "",
        kind_legend=legend,
        timelines=timelines,
    )


def _grid_label(event: Event, *, clashes: bool) -> str:
    """The grid's accessible name: at a screen event it counts tricks in disagreement
    where it counts disputed games (tournament.reads.debrief.disagreed_tricks)."""
    if event.on_screens:
        if clashes:
            return _("Which rules met, and tricks in disagreement, per table and round")
        return _("Tricks in disagreement per table and round")
    if clashes:
        return _("Which rules met, and disputed games, per table and round")
    return _("Disputed games per table and round")
