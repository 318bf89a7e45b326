"""A table's change is pushed as a small difference: a gesture or a card at a table whose
pad is full sends every screen the table's state and the pad's version, not the pad's
strokes again; the strokes travel to a screen only when the pad changed since its last
push (tables.views.screen_pushed.pushed_table_parts; the channel's side is in
test_live_channel.py)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import Stroke
from tables.rules import silent_channel as rules
from tables.views.screen_pushed import pushed_table_parts
from tables.writes.silent_channel import draw_stroke, make_gesture
from tests import factories
from tests.screen_factories import deal_at, device_of, key, screen_event
from tournament.models import Player


def _fill_the_pad(deal) -> None:
    """A full pad, drawn a while ago: MAX_PAD_POINTS points in strokes of the longest."""
    player = Player.objects.get(pk=deal.seats[1])
    shaky = random.Random(40)
    strokes = rules.MAX_PAD_POINTS // rules.MAX_STROKE_POINTS
    Stroke.objects.bulk_create(
        Stroke(
            round_id=deal.round_id,
            table_id=deal.table_id,
            player=player,
            kind="black",
            points=[
                [shaky.randrange(rules.PAD_WIDTH), shaky.randrange(rules.PAD_HEIGHT)]
                for _ in range(rules.MAX_STROKE_POINTS)
            ],
            point_count=rules.MAX_STROKE_POINTS,
            client_key=f"fullpad{n:04d}",
            drawn_at=timezone.now() - timedelta(minutes=5),
        )
        for n in range(strokes)
    )


@pytest.mark.django_db
def test_a_gesture_at_a_full_pad_is_pushed_in_a_few_kilobytes(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    deal = deal_at(event, 1)
    _fill_the_pad(deal)
    me = Player.objects.get(pk=deal.seats[0])
    make_gesture(player=me, kind="hand", client_key=key(), device=device_of(me))
    parts = pushed_table_parts(deal.table_id, "en")
    assert parts is not None
    whole = len(parts.message().encode())
    small = len(parts.message(told=parts.pad_version).encode())
    print(f"pushed per gesture with a full pad: {whole} bytes before, {small} after")
    assert whole > 60_000  # the whole pad, as every push carried it
    assert small < 6_000
    assert "<polyline" not in parts.message(told=parts.pad_version)
    assert 'href="#g-hand"' in parts.state  # the gesture itself is in it
    assert f'<i id="pad-kept" hidden data-pad-version="{parts.pad_version}">' in parts.kept
    assert parts.pad_version == Stroke.objects.latest("pk").pk


@pytest.mark.django_db
def test_a_stroke_at_a_nearly_full_pad_is_pushed_alone(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    deal = deal_at(event, 1)
    _fill_the_pad(deal)
    Stroke.objects.filter(pk=Stroke.objects.latest("pk").pk).delete()  # room for one more
    told = Stroke.objects.latest("pk").pk  # the pad as every screen was last pushed it
    me = Player.objects.get(pk=deal.seats[0])
    draw_stroke(
        player=me, kind="blue", points="5,5 25,30 60,80", client_key=key(), device=device_of(me)
    )
    parts = pushed_table_parts(deal.table_id, "en", {told})
    assert parts is not None
    whole = len(parts.message().encode())
    small = len(parts.message(told=told).encode())
    print(f"pushed per stroke at a nearly full pad: {whole} bytes before, {small} after")
    assert whole > 60_000
    assert small < 6_000
    assert parts.message(told=told).count("<polyline") == 1
    assert 'points="5,5 25,30 60,80"' in parts.message(told=told)
    # A screen pushed a pad from before a clear, or never, gets the whole pad.
    assert parts.message(told=None).count("<polyline") == 20
