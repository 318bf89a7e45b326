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
    source       a keyed hash of the link an answer came through (a table's, or the
                 event's players' link) and the client address (tournament.common.requests:
                 Terms: client address), stored on the answer and never shown. It is
                 how answers are limited like reports: a script that keeps dropping its
                 cookie gets a new phone id each time, so ids alone do not bound it.
    source limit how many phones may answer one question through one link from one
                 address: a table's seats and a spare (MAX_TABLE_SIZE + SPARE_PHONES)
                 through a table's link, the event's players and the spares through the
                 players' link (a hosted event's room may sit behind one address). A phone
                 that already answered may always change its answer.
    words        a word answer, tidied (spaces trimmed, runs made one); one holding a control
                 character (tournament.rules.roster: Terms: control) is refused, as a
                 player's name is: NUL, ESC or BEL would reach the downloads raw.

The answer bumps Event.version only: the projector and the console show it, while the
phones, which follow shared_version, keep answering 304. A finished event takes none
(Event.finished_refusal).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils.translation import gettext as _

from tables.reads.debrief_answers import choice_numbers
from tournament.common.errors import Refused
from tournament.models import DebriefAnswer, DebriefQuestion, Event, Phase, Player
from tournament.models.debrief import SOURCE_MAX_LENGTH
from tournament.rules.debrief_questions import ANSWER_MAX_LENGTH, AnswerKind, tidy_answer
from tournament.rules.roster import code_point, control_characters
from tournament.rules.table_plan import MAX_TABLE_SIZE

# Phones beyond the seats: a player's second phone, one borrowed from a neighbour.
SPARE_PHONES = 2


def answer_source(*, link: str, address: str) -> str:
    """The source of an answer (see Terms): the same link and address give the same one."""
    key = f"debrief-answer-source:{settings.SECRET_KEY}".encode()
    digest = hmac.new(key, f"{link}|{address}".encode(), hashlib.sha256).hexdigest()
    return digest[:SOURCE_MAX_LENGTH]


@transaction.atomic
def answer_question(
    *,
    event: Event,
    question_id: int,
    phone: str,
    text: str = "",
    number: int | None = None,
    source: str = "",
    source_limit: int | None = None,
) -> DebriefAnswer:
    """Store this phone's answer to the question the projector shows, or change it. A
    source_limit bounds the new phones of one source (see Terms: source limit); the
    views pass table_source_limit() or players_source_limit(event)."""
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
    if source_limit is not None:
        _check_source(question, phone=phone, source=source, limit=source_limit)
    answer, created = DebriefAnswer.objects.get_or_create(
        question=question, phone=phone, defaults={"text": text, "number": number, "source": source}
    )
    answer.question = question  # the caller names the answer by its question's kind
    changed = not created and (answer.text, answer.number) != (text, number)
    if changed:
        answer.text, answer.number = text, number
        answer.save(update_fields=["text", "number", "updated_at"])
    if created or changed:
        Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
    return answer


def table_source_limit() -> int:
    return MAX_TABLE_SIZE + SPARE_PHONES


def players_source_limit(event: Event) -> int:
    return Player.objects.filter(event=event).count() + SPARE_PHONES


def _check_source(question: DebriefQuestion, *, phone: str, source: str, limit: int) -> None:
    """Refuse a new phone's answer once its source has given `limit` answers (the event's
    row is locked, so two answers cannot both take the last place)."""
    counts = DebriefAnswer.objects.filter(question=question).aggregate(
        mine=Count("pk", filter=Q(phone=phone)), same=Count("pk", filter=Q(source=source))
    )
    # A change of answer is always taken, however many came from this source.
    if not counts["mine"] and counts["same"] >= limit:
        raise Refused(
            _(
                "Your answer is not stored: %(count)s phones have already answered through "
                "this link from this network. If more of you are here, tell the organizer."
            )
            % {"count": limit}
        )


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
