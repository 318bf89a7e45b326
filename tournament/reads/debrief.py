"""What the debrief shows beyond the ladder: disputes, clashes and paths, in few queries.

Terms:
    disagreed trick at a screen event, what the debrief counts where it counts disputed
                   games: a trick whose players pointed at different cards before it was
                   taken (tables.models.TakenTrick.disagreed).
    disputed game  a game that was ever disputed: its phones named different winners
                   (even if one phone later agreed), it is disputed now, or the organizer
                   settled or corrected its winner. A game the organizer added by hand (a
                   table without a phone) is not one. Counted once per game, per
                   table-round.
    home rules, table-round, clash
                   see tournament.rules.clash.
    path           a player's table round by round (tournament.rules.charts.PlayerPath).
    flow           how many players went from each table to each table between two
                   consecutive rounds.
    slide          one thing the projector can show at the debrief: a data screen
                   (DebriefStep; the tricks' story only at an event whose cards are on
                   screens) or one of the event's debrief questions, in the running order
                   of tournament.rules.debrief_questions; the console's Next and Back walk
                   it, and its jump list offers every slide.

Five queries whatever the number of players: tables, seats, games, reports, corrections;
the running order is one more (the event's questions).
Nothing here names a table's variant: the clash kinds say which difference met, not who
played what, so every screen built from this is safe before the reveal.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.models import (
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    Table,
    TakenTrick,
)
from tournament.models import (
    DebriefQuestion,
    DebriefStep,
    Event,
    ObserverNote,
    RoundStatus,
    Seat,
    screens_before_stage,
)
from tournament.rules.charts import CLASH_TITLES, GridCell, PlayerPath
from tournament.rules.clash import (
    ClashKind,
    TableRound,
    clash_differences,
    clash_kind,
    clash_sentence,
)
from tournament.rules.debrief_questions import LONG_QUESTION, STAGE_TITLES, Stage, running_order
from tournament.rules.ordering import name_key


@dataclass(frozen=True)
class Debrief:
    tables: list[int]
    rounds: list[int]
    cells: dict[tuple[int, int], TableRound]
    paths: list[PlayerPath]
    flows: dict[tuple[int, int, int], int]

    @property
    def sentence(self) -> str:
        return clash_sentence(self.cells.values(), _, ngettext)

    def grid_cells(self) -> dict[tuple[int, int], GridCell]:
        return {
            key: GridCell(cell.disputes, cell.kind, cell.differences)
            for key, cell in self.cells.items()
        }

    @property
    def total_disputes(self) -> int:
        return sum(cell.disputes for cell in self.cells.values())


def disputed_games(event: Event) -> set[tuple[int, int, int]]:
    """(table number, round number, game number) of every game ever disputed."""
    # Not every SETTLED game: adding a game by hand, or accepting a late report, settles
    # it too; the corrections log says which ones the organizer had to decide.
    keys: set[tuple[int, int, int]] = set(
        Game.objects.filter(round__event=event, status=GameStatus.DISPUTED).values_list(
            "table__number", "round__number", "number"
        )
    )
    winners: dict[tuple[int, int, int], set[int]] = defaultdict(set)
    for table, round_, number, winner in GameReport.objects.filter(round__event=event).values_list(
        "table__number", "round__number", "game_number", "winner_id"
    ):
        winners[(table, round_, number)].add(winner)
    keys.update(key for key, named in winners.items() if len(named) > 1)
    keys.update(
        GameCorrection.objects.filter(
            round__event=event,
            action__in=[CorrectionAction.SETTLED, CorrectionAction.CORRECTED],
        ).values_list("table__number", "round__number", "game_number")
    )
    return keys


def disagreed_tricks(event: Event) -> Counter[tuple[int, int]]:
    """At a screen event, what stands for disputed games: the tricks whose players pointed
    at different cards before one took them, per (table number, round number). Practice
    deals are left out, as practice games are."""
    rows = (
        TakenTrick.objects.filter(deal__round__event=event, deal__practice=False, disagreed=True)
        .order_by()
        .values("deal__table__number", "deal__round__number")
        .annotate(count=Count("pk"))
        .values_list("deal__table__number", "deal__round__number", "count")
    )
    return Counter({(table, round_): count for table, round_, count in rows})


def build_debrief(event: Event) -> Debrief:
    variants = {table.number: table.variant for table in Table.objects.filter(event=event)}
    seats = list(
        # A round planned but never played (the debrief began early) has no path yet.
        Seat.objects.filter(round__event=event)
        .exclude(round__status=RoundStatus.PLANNED)
        .values_list("round__number", "player_id", "player__name", "table__number")
    )
    rounds = sorted({number for number, *_rest in seats})
    home = {player: table for number, player, _name, table in seats if number == 1}
    seated: dict[tuple[int, int], list[int]] = defaultdict(list)
    by_player: dict[int, dict[int, int]] = defaultdict(dict)
    names: dict[int, str] = {}
    for number, player, name, table in seats:
        seated[(table, number)].append(player)
        by_player[player][number] = table
        names[player] = name
    disputes = (
        disagreed_tricks(event)
        if event.on_screens
        else Counter((table, round_) for table, round_, _number in disputed_games(event))
    )
    cells = {
        (table, number): TableRound(
            table,
            number,
            clash_kind(variants[home[p]] for p in players if p in home),
            disputes[(table, number)],
            clash_differences(variants[home[p]] for p in players if p in home),
        )
        for (table, number), players in seated.items()
    }
    paths = sorted(
        (
            PlayerPath(names[player], tuple(tables.get(number) for number in rounds))
            for player, tables in by_player.items()
        ),
        key=lambda path: name_key(path.name),
    )
    flows: Counter[tuple[int, int, int]] = Counter()
    for tables in by_player.values():
        for number in rounds:
            if number in tables and number + 1 in tables:
                flows[(number, tables[number], tables[number + 1])] += 1
    return Debrief(sorted(variants), rounds, cells, paths, dict(flows))


# --- the running order: data screens and questions --------------------------------------


@dataclass(frozen=True)
class Slide:
    """A data screen (question is None) or a debrief question, numbered among the questions."""

    stage: Stage
    step: DebriefStep
    question_id: int | None = None
    text: str = ""
    number: int = 0  # 1 for the first question of the running order; 0 for a screen
    total: int = 0  # how many questions the running order has
    answer_kind: str = ""  # how the room answers the question (AnswerKind); "" aloud

    @property
    def takes_answers(self) -> bool:
        return bool(self.answer_kind)

    @property
    def key(self) -> str:
        """What the console's forms post to show this slide (see parse_slide_key)."""
        if self.question_id is not None:
            return f"question:{self.question_id}"
        return f"step:{self.step.value}"

    @property
    def is_question(self) -> bool:
        return self.question_id is not None

    @property
    def stage_title(self) -> str:
        return _(STAGE_TITLES[self.stage])

    @property
    def is_long(self) -> bool:
        return len(self.text) > LONG_QUESTION

    @property
    def label(self) -> str:
        """What a button or the jump list calls it: the screen's name, or the question's
        number and its text."""
        if not self.is_question:
            return str(self.step.label)
        return _("Question %(number)s: %(text)s") % {"number": self.number, "text": self.text}


def parse_slide_key(key: str) -> tuple[int | None, int | None]:
    """(step, question id) a posted slide key names; (None, None) for anything else."""
    kind, _sep, value = key.partition(":")
    if not (value.isascii() and value.isdigit() and len(value) < 12):
        return None, None
    if kind == "step":
        return int(value), None
    if kind == "question":
        return None, int(value)
    return None, None


@dataclass(frozen=True)
class DebriefProgress:
    """Where the projector stands in the running order, for the console and the projector."""

    slides: list[Slide]
    current: int | None  # index in slides; None when a question was shown and is gone

    @property
    def shown(self) -> Slide | None:
        return None if self.current is None else self.slides[self.current]

    @property
    def previous(self) -> Slide | None:
        if self.current is None or self.current == 0:
            return None
        return self.slides[self.current - 1]

    @property
    def next(self) -> Slide | None:
        if self.current is None:
            return self.slides[0] if self.slides else None
        following = self.current + 1
        return self.slides[following] if following < len(self.slides) else None

    @property
    def question_total(self) -> int:
        return sum(slide.is_question for slide in self.slides)


def debrief_slides(event: Event) -> list[Slide]:
    """Every screen and question in the running order. One query."""
    questions = list(
        DebriefQuestion.objects.filter(event=event)
        .order_by("position")
        .values_list("stage", "pk", "text", "answer_kind")
    )
    order = running_order(
        ((Stage(stage), (pk, text, kind)) for stage, pk, text, kind in questions),
        # The tricks' story only where cards were on screens.
        screens_before_stage(on_screens=event.on_screens),
    )
    total = len(questions)
    slides: list[Slide] = []
    number = 0
    for stage, item in order:
        if isinstance(item, DebriefStep):
            slides.append(Slide(stage, item))
        else:
            number += 1
            pk, text, kind = item
            slides.append(Slide(stage, DebriefStep.QUESTION, pk, text, number, total, kind))
    return slides


def debrief_progress(event: Event) -> DebriefProgress:
    """The running order and the slide the projector shows now. One query."""
    slides = debrief_slides(event)
    if event.debrief_step == DebriefStep.QUESTION:
        wanted = event.debrief_question_id
        current = next(
            (i for i, s in enumerate(slides) if s.is_question and s.question_id == wanted), None
        )
    else:
        current = next(
            (i for i, s in enumerate(slides) if s.step == event.debrief_step and not s.is_question),
            None,
        )
    return DebriefProgress(slides, current)


# --- a table's timeline: what observers noted, beside its disputes and clashes ---------


@dataclass(frozen=True)
class TimelineEntry:
    """One line of a table's timeline: a clash or disputes in a round, or a note."""

    round: int
    kind: str  # "clash", "dispute" or "note"
    text: str
    note: ObserverNote | None = None

    @property
    def order(self) -> tuple:
        rank = {"clash": 0, "dispute": 1, "note": 2}[self.kind]
        at = self.note.created_at.timestamp() if self.note else 0.0
        return (self.round, rank, at, self.note.pk if self.note else 0)


@dataclass(frozen=True)
class TableTimeline:
    table: int
    entries: list[TimelineEntry]

    @property
    def notes(self) -> list[ObserverNote]:
        return [entry.note for entry in self.entries if entry.note is not None]


def table_timelines(
    event: Event, data: Debrief | None = None, *, chosen_only: bool = False
) -> list[TableTimeline]:
    """The timeline of each table with a note, top table first: the rule differences that
    met there and its disputed games, round by round, with the observers' notes between.

    chosen_only: only the notes the organizer chose for the projector, so only the tables
    that have one (what the projector may show). One query beyond build_debrief's.
    """
    data = data or build_debrief(event)
    notes = ObserverNote.objects.filter(event=event)
    if chosen_only:
        notes = notes.filter(on_projector=True)
    entries: dict[int, list[TimelineEntry]] = defaultdict(list)
    for note in notes:
        text = note.get_tag_display() + (f" — {note.text}" if note.text else "")
        entries[note.table_number].append(TimelineEntry(note.round_number, "note", text, note))
    with_notes = set(entries)
    for (table, number), cell in data.cells.items():
        if table not in with_notes:
            continue
        if cell.kind != ClashKind.NONE:
            entries[table].append(TimelineEntry(number, "clash", _(CLASH_TITLES[cell.kind])))
        if cell.disputes:
            text = ngettext(
                "%(count)s disputed game", "%(count)s disputed games", cell.disputes
            ) % {"count": cell.disputes}
            entries[table].append(TimelineEntry(number, "dispute", text))
    return [
        TableTimeline(table, sorted(lines, key=lambda entry: entry.order))
        for table, lines in sorted(entries.items(), reverse=True)
    ]
