"""A move on a screen counts once (issue "Every tap counted once", for cards on screens): a
card played without a connection waits in the page's outbox, says so, and is sent when the
connection is back; an answer lost after the server stored the card is sent again with the
same key and stored once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Play
from tables.writes.screen_play import game_of
from tests import factories
from tests.browser.conftest import PHONE
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 15_000


def turn_and_watcher(new_context, live_server):
    event = factories.start_rounds(screen_event(owner=ensure_organizer()[0]))
    deal = deal_at(event, 1)
    turn = Player.objects.get(pk=game_of(deal).trick.to_play)
    other = Player.objects.get(pk=next(pk for pk in deal.seats if pk != turn.pk))
    pages = []
    for player in (turn, other):
        context = new_context(viewport=PHONE, has_touch=True)
        page = context.new_page()
        page.goto(f"{live_server.url}/t/p/{player.token}/")
        expect(page.locator("#table-state")).to_be_visible()
        pages.append(page)
    return deal, pages


def test_a_card_played_offline_waits_then_counts_once(live_server, new_context):
    deal, (turn, other) = turn_and_watcher(new_context, live_server)
    expect(turn.locator(".your-turn")).to_be_visible(timeout=WAIT)
    card = turn.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    turn.context.set_offline(True)
    card.click()
    expect(turn.locator("#screen-waiting")).to_be_visible(timeout=WAIT)
    assert not Play.objects.filter(deal=deal).exists()
    turn.context.set_offline(False)
    expect(other.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    expect(turn.locator("#screen-waiting")).to_be_hidden(timeout=WAIT)
    assert list(Play.objects.filter(deal=deal).values_list("card", flat=True)) == [code]


def test_an_answer_lost_after_the_card_was_stored_never_doubles_it(live_server, new_context):
    deal, (turn, other) = turn_and_watcher(new_context, live_server)
    expect(turn.locator(".your-turn")).to_be_visible(timeout=WAIT)
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
            return
        route.fetch()  # the server stores the card...
        lost.append(True)
        route.abort()  # ...and its answer never arrives

    turn.route("**/play/", lose_the_first_answer)
    card = turn.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    card.click()
    expect(other.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    expect(turn.locator("#screen-waiting")).to_be_hidden(timeout=WAIT)
    expect(turn.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    assert lost == [True]
    assert Play.objects.filter(deal=deal).count() == 1
