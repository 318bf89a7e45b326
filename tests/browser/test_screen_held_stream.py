"""Screens behind a proxy that holds the live channel's events (issue 41): the stream's
headers pass, so the browser believes it open, and not one event comes. A screen counts
its stream as open only once it hears it (static/js/screen.js: a beat or an event), so
here it never does: it polls at the room's pace (static/js/poll.js, every half second),
and each card reaches the table's other screens as a poll brings it, not at the seldom
poll of a pushed page (every ten seconds), which took 6 to 10 s a card. Nothing tells the
player: the table simply keeps up.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tables.writes.screen_play import game_of
from tests.browser.channel_server import channel_server
from tests.screen_factories import deal_at, screen_event, short_hands
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

# ms. A polled screen shows a card within a second (two polls); this leaves room for a
# busy machine and stays far under a pushed page's poll (10 s), which a screen that took
# its silent stream for open would wait for.
WAIT = 3_000


def test_screens_behind_a_proxy_that_holds_the_stream_poll_and_keep_up(
    new_context, settings, monkeypatch
):
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=2)
    event = screen_event(owner=ensure_organizer()[0], players=3, tables=1, round_minutes=30)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    deal = deal_at(event, 1)
    with channel_server(hold_streams=True) as server:
        pages: dict[int, Page] = {}
        for player in event.players.all():
            page = new_context().new_page()
            # The test is about a stream that is there: each screen asks for its own.
            with page.expect_request(lambda asked: asked.url.endswith("/stream/")):
                page.goto(f"{server.url}/t/p/{player.token}/")
            pages[player.pk] = page
        taken = []
        while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
            page = pages[trick.to_play]
            expect(page.locator(".your-turn")).to_be_visible(timeout=WAIT)
            card = page.locator(".hand-cards button.card").first
            code = card.get_attribute("value")
            card.click()
            start = time.monotonic()
            for other in pages.values():
                expect(other.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(
                    timeout=WAIT
                )
            taken.append(time.monotonic() - start)
        for page in pages.values():
            # Never taken for open: it polls at the room's pace, and says nothing.
            expect(page.locator("body[data-pushed]")).to_have_count(0)
            expect(page.locator("#offline")).to_be_hidden()
        print(f"held stream: a card on every screen after {max(taken):.2f} s at most")
        for page in pages.values():
            page.context.close()
