"""Saving an event's settings, and what a new language of the room changes.

Terms:
    settings        the event's own fields the organizer edits on its settings page (name,
                    timings, hidden differences, paper only, language of the room).
    default question
                    a debrief question still worded as the default bank words it
                    (tournament.rules.debrief_questions) in the event's old language: the
                    organizer never edited it, so it follows the room into the new language.
                    An edited or added question is the organizer's and stays as written.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from tournament.models import DebriefQuestion, Event
from tournament.rules.debrief_questions import default_bank


@transaction.atomic
def save_event_settings(*, event: Event, fields: list[str]) -> Event:
    """Save the changed ``fields`` of ``event`` under its lock and bump its versions, so
    every screen picks them up (a projector or phone in another language reloads)."""
    stored = Event.objects.lock(event.pk)
    if "language" in fields and stored.language != event.language:
        reword_default_questions(event=event, old_language=stored.language)
    event.save_and_bump(fields)
    return event


def reword_default_questions(*, event: Event, old_language: str) -> int:
    """Put the event's unedited default questions into its (new) language; how many."""
    with translation.override(old_language):
        old = [question.text for question in default_bank(gettext)]
    with translation.override(event.language):
        new = [question.text for question in default_bank(gettext)]
    rewording = dict(zip(old, new, strict=True))
    changed = []
    for question in DebriefQuestion.objects.filter(event=event, text__in=old):
        question.text = rewording[question.text]
        changed.append(question)
    DebriefQuestion.objects.bulk_update(changed, ["text"])
    return len(changed)
