"""The organizer's controls over the room's answers to the debrief's questions.

Terms:
    answer kind, revealed, closed, hidden word
              see tournament.writes.debrief_answers.
    kind form the questions page's choice, per question, of how the room answers it
              (aloud only, words, the scale, a round, a table).
    controls  on the console's debrief panel, while the projector shows a question the
              room answers: reveal or hide the answers, close or reopen the question, and
              hide (or show again) a word, typed or picked from the words so far.

Every control is a plain form (boosted like the rest of the console), refused with its
reason for a finished event (event_view's read-only).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.common.errors import Refused
from tournament.common.inputs import positive_int
from tournament.models import Event
from tournament.views.access import event_view
from tournament.views.organizer.answers import console_url, run_action
from tournament.views.organizer.questions import questions_url
from tournament.writes.debrief_answers import (
    close_answers,
    hide_word,
    reveal_answers,
    set_answer_kind,
)


def _question_id(request: HttpRequest) -> int:
    question_id = positive_int(request.POST.get("question"))
    if question_id is None:
        raise Refused(_("That question is no longer in the list."))
    return question_id


def _on(request: HttpRequest, name: str) -> bool:
    return request.POST.get(name, "1") == "1"


@require_POST
@event_view()
def answer_kind(request: HttpRequest, event: Event, question_id: int) -> HttpResponse:
    """How the room answers a question: aloud only, or from phones of one kind."""

    def change() -> str:
        question = set_answer_kind(
            event=event, question_id=question_id, kind=request.POST.get("kind", "")
        )
        return _("Question %(text)s: %(kind)s.") % {
            "text": f"“{question.text[:60]}”",
            "kind": question.kind_title,
        }

    return run_action(request, change, default=questions_url(event, question_id))


@require_POST
@event_view()
def answers_reveal(request: HttpRequest, event: Event) -> HttpResponse:
    shown = _on(request, "revealed")

    def change() -> str:
        reveal_answers(event=event, question_id=_question_id(request), revealed=shown)
        if shown:
            return _("The projector shows the room's answers.")
        return _("The room's answers are hidden from the projector; the count still shows.")

    return run_action(request, change, default=console_url(event, "phase"))


@require_POST
@event_view()
def answers_close(request: HttpRequest, event: Event) -> HttpResponse:
    closing = _on(request, "closed")

    def change() -> str:
        close_answers(event=event, question_id=_question_id(request), closed=closing)
        if event.on_screens:  # the players answer on their own screens, phone or laptop
            if closing:
                return _("Question closed: the screens can no longer answer or change an answer.")
            return _("Question open again: the screens can answer.")
        if closing:
            return _("Question closed: phones can no longer answer or change their answer.")
        return _("Question open again: phones can answer.")

    return run_action(request, change, default=console_url(event, "phase"))


@require_POST
@event_view()
def answers_hide_word(request: HttpRequest, event: Event) -> HttpResponse:
    hiding = _on(request, "hidden")
    word = request.POST.get("word", "")

    def change() -> str:
        hide_word(event=event, question_id=_question_id(request), word=word, hidden=hiding)
        if hiding:
            return _("“%(word)s” is hidden from the projector.") % {"word": word.strip()}
        return _("“%(word)s” shows on the projector again.") % {"word": word.strip()}

    return run_action(request, change, default=console_url(event, "phase"))
