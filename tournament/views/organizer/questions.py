"""The organizer's debrief questions: the editor page and its actions.

Terms:
    editor    one page per event listing its debrief questions by stage, each in its own
              form (words and stage), with move up, move down and delete beside it, a form
              to add one, and a reset to the default bank. Plain forms: it all works
              without JavaScript; with it the forms are boosted and keep the scroll.
    read-only a finished event's editor: the questions as text, without a form to change
              them (every such POST is refused until the event is reopened); showing one
              on the projector still works, like the console's debrief screens.
    refused   a question whose words are empty or too long: the page comes back with the
              words as typed and the reason beside them, nothing saved (status 400
              without htmx).

The bank and its stages are tournament.rules.debrief_questions; the writes are
tournament.writes.debrief_bank; showing a question on the projector is the console's
(tournament.views.organizer.debrief.debrief_step).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tournament.common.errors import Refused
from tournament.common.requests import HtmxRequest
from tournament.forms import DebriefQuestionForm
from tournament.models import (
    ANSWER_KIND_CHOICES,
    STAGE_CHOICES,
    DebriefQuestion,
    Event,
    Phase,
    screens_before_stage,
)
from tournament.rules.debrief_questions import (
    DEFAULT_BANK,
    QUESTION_MAX_LENGTH,
    STAGE_AIMS,
    STAGE_TITLES,
    Stage,
)
from tournament.views.access import event_view
from tournament.views.organizer.answers import confirmed, get_goes_to, refused_form, run_action
from tournament.writes.debrief_bank import (
    Direction,
    add_question,
    delete_question,
    edit_question,
    move_question,
    reset_questions,
)

TEMPLATE = "organizer/debrief_questions.html"


def questions_url(event: Event | int, question: int | None = None) -> str:
    url = reverse("organizer:debrief_questions", args=[getattr(event, "pk", event)])
    return f"{url}#question-{question}" if question else url


@dataclass
class QuestionRow:
    question: DebriefQuestion
    form: DebriefQuestionForm
    number: int
    first_in_stage: bool
    last_in_stage: bool
    shown: bool  # on the projector now

    @property
    def refused(self) -> bool:
        return self.form.is_bound and bool(self.form.errors)


@dataclass
class StageBlock:
    stage: Stage
    title: str
    aim: str
    screens_before: list[str]
    rows: list[QuestionRow]


def questions_context(
    request: HttpRequest,
    event: Event,
    *,
    refused: DebriefQuestionForm | None = None,
    refused_id: int | None = None,
    add_form: DebriefQuestionForm | None = None,
) -> dict:
    """The editor's page; a refused form (edit of ``refused_id``, or the add form) shows
    what was typed and why it was refused."""
    questions = list(DebriefQuestion.objects.filter(event=event).order_by("position"))
    shown_id = event.debrief_question_id if event.shows_a_question else None
    blocks = []
    number = 0
    screens = screens_before_stage(on_screens=event.on_screens)
    for stage in Stage:
        mine = [q for q in questions if q.stage == stage]
        rows = []
        for place, question in enumerate(mine):
            number += 1
            form = (
                refused
                if refused is not None and refused_id == question.pk
                else DebriefQuestionForm(initial={"text": question.text, "stage": question.stage})
            )
            rows.append(
                QuestionRow(
                    question,
                    form,
                    number,
                    first_in_stage=place == 0,
                    last_in_stage=place == len(mine) - 1,
                    shown=question.pk == shown_id,
                )
            )
        blocks.append(
            StageBlock(
                stage,
                _(STAGE_TITLES[stage]),
                _(STAGE_AIMS[stage]),
                [str(step.label) for step in screens.get(stage, ())],
                rows,
            )
        )
    return {
        "event": event,
        "blocks": blocks,
        "total": len(questions),
        "default_total": len(DEFAULT_BANK),
        "add_form": add_form or DebriefQuestionForm(),
        "max_length": QUESTION_MAX_LENGTH,
        "stage_choices": STAGE_CHOICES,
        "kind_choices": ANSWER_KIND_CHOICES,
        "at_debrief": event.phase == Phase.DEBRIEF,
        "read_only": event.is_finished,
        "here": questions_url(event),
        "site_messages": list(get_messages(request)),
    }


@require_GET
@event_view(may="organize")
def questions_page(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, TEMPLATE, questions_context(request, event))


def _question(event: Event, question_id: int) -> DebriefQuestion:
    question = get_object_or_404(DebriefQuestion, event=event, pk=question_id)
    question.event = event
    return question


@get_goes_to(lambda pk: questions_url(pk))
@event_view()
def question_add(request: HtmxRequest, event: Event) -> HttpResponse:
    form = DebriefQuestionForm(request.POST)
    if form.is_valid():
        try:
            question = add_question(event=event, **form.cleaned_data)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            stage = _(STAGE_TITLES[Stage(question.stage)])
            messages.success(request, _("Question added to “%(stage)s”.") % {"stage": stage})
            return redirect(questions_url(event, question.pk))
    return refused_form(
        request,
        TEMPLATE,
        questions_context(request, event, add_form=form),
        page_url=questions_url(event),
    )


@get_goes_to(lambda pk, question_id: questions_url(pk, question_id))
@event_view()
def question_edit(request: HtmxRequest, event: Event, question_id: int) -> HttpResponse:
    question = _question(event, question_id)
    form = DebriefQuestionForm(request.POST)
    if form.is_valid():
        try:
            edit_question(question=question, **form.cleaned_data)
        except Refused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Question saved."))
            return redirect(questions_url(event, question.pk))
    return refused_form(
        request,
        TEMPLATE,
        questions_context(request, event, refused=form, refused_id=question.pk),
        page_url=questions_url(event),
    )


@require_POST
@event_view()
def question_move(request: HttpRequest, event: Event, question_id: int) -> HttpResponse:
    question = _question(event, question_id)
    posted = request.POST.get("direction", "")

    def move() -> str | None:
        if posted not in {direction.value for direction in Direction}:
            raise Refused(_("Choose up or down."))
        move_question(question=question, direction=Direction(posted))
        return None  # the list itself shows the move

    return run_action(request, move, default=questions_url(event, question.pk))


@require_POST
@event_view()
def question_delete(request: HttpRequest, event: Event, question_id: int) -> HttpResponse:
    question = _question(event, question_id)
    text = question.text

    def delete() -> str:
        delete_question(question=question)
        return _("Deleted: “%(text)s”") % {"text": text}

    return run_action(request, delete, default=questions_url(event))


@require_POST
@event_view()
def questions_reset(request: HttpRequest, event: Event) -> HttpResponse:
    def reset() -> str:
        if not confirmed(request):
            raise Refused(_("Tick the box to confirm: every question of this event is replaced."))
        count = len(reset_questions(event=event))
        return ngettext(
            "The event has the default question again.",
            "The event has the %(count)s default questions again.",
            count,
        ) % {"count": count}

    return run_action(request, reset, default=questions_url(event))
