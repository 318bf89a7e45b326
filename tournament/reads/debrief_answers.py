"""The room's answers to the debrief's questions, as phones, the projector, the console
and the records read them.

Terms:
    answer kind, open, revealed, hidden word
                 see tournament.writes.debrief_answers.
    asked, choices
                 see tables.reads.debrief_answers (what phones read).
    tally        a question's answers counted (Tally): how many, the words by count (the
                 hidden ones apart), the scale's points, or the rounds or tables chosen.
    first dispute
                 for each round, how many tables saw their first disputed game in it
                 (tournament.reads.debrief.disputed_games): what the room's "when did you
                 notice" stands beside.

Anonymous: nothing here reads a phone id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tables.reads.debrief_answers import asked_question, choice_numbers, choices_for
from tournament.models import DebriefAnswer, DebriefQuestion, Event
from tournament.reads.debrief import disputed_games
from tournament.rules.charts import (
    ChoiceBar,
    WordCount,
    choice_bars_svg,
    count_words,
    scale_svg,
    word_cloud_svg,
)
from tournament.rules.debrief_questions import (
    SCALE_WORDS,
    AnswerKind,
)


@dataclass(frozen=True)
class Bar:
    """One bar of a rounds or tables chart: how many chose it, and beside a round, how
    many tables saw their first dispute in it."""

    number: int
    label: str
    answers: int
    disputes: int | None = None


@dataclass(frozen=True)
class Tally:
    """A question's answers counted (see Terms: tally)."""

    question: DebriefQuestion
    count: int
    words: list[WordCount] = field(default_factory=list)  # shown on the projector
    hidden: list[WordCount] = field(default_factory=list)  # hidden by the organizer
    hidden_unused: list[str] = field(default_factory=list)  # keys hidden before any answer
    points: dict[int, int] = field(default_factory=dict)  # scale point -> answers
    bars: list[Bar] = field(default_factory=list)

    @property
    def kind(self) -> AnswerKind:
        return self.question.kind


def first_dispute_rounds(event: Event) -> Counter[int]:
    """Round number -> how many tables saw their first disputed game in it."""
    first: dict[int, int] = {}
    for table, round_, _game in disputed_games(event):
        first[table] = min(first.get(table, round_), round_)
    return Counter(first.values())


def tally(event: Event, question: DebriefQuestion, answers: list[tuple[str, int | None]]) -> Tally:
    """The answers (text, number) of one question counted, for its kind."""
    kind = question.kind
    if kind == AnswerKind.WORDS:
        counted = count_words(text for text, _number in answers if text)
        hidden_keys = set(question.hidden_words)
        seen = {word.key for word in counted}
        return Tally(
            question,
            len(answers),
            words=[w for w in counted if w.key not in hidden_keys],
            hidden=[w for w in counted if w.key in hidden_keys],
            hidden_unused=[key for key in question.hidden_words if key not in seen],
        )
    numbers = Counter(number for _text, number in answers if number is not None)
    if kind == AnswerKind.SCALE:
        points = {point: numbers.get(point, 0) for point in choice_numbers(event, kind)}
        return Tally(question, len(answers), points=points)
    disputes = first_dispute_rounds(event) if kind == AnswerKind.ROUNDS else None
    bars = [
        Bar(
            choice.value,
            choice.spoken,
            numbers.get(choice.value, 0),
            None if disputes is None else disputes.get(choice.value, 0),
        )
        for choice in choices_for(event, kind)
    ]
    return Tally(question, len(answers), bars=bars)


def question_tally(event: Event, question: DebriefQuestion) -> Tally:
    """One question's tally. One query, plus the disputes map's for rounds."""
    answers = list(DebriefAnswer.objects.filter(question=question).values_list("text", "number"))
    return tally(event, question, answers)


def shown_tally(event: Event) -> Tally | None:
    """The tally of the question the projector shows, if it takes answers."""
    question = asked_question(event)
    return None if question is None else question_tally(event, question)


def event_tallies(event: Event) -> list[Tally]:
    """Every question that takes answers or has some, in the bank's order, counted.
    Two queries (plus the disputes map's when a rounds question has answers)."""
    questions = list(DebriefQuestion.objects.filter(event=event).order_by("position"))
    answers: dict[int, list[tuple[str, int | None]]] = {q.pk: [] for q in questions}
    for question_id, text, number in DebriefAnswer.objects.filter(
        question__event=event
    ).values_list("question_id", "text", "number"):
        answers[question_id].append((text, number))
    return [
        tally(event, question, answers[question.pk])
        for question in questions
        if question.takes_answers and answers[question.pk]
    ]


# --- the charts (tournament.rules.charts.answers draws them) -----------------------------


def answers_chart(tally: Tally) -> str:
    """The tally as an SVG chart: the word cloud, the scale's histogram, or the bars of
    rounds (beside the tables' first disputes) or tables. Words and labels are escaped
    there."""
    question = tally.question
    title = question.text
    empty = _("No answer yet.")
    if tally.kind == AnswerKind.WORDS:
        return word_cloud_svg(tally.words, title=title, empty=empty)
    if tally.kind == AnswerKind.SCALE:
        faces = {point: _(SCALE_WORDS[point]) for point in tally.points}  # the chart draws faces
        return scale_svg(tally.points, title=title, face_labels=faces, empty=empty)
    rounds = tally.kind == AnswerKind.ROUNDS
    return choice_bars_svg(
        [ChoiceBar(bar.label, bar.answers, bar.disputes) for bar in tally.bars],
        title=title,
        answers_legend=_("Answers"),
        disputes_legend=_("Tables that saw their first dispute") if rounds else None,
        empty=empty,
    )
