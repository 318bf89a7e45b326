"""Saving an event's settings (tournament.writes.event_settings): a new language of the room
rewords the debrief questions nobody edited, and keeps the organizer's own."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests import factories
from tournament.models import DebriefQuestion, Event
from tournament.rules.debrief_questions import default_bank

pytestmark = pytest.mark.django_db


def _bank(language: str) -> list[str]:
    with translation.override(language):
        return [question.text for question in default_bank(gettext)]


def _settings(event: Event, **changes) -> dict:
    fields = {
        "name": event.name,
        "rounds_planned": event.rounds_planned,
        "round_minutes": event.round_minutes,
        "study_minutes": event.study_minutes,
        "practice_minutes": event.practice_minutes,
        "language": event.language,
        "difference_set": event.difference_set,
        "disruptive_share": event.disruptive_share,
    }
    return {**fields, **changes}


def test_a_new_event_gets_the_default_questions_in_its_language(organizer):
    event = factories.make_event(owner=organizer, language="de")
    texts = list(DebriefQuestion.objects.filter(event=event).values_list("text", flat=True))
    assert texts == _bank("de")
    assert texts != _bank("en")


def test_a_new_language_rewords_unedited_questions_and_keeps_edited_ones(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    edited = DebriefQuestion.objects.filter(event=event).order_by("position").first()
    edited.text = "What surprised you most?"
    edited.save()
    version = event.version
    answer = signed_in.post(
        reverse("organizer:event_settings", args=[event.pk]), _settings(event, language="fr")
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.language == "fr"
    assert event.version > version
    texts = list(
        DebriefQuestion.objects.filter(event=event)
        .order_by("position")
        .values_list("text", flat=True)
    )
    assert texts[0] == "What surprised you most?"
    assert texts[1:] == _bank("fr")[1:]


def test_an_unknown_language_is_refused_and_nothing_changes(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    answer = signed_in.post(
        reverse("organizer:event_settings", args=[event.pk]), _settings(event, language="xx")
    )
    assert answer.status_code == 400
    event.refresh_from_db()
    assert event.language == "en"
    assert list(DebriefQuestion.objects.filter(event=event).values_list("text", flat=True)) == (
        _bank("en")
    )
