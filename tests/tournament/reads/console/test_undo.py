"""The console's undo of a close: offered exactly while tournament.writes.rounds would
undo it, at an event whose cards are on screens as at one whose cards are on the table."""

from __future__ import annotations

import pytest

from tests import factories
from tests.screen_factories import play_trick, screen_event
from tournament.common.errors import Refused
from tournament.models import Event
from tournament.reads.console import build_console
from tournament.writes.rounds import advance_phase, undo_close_round

pytestmark = pytest.mark.django_db


def into_round_two(organizer) -> Event:
    event = screen_event(owner=organizer, players=8, tables=2)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    factories.close_current_round(event, organizer)
    return advance_phase(event=Event.objects.get(pk=event.pk))  # round 2


def test_a_screen_events_close_is_undone_only_until_a_card_of_the_next_round(organizer):
    event = into_round_two(organizer)
    assert build_console(event).undo_blocker is None
    assert build_console(event).undo_note == ("Possible until the first card of round 2 is played.")

    play_trick(event, 1)  # round 2 has begun: no game yet, but cards on the table
    blocker = build_console(event).undo_blocker
    with pytest.raises(Refused) as refused:
        undo_close_round(event=event)
    assert blocker == refused.value.message == ("Round 2 has started: the close cannot be undone.")


def test_a_room_events_close_is_undone_until_a_game_of_the_next_round(organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    factories.close_current_round(event, organizer)
    event = advance_phase(event=Event.objects.get(pk=event.pk))
    assert build_console(event).undo_note == "Possible while round 2 has no reported game."
    assert build_console(event).undo_blocker is None
