"""The focus stays at the table when the live channel changes it under a player's hand:
a finger on a card in play becomes that card's vote when the last card is down, and a
vote taken with its trick leaves the focus on the hand (or its heading), never on the
page's body (static/js/screen.js: focusNear)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import Pointing, ScreenSeat
from tables.writes.screen_play import game_of, point_at_card
from tests.browser.channel_server import channel_server
from tests.browser.test_screen_tables import WAIT, everyone_points, play_next_card
from tests.screen_factories import deal_at, screen_event, short_hands
from tournament.models import Player
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = "document.activeElement === document.body ? 'body' : document.activeElement.id"


@pytest.fixture
def table_of_three(new_context, settings, monkeypatch):
    """Round 1's deal at a table of three, and each player's own screen with its live
    channel open, by player id; the browsers close before the server stops."""
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=2)
    event = screen_event(owner=ensure_organizer()[0], players=3, tables=1, round_minutes=30)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    with channel_server() as server:
        pages: dict[int, Page] = {}
        for player in event.players.all():
            page = new_context().new_page()
            page.goto(f"{server.url}/t/p/{player.token}/")
            expect(page.locator("body[data-pushed]")).to_have_count(1, timeout=WAIT)
            pages[player.pk] = page
        yield deal_at(event, 1), pages
        for page in pages.values():
            page.context.close()


def test_the_focus_follows_a_card_from_finger_to_vote_and_never_falls_to_the_body(
    table_of_three,
):
    deal, pages = table_of_three
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


def test_a_push_that_lands_while_a_vote_is_pressed_waits_and_the_vote_counts(table_of_three):
    """The swap would cut the press in two (mouse down on the old card, up on the new one)
    and the browser would send no click: the tap the player made would count for nothing."""
    deal, pages = table_of_three
    leader, code = play_next_card(pages, deal)
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        play_next_card(pages, deal)
    voter, other = (p for p in deal.seats if p != leader)
    page = pages[voter]
    vote = page.locator(f"#point-{code}")
    expect(vote).to_be_visible(timeout=WAIT)
    version = page.locator("#table-state").get_attribute("data-version")
    box = vote.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Another player's vote changes the table while the press is down.
    holder = ScreenSeat.objects.get(player_id=other).device  # that player's browser
    point_at_card(
        player=Player.objects.get(pk=other),
        trick=trick.number,
        card=code,
        client_key="other-vote",
        device=holder,
    )
    expect(pages[leader].locator("#table-state")).not_to_have_attribute(
        "data-version", version or "", timeout=WAIT
    )  # the push reached the table: not yet under the press
    assert page.locator("#table-state").get_attribute("data-version") == version
    page.mouse.up()
    expect(page.locator("#table-state")).not_to_have_attribute(
        "data-version", version or "", timeout=WAIT
    )
    # The click went through: the vote is sent, stored, and shown as this screen's.
    expect(page.locator(f"#point-{code}")).to_have_attribute("aria-pressed", "true", timeout=WAIT)
    assert Pointing.objects.filter(player_id=voter, card=code).count() == 1
