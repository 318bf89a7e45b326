"""A pushed table's state without the pad (tables.views.live_channel, Terms: pad kept), in
a real browser with the channel played by the test (as test_screen_channel_client.py): a
card's push leaves the pad's strokes on the screen, and a screen showing another version
of the pad than the push names fetches its live part, strokes and all."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.views.screen import pushed_table_parts
from tables.writes.silent_channel import draw_stroke
from tests.browser.test_screen_channel_client import WAIT, play_next, shows
from tests.browser.test_screen_channel_client import screen as screen
from tests.screen_factories import deal_at, device_of, key
from tournament.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def _draw(page, event, points: str) -> None:
    """Another player at the table draws (the browser holds the screen's own player)."""
    me = int(page.locator("#live").get_attribute("data-me") or 0)
    other = next(seat for seat in deal_at(event, 1).seats if seat != me)
    player = Player.objects.get(pk=other)
    draw_stroke(
        player=player, kind="red", points=points, client_key=key(), device=device_of(player)
    )


def _push(page, event, *, with_pad: bool) -> None:
    parts = pushed_table_parts(deal_at(event, 1).table_id, "en")
    assert parts is not None
    page.evaluate("(html) => window.channel.state(html)", parts.message(with_pad=with_pad))


def test_a_push_without_the_pad_keeps_the_strokes_and_a_skipped_one_is_fetched(screen):
    event, page = screen
    strokes = page.locator("#pad-strokes polyline")
    _draw(page, event, "10,10 40,40")
    _push(page, event, with_pad=True)
    expect(strokes).to_have_count(1, timeout=WAIT)
    card = play_next(event)
    _push(page, event, with_pad=False)  # a card: the pad did not change
    expect(shows(page, card)).to_be_visible(timeout=WAIT)
    expect(strokes).to_have_count(1)
    expect(page.locator('#pad-strokes polyline[points="10,10 40,40"]')).to_have_count(1)
    # A stroke whose push this screen never got, then a card pushed without the pad: the
    # screen shows another pad than the push names, and fetches its live part.
    _draw(page, event, "60,60 90,90")
    card = play_next(event)
    _push(page, event, with_pad=False)
    expect(strokes).to_have_count(2, timeout=WAIT)
    expect(shows(page, card)).to_be_visible(timeout=WAIT)
