"""Strokes and gestures at a screen table: stored once per key, on the pad of the table the
screen showed, shown to the whole table, and a new table's pad starts empty."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Gesture, Stroke, Table
from tables.reads.silent_channel import gestures_showing, pad_view
from tables.rules import silent_channel as rules
from tables.writes.silent_channel import draw_stroke, make_gesture
from tests import factories
from tests.screen_factories import deal_at, device_of, key, play_trick, screen_event
from tournament.common.errors import Refused
from tournament.models import Player, Seat
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(screen_event(owner=organizer))


def _first(event, table_number=1):
    deal = deal_at(event, table_number)
    return deal, Player.objects.get(pk=deal.seats[0])


def _draw(player, points="1,1 50,50", *, kind="black", client_key=None, **extra):
    return draw_stroke(
        player=player,
        kind=kind,
        points=points,
        client_key=client_key or key(),
        device=device_of(player),
        **extra,
    )


def test_a_stroke_is_stored_once_per_key_and_bumps_the_table(playing):
    deal, me = _first(playing)
    before = Table.objects.get(pk=deal.table_id).version
    first = _draw(me, client_key="stroke-key-1")
    again = _draw(me, client_key="stroke-key-1")
    assert not first.repeated
    assert again.repeated
    assert Stroke.objects.count() == 1
    assert Table.objects.get(pk=deal.table_id).version == before + 1
    assert Stroke.objects.get().deal_id == deal.pk


def test_another_players_key_is_refused(playing):
    deal, me = _first(playing)
    other = Player.objects.get(pk=deal.seats[1])
    _draw(me, client_key="stroke-key-2")
    with pytest.raises(Refused):
        _draw(other, client_key="stroke-key-2")


def test_text_is_never_stored_on_the_pad(playing):
    _deal, me = _first(playing)
    for kind, points in [("black", "trump is hearts"), ("text", "1,1 2,2"), ("red", "9999,1")]:
        with pytest.raises(Refused):
            _draw(me, points, kind=kind)
    assert not Stroke.objects.exists()


def test_a_clear_empties_the_pad_and_keeps_its_strokes_for_the_debrief(playing):
    deal, me = _first(playing)
    _draw(me)
    middle = timezone.now()
    _draw(me, "5,5 6,6", kind="red")
    _draw(me, "", kind="clear")
    _draw(me, "7,7 8,8", kind="eraser")
    assert [s.kind for s in pad_view(deal.round_id, deal.table_id).strokes] == ["eraser"]
    assert pad_view(deal.round_id, deal.table_id, until=middle).drawings == 1
    assert Stroke.objects.count() == 4


def test_a_stroke_for_the_pad_of_another_table_is_refused(playing):
    deal, me = _first(playing)
    other_table = deal_at(playing, 2).table_id
    with pytest.raises(Refused, match="last table"):
        _draw(me, pad=(deal.round_id, other_table))
    _draw(me, pad=(deal.round_id, deal.table_id))
    assert Stroke.objects.count() == 1


def test_a_full_pad_asks_to_be_cleared(playing, monkeypatch):
    _deal, me = _first(playing)
    monkeypatch.setattr(rules, "MAX_PAD_POINTS", 5)
    _draw(me, "1,1 2,2 3,3")
    with pytest.raises(Refused, match="Clear"):
        _draw(me, "1,1 2,2 3,3")
    _draw(me, "", kind="clear")
    _draw(me, "1,1 2,2 3,3")


def test_a_device_that_lost_the_seat_cannot_draw(playing):
    _deal, me = _first(playing)
    _draw(me)
    with pytest.raises(Refused, match="another device"):
        draw_stroke(player=me, kind="red", points="1,1", client_key=key(), device="elsewhere")


def test_a_gesture_shows_at_the_table_for_a_few_seconds(playing):
    deal, me = _first(playing)
    now = timezone.now()
    make_gesture(player=me, kind="wait", client_key=key(), device=device_of(me), now=now)
    showing = gestures_showing(deal.round_id, deal.table_id, now=now + timedelta(seconds=2))
    assert showing[me.pk].kind == "wait"
    assert showing[me.pk].seconds_left == rules.GESTURE_SECONDS - 2
    later = now + timedelta(seconds=rules.GESTURE_SECONDS + 1)
    assert gestures_showing(deal.round_id, deal.table_id, now=later) == {}
    assert not gestures_showing(deal_at(playing, 2).round_id, deal_at(playing, 2).table_id)


def test_pointing_gesture_names_a_card_on_the_table(playing):
    deal, cards = play_trick(playing, 1)
    me = Player.objects.get(pk=deal.seats[0])
    card = next(iter(cards.values()))
    make_gesture(player=me, kind="point", card=card, client_key=key(), device=device_of(me))
    assert Gesture.objects.get().card == card
    in_hand = deal.hands_by_player[me.pk][-1]
    with pytest.raises(Refused):
        make_gesture(player=me, kind="point", card=in_hand, client_key=key(), device=device_of(me))
    with pytest.raises(Refused, match="Gestures only"):
        make_gesture(player=me, kind="shout", client_key=key(), device=device_of(me))


def test_a_new_round_is_a_new_empty_pad_at_every_table(organizer, playing):
    deal, me = _first(playing)
    _draw(me)
    event = factories.close_current_round(playing, organizer)
    event = advance_phase(event=event)
    seat = Seat.objects.get(player=me, round__number=2)
    assert pad_view(seat.round_id, seat.table_id).drawings == 0
    assert pad_view(deal.round_id, deal.table_id).drawings == 1


def test_nothing_is_drawn_once_the_round_is_over(organizer, playing):
    _deal, me = _first(playing)
    factories.close_current_round(playing, organizer)
    with pytest.raises(Refused):
        _draw(me)
    with pytest.raises(Refused):
        make_gesture(player=me, kind="yes", client_key=key(), device=device_of(me))


def test_a_gesture_for_another_table_is_refused(playing):
    deal, me = _first(playing)
    other_table = deal_at(playing, 2).table_id
    with pytest.raises(Refused, match="last table"):
        make_gesture(
            player=me,
            kind="no",
            client_key=key(),
            device=device_of(me),
            pad=(deal.round_id, other_table),
        )
    make_gesture(
        player=me,
        kind="no",
        client_key=key(),
        device=device_of(me),
        pad=(deal.round_id, deal.table_id),
    )
    assert Gesture.objects.count() == 1


def test_a_player_whose_only_trace_is_a_drawing_is_marked_removed_not_deleted(organizer):
    from tables.models import Deal
    from tournament.models import PlayerStatus
    from tournament.writes.seating.roster import remove_player

    studying = advance_phase(event=screen_event(owner=organizer))  # study: round 1 planned
    _deal, me = _first(studying)
    _draw(me)
    Deal.objects.all().delete()  # no deal names them any more: the stroke alone is history
    assert Stroke.objects.get().point_count == 2
    assert remove_player(player=me) is False
    me.refresh_from_db()
    assert me.status == PlayerStatus.REMOVED
    assert Stroke.objects.filter(player=me).exists()
