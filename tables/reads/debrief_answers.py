"""The debrief's question as a phone shows it: the question the projector shows, while the
room answers it from its phones, with this phone's own answer.

Terms:
    answer kind, open
                 see tournament.models.debrief and tournament.writes.debrief_answers.
    asked        the question a phone shows (PhoneQuestion): the one the projector shows,
                 at the debrief, while it takes answers.
    choices      the buttons of a scale (its five points), ROUNDS (the rounds played, or
                 every planned round when none was) or TABLES (the event's tables).
    phone id     the phone's ``ft_phone`` cookie (tournament.common.phone_ids): it finds this
                 phone's own answer, and nothing ever shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tables.models import Table
from tournament.models import DebriefAnswer, DebriefQuestion, Event, Phase, RoundStatus
from tournament.rules.debrief_questions import (
    ANSWER_MAX_LENGTH,
    SCALE_FACES,
    SCALE_POINTS,
    SCALE_WORDS,
    AnswerKind,
)


def choice_numbers(event: Event, kind: AnswerKind) -> list[int]:
    """The rounds or tables a ROUNDS or TABLES question offers (a scale: its points)."""
    if kind == AnswerKind.TABLES:
        return list(
            Table.objects.filter(event=event).order_by("number").values_list("number", flat=True)
        )
    if kind == AnswerKind.ROUNDS:
        played = list(
            event.rounds.exclude(status=RoundStatus.PLANNED)
            .order_by("number")
            .values_list("number", flat=True)
        )
        return played or list(range(1, event.rounds_planned + 1))
    if kind == AnswerKind.SCALE:
        return list(SCALE_POINTS)
    return []


@dataclass(frozen=True)
class Choice:
    """One button of a scale, rounds or tables question."""

    value: int
    label: str  # what the button shows
    spoken: str  # what a screen reader says
    face: float | None = None  # the mouth of a scale's face (SCALE_FACES)


@dataclass(frozen=True)
class PhoneQuestion:
    """The question a phone shows, with its own answer (see Terms: asked)."""

    question_id: int
    text: str
    kind: AnswerKind
    open: bool
    choices: list[Choice]
    my_text: str = ""
    my_number: int | None = None
    max_length: int = ANSWER_MAX_LENGTH

    @property
    def answered(self) -> bool:
        return bool(self.my_text) or self.my_number is not None

    @property
    def my_answer(self) -> str:
        """This phone's answer, in words."""
        if self.my_text:
            return self.my_text
        return next((c.spoken for c in self.choices if c.value == self.my_number), "")

    @property
    def legend(self) -> str:
        return {
            AnswerKind.WORDS: _("Your answer: a word or a few"),
            AnswerKind.SCALE: _("Your answer, from 1 (not at all) to 5 (very much)"),
            AnswerKind.ROUNDS: _("Your answer: a round"),
            AnswerKind.TABLES: _("Your answer: a table"),
        }.get(self.kind, "")


def answer_words(kind: AnswerKind, number: int) -> str:
    """A number answer in words: "2: a little", "Round 2", "Table 2"."""
    if kind == AnswerKind.SCALE:
        return _(SCALE_WORDS[number])
    if kind == AnswerKind.ROUNDS:
        return _("Round %(number)s") % {"number": number}
    return _("Table %(number)s") % {"number": number}


def choices_for(event: Event, kind: AnswerKind) -> list[Choice]:
    """The buttons a question of this kind offers. One query for rounds or tables."""
    faces = SCALE_FACES if kind == AnswerKind.SCALE else {}
    return [
        Choice(n, str(n), answer_words(kind, n), faces.get(n)) for n in choice_numbers(event, kind)
    ]


def asked_question(event: Event) -> DebriefQuestion | None:
    """The question the projector shows, if it takes answers at the debrief. One query."""
    question_id = event.debrief_question_id
    # shows_a_question implies an id; tested again for the type checker, which cannot see it.
    if event.phase != Phase.DEBRIEF or not event.shows_a_question or question_id is None:
        return None
    question = DebriefQuestion.objects.filter(pk=question_id).first()
    return question if question is not None and question.takes_answers else None


def phone_question(event: Event, phone: str | None) -> PhoneQuestion | None:
    """What a phone shows at the debrief (see Terms: asked). At most three queries."""
    question = asked_question(event)
    if question is None:
        return None
    mine = None
    if phone:
        mine = (
            DebriefAnswer.objects.filter(question=question, phone=phone)
            .values_list("text", "number")
            .first()
        )
    kind = question.kind
    choices = [] if kind == AnswerKind.WORDS else choices_for(event, kind)
    return PhoneQuestion(
        question.pk,
        question.text,
        kind,
        question.answers_open and not event.is_finished,
        choices,
        *(mine or ("", None)),
    )
