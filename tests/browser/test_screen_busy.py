"""A card the server was too busy to take (tournament.common.busy: 503, X-Action-Busy)
stays in the screen's outbox, the screen says it waits (not that the connection is
lost), and it goes again by itself with its key: stored once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Play
from tests.browser.test_screen_outbox import WAIT, turn_and_watcher

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_card_answered_busy_waits_and_goes_again_by_itself(live_server, new_context):
    deal, (turn, other) = turn_and_watcher(new_context, live_server)
    expect(turn.locator(".your-turn")).to_be_visible(timeout=WAIT)
    keys = []

    def busy_the_first_time(route):
        keys.append(route.request.post_data)
        if len(keys) > 1:
            route.continue_()
            return
        route.fulfill(
            status=503,
            headers={"X-Action-Busy": "1", "Retry-After": "1", "Content-Type": "text/plain"},
            body="The server is busy",
        )

    turn.route("**/play/", busy_the_first_time)
    card = turn.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    card.click()
    expect(turn.locator("#screen-waiting")).to_be_visible(timeout=WAIT)
    expect(turn.locator("#offline")).to_be_hidden()
    expect(other.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    expect(turn.locator("#screen-waiting")).to_be_hidden(timeout=WAIT)
    assert len(keys) == 2
    assert keys[0] == keys[1]  # the same card with the same key
    assert list(Play.objects.filter(deal=deal).values_list("card", flat=True)) == [code]
