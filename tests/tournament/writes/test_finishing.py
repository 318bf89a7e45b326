"""Finishing, reopening and archiving an event (tournament.writes.finishing)."""

from __future__ import annotations

import pytest

from tables.models import GameReport
from tests import factories
from tournament.common.errors import Refused
from tournament.models import Event, Phase
from tournament.writes.finishing import archive_event, finish_event, reopen_event

pytestmark = pytest.mark.django_db


def at_the_debrief(organizer) -> Event:
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    return factories.play_until(event, Phase.DEBRIEF, by=organizer)


def test_an_event_is_finished_after_its_debrief_and_says_so(organizer):
    event = at_the_debrief(organizer)
    version = event.version

    finished = finish_event(event=event)

    assert finished.is_finished
    assert finished.finished_refusal.startswith("This event is finished, so it is read-only")
    stored = Event.objects.get(pk=event.pk)
    assert stored.finished_at is not None
    assert stored.version == version + 1, "every screen follows"
    assert stored.phase == Phase.DEBRIEF


@pytest.mark.parametrize("phase", [Phase.SETUP, Phase.ROUND, Phase.BETWEEN_ROUNDS])
def test_an_event_is_not_finished_before_its_debrief(organizer, phase):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    event = factories.play_until(event, phase, by=organizer)

    with pytest.raises(Refused, match="start the debrief first"):
        finish_event(event=event)
    assert not Event.objects.get(pk=event.pk).is_finished


def test_finishing_twice_or_reopening_an_open_event_is_refused(organizer):
    event = at_the_debrief(organizer)
    with pytest.raises(Refused, match="not finished"):
        reopen_event(event=event)
    finish_event(event=event)
    with pytest.raises(Refused, match="already finished"):
        finish_event(event=event)


def test_a_reopened_event_changes_again(organizer):
    event = finish_event(event=at_the_debrief(organizer))

    reopened = reopen_event(event=event)

    assert not reopened.is_finished
    assert reopened.finished_refusal is None
    assert not Event.objects.get(pk=event.pk).is_finished


def test_a_finished_event_takes_no_phone_report(organizer):
    event = at_the_debrief(organizer)
    winner = factories.seated_players(event, 1, round_number=1)[0]
    factories.report(event, 1, winner, round_number=1)  # late, but taken while open
    finish_event(event=event)

    with pytest.raises(Refused, match="The event is finished: no more games can be reported"):
        factories.report(event, 1, winner, round_number=1)
    assert GameReport.objects.count() == 1


def test_archive_and_bring_back_any_event(event):
    archived = archive_event(event=event)
    assert Event.objects.get(pk=event.pk).is_archived
    assert archived.version == event.version, "the event's screens do not change"
    with pytest.raises(Refused, match="already archived"):
        archive_event(event=event)

    archive_event(event=event, archived=False)
    assert not Event.objects.get(pk=event.pk).is_archived
    with pytest.raises(Refused, match="not archived"):
        archive_event(event=event, archived=False)
