"""A phone's answer to the debrief's question the projector shows.

Terms:
    answer kind, choices, asked
                 see tournament.models.debrief and tables.reads.debrief_answers.
    open         the question the projector shows takes answers and the organizer has not
                 closed it (tournament.writes.debrief_answers): only then may a phone
                 answer, or change its answer. A phone answers the question shown, never
                 another: a page left open on an old question is refused with the reason,
                 and shows the new one.
    one answer   per phone id and question (a unique constraint): a second post changes
                 the first; the same answer again changes nothing.
    words        a word answer, tidied (spaces trimmed, runs made one); one holding a control
                 character (tournament.rules.roster: Terms: control) is refused, as a
                 player's name is: NUL, ESC or BEL would reach the downloads raw.

The answer bumps Event.version only: the projector and the console show it, while the
phones, which follow shared_version, keep answering 304. A finished event takes none
(Event.finished_refusal).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tables.reads.debrief_answers import choice_numbers
from tournament.common.errors import Refused
from tournament.models import DebriefAnswer, DebriefQuestion, Event, Phase
from tournament.rules.debrief_questions import ANSWER_MAX_LENGTH, AnswerKind, tidy_answer
from tournament.rules.roster import code_point, control_characters


@transaction.atomic
def answer_question(
    *, event: Event, question_id: int, phone: str, text: str = "", number: int | None = None
) -> DebriefAnswer:
    """Store this phone's answer to the question the projector shows, or change it."""
    event = Event.objects.lock(event.pk)
    if refusal := event.finished_refusal:
        raise Refused(refusal)
    if event.phase != Phase.DEBRIEF or not (
        event.shows_a_question and event.debrief_question_id == question_id
    ):
        raise Refused(_("The projector has moved on: this question no longer takes answers."))
    question = DebriefQuestion.objects.filter(event=event, pk=question_id).first()
    if question is None:
        raise Refused(_("That question is no longer in the list."))
    if not question.takes_answers:
        raise Refused(_("This question is answered aloud, not from phones."))
    if not question.answers_open:
        raise Refused(_("The organizer has closed this question: answers can no longer change."))
    kind = question.kind
    if kind == AnswerKind.WORDS:
        text, number = _checked_words(text), None
    else:
        text = ""
        if number is None or number not in choice_numbers(event, kind):
            raise Refused(_("Choose one of the answers offered."))
    answer, created = DebriefAnswer.objects.get_or_create(
        question=question, phone=phone, defaults={"text": text, "number": number}
    )
    answer.question = question  # the caller names the answer by its question's kind
    changed = not created and (answer.text, answer.number) != (text, number)
    if changed:
        answer.text, answer.number = text, number
        answer.save(update_fields=["text", "number", "updated_at"])
    if created or changed:
        Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
    return answer


def _checked_words(typed: str) -> str:
    """A word answer ready to store (see Terms: words), or its refusal."""
    text = tidy_answer(typed)
    if not text:
        raise Refused(_("Write a word or a few before you send."))
    if len(text) > ANSWER_MAX_LENGTH:
        raise Refused(
            _("An answer can be at most %(limit)s characters long.") % {"limit": ANSWER_MAX_LENGTH}
        )
    if controls := control_characters(text):
        raise Refused(
            _(
                "That answer holds a control character (%(character)s), which cannot be part "
                "of an answer. Retype the answer."
            )
            % {"character": code_point(controls[0])}
        )
    return text
