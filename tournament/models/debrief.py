"""The debrief's questions: each event's own bank, born from the default one.

Terms:
    debrief question
             one question of the event's own debrief bank (DebriefQuestion); every event
             is born with the default bank (tournament.rules.debrief_questions), which the
             organizer then edits. The projector shows one at a time
             (Event.debrief_question, with DebriefStep.QUESTION).
    stage    where a question falls in the talk (feelings, noticing, coping...); within a
             stage the questions go by position (unique per event, gaps allowed).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event
from tournament.rules.debrief_questions import (
    QUESTION_MAX_LENGTH,
    STAGE_TITLES,
    Stage,
    default_bank,
)

STAGE_CHOICES = [(stage.value, _(STAGE_TITLES[stage])) for stage in Stage]


class DebriefQuestionQuerySet(models.QuerySet["DebriefQuestion"]):
    def add_default_bank(self, event: Event, *, after: int = 0) -> list[DebriefQuestion]:
        """The default questions in the event's language, appended after ``after``."""
        with translation.override(event.language):
            bank = default_bank(gettext)
        return self.bulk_create(
            DebriefQuestion(event=event, position=after + place, stage=q.stage, text=q.text)
            for place, q in enumerate(bank, start=1)
        )

    def last_position(self, event: Event) -> int:
        return self.filter(event=event).aggregate(last=models.Max("position"))["last"] or 0


class DebriefQuestion(models.Model):
    """One question of an event's debrief bank. Its stage places it in the talk; within
    a stage the questions go by position (unique per event, gaps allowed)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="debrief_questions")
    position = models.PositiveIntegerField(_("position"))
    stage = models.CharField(_("stage"), max_length=16, choices=STAGE_CHOICES)
    text = models.CharField(_("question"), max_length=QUESTION_MAX_LENGTH)

    objects = DebriefQuestionQuerySet.as_manager()

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("debrief question")
        verbose_name_plural = _("debrief questions")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "position"], name="debrief_question_position_unique"
            ),
            models.CheckConstraint(condition=~Q(text=""), name="debrief_question_not_empty"),
            models.CheckConstraint(
                condition=Q(stage__in=[stage.value for stage in Stage]),
                name="debrief_question_stage_known",
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def stage_title(self) -> str:
        return gettext(STAGE_TITLES[Stage(self.stage)])
