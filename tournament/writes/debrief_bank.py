"""The organizer's writes to an event's debrief questions, and showing one on the projector.

Terms:
    bank, stage, running order
                 see tournament.rules.debrief_questions.
    shown        the question the projector shows now (Event.debrief_question while the
                 debrief screen is DebriefStep.QUESTION). Deleting it, or resetting the
                 bank, moves the projector on so it never shows a question that is gone.
    move         up or down among the questions of the same stage: the stage decides where
                 a question falls in the talk, so a move never crosses into another stage
                 (change the question's stage for that).

Every write bumps the event's versions, so the console and the projector show it at their
next poll. Editing works in every phase: the organizer can prepare the talk beforehand.
"""

from __future__ import annotations

from enum import StrEnum

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.models import DebriefQuestion, DebriefStep, Event, PathsHighlight, Phase
from tournament.reads.debrief import debrief_progress
from tournament.rules.debrief_questions import QUESTION_MAX_LENGTH, Stage, tidy_question


class Direction(StrEnum):
    UP = "up"
    DOWN = "down"


def _checked(text: str, stage: str) -> tuple[str, Stage]:
    """The question tidied and its stage, or Refused (the form says the same first)."""
    text = tidy_question(text)
    if not text:
        raise Refused(_("Write the question: it cannot be empty."))
    if len(text) > QUESTION_MAX_LENGTH:
        raise Refused(
            _("A question can be at most %(limit)s characters long.")
            % {"limit": QUESTION_MAX_LENGTH}
        )
    if stage not in {known.value for known in Stage}:
        raise Refused(_("Choose one of the stages."))
    return text, Stage(stage)


def _locked(event: Event) -> Event:
    # Every change to the bank goes through the event's row, so two tabs' writes queue.
    return Event.objects.select_for_update().get(pk=event.pk)


def _end_of_bank(event: Event) -> int:
    return DebriefQuestion.objects.filter(event=event).aggregate(last=Max("position"))["last"] or 0


@transaction.atomic
def add_question(*, event: Event, text: str, stage: str) -> DebriefQuestion:
    """A new question at the end of its stage."""
    text, stage = _checked(text, stage)
    event = _locked(event)
    question = DebriefQuestion.objects.create(
        event=event, position=_end_of_bank(event) + 1, stage=stage, text=text
    )
    Event.objects.bump_version(event.pk)
    return question


@transaction.atomic
def edit_question(*, question: DebriefQuestion, text: str, stage: str) -> DebriefQuestion:
    """New words for a question; a new stage puts it at the end of that stage."""
    text, stage = _checked(text, stage)
    event = _locked(question.event)
    question = DebriefQuestion.objects.get(pk=question.pk, event=event)
    fields = []
    if question.text != text:
        question.text = text
        fields.append("text")
    if question.stage != stage:
        question.stage = stage
        question.position = _end_of_bank(event) + 1
        fields += ["stage", "position"]
    if fields:
        question.save(update_fields=fields)
        Event.objects.bump_version(event.pk)
    return question


@transaction.atomic
def move_question(*, question: DebriefQuestion, direction: Direction) -> DebriefQuestion:
    """Swap a question with its neighbour in the same stage."""
    event = _locked(question.event)
    question = DebriefQuestion.objects.get(pk=question.pk, event=event)
    same_stage = DebriefQuestion.objects.filter(event=event, stage=question.stage)
    if direction == Direction.UP:
        neighbour = same_stage.filter(position__lt=question.position).order_by("-position")
    else:
        neighbour = same_stage.filter(position__gt=question.position).order_by("position")
    other = neighbour.first()
    if other is None:
        if direction == Direction.UP:
            raise Refused(_("This is already the first question of its stage."))
        raise Refused(_("This is already the last question of its stage."))
    mine, theirs = question.position, other.position
    # Positions are unique per event: park one out of the way for the swap.
    question.position = _end_of_bank(event) + 1
    question.save(update_fields=["position"])
    other.position = mine
    other.save(update_fields=["position"])
    question.position = theirs
    question.save(update_fields=["position"])
    Event.objects.bump_version(event.pk)
    return question


@transaction.atomic
def delete_question(*, question: DebriefQuestion) -> None:
    """Delete a question; if the projector shows it, it moves on to the next slide (or
    back to the one before, at the end of the running order)."""
    event = _locked(question.event)
    if event.shows_a_question and event.debrief_question_id == question.pk:
        progress = debrief_progress(event)
        # Screens are always in the running order, so there is a slide either side.
        landing = progress.next or progress.previous
        assert landing is not None
        event.debrief_step = landing.step
        event.debrief_question_id = landing.question_id
        event.save(update_fields=["debrief_step", "debrief_question"])
    DebriefQuestion.objects.filter(pk=question.pk, event=event).delete()
    Event.objects.bump_version(event.pk)


@transaction.atomic
def reset_questions(*, event: Event) -> list[DebriefQuestion]:
    """Replace every question of the event with the default bank (in today's language).

    If the projector shows a question, it shows the first new question of the same stage.
    """
    event = _locked(event)
    stage = None
    shown = event.debrief_question_id
    # shows_a_question implies an id; tested again for the type checker, which cannot see it.
    if event.shows_a_question and shown is not None:
        stage = DebriefQuestion.objects.get(pk=shown).stage
        event.debrief_question = None
        event.save(update_fields=["debrief_question"])
    DebriefQuestion.objects.filter(event=event).delete()
    questions = DebriefQuestion.objects.add_default_bank(event)
    if stage is not None:
        event.debrief_question = next(q for q in questions if q.stage == stage)
        event.save(update_fields=["debrief_question"])
    Event.objects.bump_version(event.pk)
    return questions


@transaction.atomic
def show_question(*, event: Event, question_id: int) -> DebriefQuestion:
    """Show one of the event's questions on the projector; only at the debrief."""
    event = _locked(event)
    if event.phase != Phase.DEBRIEF:
        raise Refused(_("The debrief screens come after the last round."))
    question = DebriefQuestion.objects.filter(event=event, pk=question_id).first()
    if question is None:
        raise Refused(_("That question is no longer in the list: choose another one."))
    if not (event.shows_a_question and event.debrief_question_id == question.pk):
        event.debrief_step = DebriefStep.QUESTION
        event.debrief_question = question
        event.save_and_bump(["debrief_step", "debrief_question"])
    return question


@transaction.atomic
def set_paths_highlight(*, event: Event, highlight: str) -> Event:
    """Which paths the debrief's paths chart draws bold (PathsHighlight)."""
    if highlight not in PathsHighlight.values:
        raise Refused(_("Choose which paths to draw bold."))
    event = _locked(event)
    if event.paths_highlight != highlight:
        event.paths_highlight = highlight
        event.save_and_bump(["paths_highlight"])
    return event
