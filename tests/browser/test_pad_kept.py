"""A pushed table's state without the whole pad (tournament.serving.live_channel, Terms: pad
kept), in a real browser with the channel played by the test (as
test_screen_channel_client.py): a card's push leaves the pad's strokes on the screen, a
stroke's push brings that stroke alone, and a screen showing another version of the pad
than the push starts from fetches its live part, strokes and all."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.views.screen_pushed import pushed_table_parts
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


def _push(page, event, *, told: int | None) -> int:
    """Push the table's state as the channel does to a screen last told pad ``told``
    (None: never); the pad's version now."""
    table_id = deal_at(event, 1).table_id
    parts = pushed_table_parts(table_id, "en", () if told is None else {told})
    assert parts is not None
    page.evaluate("(html) => window.channel.state(html)", parts.message(told=told))
    return parts.pad_version


def test_a_push_without_the_pad_keeps_the_strokes_and_a_skipped_one_is_fetched(screen):
    event, page = screen
    strokes = page.locator("#pad-strokes polyline")
    _draw(page, event, "10,10 40,40")
    told = _push(page, event, told=None)  # the whole pad
    expect(strokes).to_have_count(1, timeout=WAIT)
    card = play_next(event)
    _push(page, event, told=told)  # a card: the pad did not change
    expect(shows(page, card)).to_be_visible(timeout=WAIT)
    expect(strokes).to_have_count(1)
    expect(page.locator('#pad-strokes polyline[points="10,10 40,40"]')).to_have_count(1)
    # A stroke whose push this screen never got (the channel believes it did), then a
    # card pushed without the pad: the screen shows another pad than the push names, and
    # fetches its live part.
    _draw(page, event, "60,60 90,90")
    card = play_next(event)
    parts = pushed_table_parts(deal_at(event, 1).table_id, "en")
    assert parts is not None
    page.evaluate("(html) => window.channel.state(html)", parts.message(told=parts.pad_version))
    expect(strokes).to_have_count(2, timeout=WAIT)
    expect(shows(page, card)).to_be_visible(timeout=WAIT)


def test_a_stroke_is_pushed_alone_and_added_to_those_shown(screen):
    event, page = screen
    strokes = page.locator("#pad-strokes polyline")
    _draw(page, event, "10,10 40,40")
    told = _push(page, event, told=None)
    expect(strokes).to_have_count(1, timeout=WAIT)
    page.evaluate(
        """() => { window.liveAnswers = 0;
          document.addEventListener("htmx:afterRequest", () => { window.liveAnswers += 1; }); }"""
    )
    _draw(page, event, "60,60 90,90")
    told = _push(page, event, told=told)  # the new stroke alone
    expect(strokes).to_have_count(2, timeout=WAIT)
    expect(page.locator("#pad-strokes")).to_have_attribute("data-pad-version", str(told))
    expect(page.locator("#pad-count")).to_have_text("2 drawings")
    assert page.evaluate("window.liveAnswers") == 0  # nothing fetched: the push was enough
