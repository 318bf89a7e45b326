"""The organizer's controls over the room's answers to the debrief's questions (a phone's
answer is tables.writes.debrief_answers).

Terms:
    answer kind, answers
                 see tournament.models.debrief and tournament.rules.debrief_questions.
    open         phones may answer the question, or change their answer, while the
                 projector shows it (tables.writes.debrief_answers); closing it stops them.
    revealed     the projector shows the answers (the count shows from the start).
    hidden word  a word key (tournament.rules.charts.answers.word_key) the organizer took
                 off the projector; it stays in the records, as the room said it.

Revealing and hiding words bump Event.version only, as a phone's answer does (the projector and
the console show them; the phones, which follow shared_version, keep answering 304 and
keep a word being typed). At an event whose cards are on screens they bump both: each
player's own screen shows the room's answers as the projector does (phone/_room_screen.html),
and a word the organizer hides must leave it at once; the word a player is typing stays
(its field is kept through the swap, phone/_answer.html). Closing a question and changing
its kind bump both, as the phones show them. A finished event takes no write
here (Event.finished_refusal).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import DebriefAnswer, DebriefQuestion, Event
from tournament.rules.charts.answers import word_key
from tournament.rules.debrief_questions import (
    ANSWER_MAX_LENGTH,
    AnswerKind,
    tidy_answer,
)


def bump_projector(event: Event) -> None:
    """Only the projector and the console show it, and the players' own screens at a
    screen event: a table's phones stay at 304."""
    if event.on_screens:
        Event.objects.bump_version(event.pk)
    else:
        Event.objects.filter(pk=event.pk).update(version=F("version") + 1)


def writable(event: Event) -> Event:
    """The event locked (see Event.objects.lock), or Refused once it is finished."""
    event = Event.objects.lock(event.pk)
    if refusal := event.finished_refusal:
        raise Refused(refusal)
    return event


def question_of(event: Event, question_id: int) -> DebriefQuestion:
    question = DebriefQuestion.objects.filter(event=event, pk=question_id).first()
    if question is None:
        raise Refused(_("That question is no longer in the list."))
    return question


def _organizer_question(event: Event, question_id: int) -> tuple[Event, DebriefQuestion]:
    event = writable(event)
    question = question_of(event, question_id)
    if not question.takes_answers:
        raise Refused(_("This question takes no answers from phones."))
    return event, question


@transaction.atomic
def set_answer_kind(*, event: Event, question_id: int, kind: str) -> DebriefQuestion:
    """Turn answers from phones on (of one kind) or off for a question. Answers already
    given to another kind are kept out of sight: changing the kind deletes them, so no
    chart mixes words and numbers."""
    event = writable(event)
    question = question_of(event, question_id)
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
        bump_projector(event)
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
        bump_projector(event)
    return question
