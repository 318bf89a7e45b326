"""The debrief's questions: each event's own bank, born from the default one.

Terms:
    debrief question
             one question of the event's own debrief bank (DebriefQuestion); every event
             is born with the default bank (tournament.rules.debrief_questions), which the
             organizer then edits. The projector shows one at a time
             (Event.debrief_question, with DebriefStep.QUESTION).
    stage    where a question falls in the talk (feelings, noticing, coping...); within a
             stage the questions go by position (unique per event, gaps allowed).
    answers  a question may take anonymous answers from the room's phones, of one kind
             (answer kind, tournament.rules.debrief_questions.AnswerKind). Each phone id
             holds one answer per question (DebriefAnswer), which it may change while the
             question is open; the projector shows them once the organizer reveals them,
             without the words the organizer hid (by word key). Nothing here stores a
             name or a table with an answer, and no screen or record shows the phone id.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event
from tournament.rules.debrief_questions import (
    ANSWER_KIND_TITLES,
    ANSWER_MAX_LENGTH,
    QUESTION_MAX_LENGTH,
    STAGE_TITLES,
    AnswerKind,
    Stage,
    default_bank,
)

STAGE_CHOICES = [(stage.value, _(STAGE_TITLES[stage])) for stage in Stage]
ANSWER_KIND_CHOICES = [(kind.value, _(ANSWER_KIND_TITLES[kind])) for kind in AnswerKind]
PHONE_ID_MAX_LENGTH = 32
SOURCE_MAX_LENGTH = 16


class DebriefQuestionQuerySet(models.QuerySet["DebriefQuestion"]):
    def add_default_bank(self, event: Event, *, after: int = 0) -> list[DebriefQuestion]:
        """The default questions in the event's language, appended after ``after``."""
        with translation.override(event.language):
            bank = default_bank(gettext)
        return self.bulk_create(
            DebriefQuestion(
                event=event,
                position=after + place,
                stage=q.stage,
                text=q.text,
                answer_kind=q.answers,
            )
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
    answer_kind = models.CharField(
        _("answers from phones"),
        max_length=8,
        choices=ANSWER_KIND_CHOICES,
        blank=True,
        default=AnswerKind.NONE,
    )
    # Phones may answer (or change their answer) while open; the organizer closes it.
    answers_open = models.BooleanField(_("answers open"), default=True)
    # The projector shows the answers only once the organizer reveals them; the count
    # of answers shows from the start.
    answers_revealed = models.BooleanField(_("answers revealed"), default=False)
    # The word keys (tournament.rules.charts.answers.word_key) the organizer hid.
    hidden_words = models.JSONField(_("hidden words"), default=list, blank=True)

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

    @property
    def takes_answers(self) -> bool:
        return self.answer_kind != AnswerKind.NONE

    @property
    def kind(self) -> AnswerKind:
        return AnswerKind(self.answer_kind)

    @property
    def kind_title(self) -> str:
        return gettext(ANSWER_KIND_TITLES[self.kind])


class DebriefAnswer(models.Model):
    """One phone's answer to one debrief question: words (text) or a number (a point of
    the scale, a round or a table). Anonymous: the phone id only keeps one answer per
    phone, and is never shown or exported."""

    question = models.ForeignKey(DebriefQuestion, on_delete=models.CASCADE, related_name="answers")
    phone = models.CharField(_("phone id"), max_length=PHONE_ID_MAX_LENGTH)
    # A keyed hash of the link and the client address the answer came through: it only
    # counts a link's answers from one address (tables.writes.debrief_answers: Terms:
    # source), and is never shown or exported.
    source = models.CharField(
        _("source"), max_length=SOURCE_MAX_LENGTH, blank=True, default="", editable=False
    )
    text = models.CharField(_("words"), max_length=ANSWER_MAX_LENGTH, blank=True)
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)
    created_at = models.DateTimeField(_("answered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        ordering = ["question", "pk"]
        verbose_name = _("debrief answer")
        verbose_name_plural = _("debrief answers")
        indexes = [models.Index(fields=["question", "source"], name="debrief_answer_source")]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "phone"], name="debrief_answer_one_per_phone"
            ),
            models.CheckConstraint(
                condition=~Q(text="") | Q(number__isnull=False),
                name="debrief_answer_not_empty",
            ),
        ]

    def __str__(self) -> str:
        return self.text or str(self.number)
