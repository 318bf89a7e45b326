"""The room's answers to the debrief's questions: a phone's answer, and the organizer's
controls over them.

Terms:
    answer kind, answers
                 see tournament.models.debrief and tournament.rules.debrief_questions.
    open         the question the projector shows takes answers and the organizer has not
                 closed it: only then may a phone answer, or change its answer. A phone
                 answers the question shown, never another (a page left open on an old
                 question is refused with the reason, and shows the new one).
    choices      what a ROUNDS or TABLES question offers: the rounds played (every
                 planned round when none was), or the event's tables (choice_numbers).
    revealed     the projector shows the answers (the count shows from the start).
    hidden word  a word key (tournament.rules.charts.answers.word_key) the organizer took
                 off the projector; it stays in the records, as the room said it.

A phone's answer, revealing and hiding words bump Event.version only (the projector and
the console show them; the phones, which follow shared_version, keep answering 304 and
keep a word being typed). Closing a question and changing its kind bump both, as the
phones show them. A finished event takes no write
here (Event.finished_refusal).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import DebriefAnswer, DebriefQuestion, Event, Phase
from tournament.reads.debrief_answers import choice_numbers
from tournament.rules.charts.answers import word_key
from tournament.rules.debrief_questions import (
    ANSWER_MAX_LENGTH,
    AnswerKind,
    tidy_answer,
)


def _bump_projector(event: Event) -> None:
    """Only the projector and the console show it: the phones stay at 304."""
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)


def _writable(event: Event) -> Event:
    event = Event.objects.lock(event.pk)
    if refusal := event.finished_refusal:
        raise Refused(refusal)
    return event


def _question_of(event: Event, question_id: int) -> DebriefQuestion:
    question = DebriefQuestion.objects.filter(event=event, pk=question_id).first()
    if question is None:
        raise Refused(_("That question is no longer in the list."))
    return question


@transaction.atomic
def answer_question(
    *, event: Event, question_id: int, phone: str, text: str = "", number: int | None = None
) -> DebriefAnswer:
    """Store this phone's answer to the question the projector shows, or change it."""
    event = _writable(event)
    if event.phase != Phase.DEBRIEF or not (
        event.shows_a_question and event.debrief_question_id == question_id
    ):
        raise Refused(_("The projector has moved on: this question no longer takes answers."))
    question = _question_of(event, question_id)
    if not question.takes_answers:
        raise Refused(_("This question is answered aloud, not from phones."))
    if not question.answers_open:
        raise Refused(_("The organizer has closed this question: answers can no longer change."))
    kind = question.kind
    if kind == AnswerKind.WORDS:
        text, number = tidy_answer(text), None
        if not text:
            raise Refused(_("Write a word or a few before you send."))
        if len(text) > ANSWER_MAX_LENGTH:
            raise Refused(
                _("An answer can be at most %(limit)s characters long.")
                % {"limit": ANSWER_MAX_LENGTH}
            )
    else:
        text = ""
        if number is None or number not in choice_numbers(event, kind):
            raise Refused(_("Choose one of the answers offered."))
    answer, created = DebriefAnswer.objects.get_or_create(
        question=question, phone=phone, defaults={"text": text, "number": number}
    )
    changed = not created and (answer.text, answer.number) != (text, number)
    if changed:
        answer.text, answer.number = text, number
        answer.save(update_fields=["text", "number", "updated_at"])
    if created or changed:
        _bump_projector(event)
    return answer


def _organizer_question(event: Event, question_id: int) -> tuple[Event, DebriefQuestion]:
    event = _writable(event)
    question = _question_of(event, question_id)
    if not question.takes_answers:
        raise Refused(_("This question takes no answers from phones."))
    return event, question


@transaction.atomic
def set_answer_kind(*, event: Event, question_id: int, kind: str) -> DebriefQuestion:
    """Turn answers from phones on (of one kind) or off for a question. Answers already
    given to another kind are kept out of sight: changing the kind deletes them, so no
    chart mixes words and numbers."""
    event = _writable(event)
    question = _question_of(event, question_id)
    if kind not in AnswerKind._value2member_map_:
        raise Refused(_("Choose how the room answers this question."))
    if question.answer_kind != kind:
        DebriefAnswer.objects.filter(question=question).delete()
        question.answer_kind = kind
        question.hidden_words = []
        question.save(update_fields=["answer_kind", "hidden_words"])
        Event.objects.bump_version(event.pk)
    return question


@transaction.atomic
def reveal_answers(*, event: Event, question_id: int, revealed: bool) -> DebriefQuestion:
    """Show the answers on the projector, or hide them again (the count stays)."""
    event, question = _organizer_question(event, question_id)
    if question.answers_revealed != revealed:
        question.answers_revealed = revealed
        question.save(update_fields=["answers_revealed"])
        _bump_projector(event)
    return question


@transaction.atomic
def close_answers(*, event: Event, question_id: int, closed: bool) -> DebriefQuestion:
    """Close a question (phones can no longer answer or change), or open it again."""
    event, question = _organizer_question(event, question_id)
    if question.answers_open == closed:
        question.answers_open = not closed
        question.save(update_fields=["answers_open"])
        Event.objects.bump_version(event.pk)
    return question


@transaction.atomic
def hide_word(*, event: Event, question_id: int, word: str, hidden: bool) -> DebriefQuestion:
    """Take a word off the projector (by its key, so every spelling of it goes), or
    show it again. A word may be hidden before anyone answered it."""
    event, question = _organizer_question(event, question_id)
    if question.kind != AnswerKind.WORDS:
        raise Refused(_("Only words can be hidden."))
    key = word_key(tidy_answer(word)[:ANSWER_MAX_LENGTH])
    if not key:
        raise Refused(_("Write the word to hide."))
    keys = [known for known in question.hidden_words if known != key]
    if hidden:
        keys.append(key)
    if keys != question.hidden_words:
        question.hidden_words = keys
        question.save(update_fields=["hidden_words"])
        _bump_projector(event)
    return question
