"""The focus stays at the table when the live channel changes it under a player's hand:
a finger on a card in play becomes that card's vote when the last card is down, and a
vote taken with its trick leaves the focus on the hand (or its heading), never on the
page's body (static/js/screen.js: focusNear)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.writes.screen_play import game_of
from tests.browser.channel_server import channel_server
from tests.browser.test_screen_tables import WAIT, everyone_points, play_next_card
from tests.screen_factories import deal_at, screen_event, short_hands
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = "document.activeElement === document.body ? 'body' : document.activeElement.id"


def test_the_focus_follows_a_card_from_finger_to_vote_and_never_falls_to_the_body(
    new_context, settings, monkeypatch
):
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=2)
    event = screen_event(owner=ensure_organizer()[0], players=3, tables=1, round_minutes=30)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    deal = deal_at(event, 1)
    with channel_server() as server:
        pages: dict[int, Page] = {}
        for player in event.players.all():
            page = new_context().new_page()
            page.goto(f"{server.url}/t/p/{player.token}/")
            expect(page.locator("body[data-pushed]")).to_have_count(1, timeout=WAIT)
            pages[player.pk] = page
        leader, code = play_next_card(pages, deal)
        watcher = pages[leader]
        finger = watcher.locator(f"#gesture-point-{code}")
        finger.focus()
        while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
            play_next_card(pages, deal)
        # The vote opened: the finger's card is now the vote, and holds the focus.
        expect(watcher.locator(f"#point-{code}")).to_be_focused(timeout=WAIT)
        everyone_points(pages, deal, code)
        expect(watcher.locator(".hand-cards button.card").first).to_be_focused(timeout=WAIT)
        assert watcher.evaluate(FOCUSED) != "body"
        for page in pages.values():
            page.context.close()
