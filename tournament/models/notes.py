"""What facilitators saw at the tables: observers' notes for the debrief.

Terms:
    note     a tag and an optional short text about one table, stamped with the table,
             the round and the time (``ObserverNote``); kept by numbers, not rows, so it
             outlives a re-planned table and travels in the exports as it was written.
    tag      what was seen (``NoteTag``): the large buttons of the notes page.
    on the projector
             a note the organizer chose to show in the debrief; never shown otherwise.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event


class NoteTag(models.TextChoices):
    """What an observer saw at a table: the large buttons of the notes page."""

    CONFUSION = "confusion", _("Confusion")
    GESTURES = "gestures", _("Gestures or drawing")
    RULE_IMPOSED = "rule_imposed", _("A rule imposed")
    DISPUTE = "dispute", _("A dispute")
    ADAPTING = "adapting", _("Someone adapting")
    DOMINATING = "dominating", _("Someone dominating")
    WITHDRAWING = "withdrawing", _("Someone withdrawing")
    LAUGHTER = "laughter", _("Laughter")


NOTE_TEXT_MAX_LENGTH = 200


class ObserverNote(models.Model):
    """What a facilitator saw at a table: a tag and an optional short text, stamped with
    the table, the round and the time. Kept by numbers (not rows) so that a note outlives
    a re-planned table and travels in the exports as it was written."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notes")
    table_number = models.PositiveSmallIntegerField(_("table"))
    round_number = models.PositiveSmallIntegerField(
        _("round"), help_text=_("0: before round 1 (study or practice).")
    )
    tag = models.CharField(_("what"), max_length=16, choices=NoteTag)
    text = models.CharField(_("note"), max_length=NOTE_TEXT_MAX_LENGTH, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # As shown when written: the author's account may be gone by the report.
    author_name = models.CharField(_("by"), max_length=150, blank=True)
    created_at = models.DateTimeField(_("written"), default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    on_projector = models.BooleanField(
        _("shown on the projector"),
        default=False,
        help_text=_("Chosen by the organizer for the debrief; never shown otherwise."),
    )

    class Meta:
        ordering = ["event", "table_number", "created_at", "pk"]
        verbose_name = _("observer's note")
        verbose_name_plural = _("observers' notes")
        constraints = [
            models.CheckConstraint(
                condition=Q(tag__in=[tag.value for tag in NoteTag]), name="note_tag_known"
            ),
            models.CheckConstraint(condition=Q(table_number__gte=1), name="note_table_numbered"),
        ]
        indexes = [models.Index(fields=["event", "created_at"], name="note_event_time")]

    def __str__(self) -> str:
        return f"T{self.table_number} R{self.round_number} {self.tag}"
