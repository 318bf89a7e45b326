"""A seat changes hands in a real browser only as a person sees it: the player's phone
holds the seat and the hand; their laptop, opening the same link, sees the table without
the hand and "Play on this device", and its press is refused while the phone is in use;
once the phone frees the seat the laptop's press takes it, with the hand, and the phone
says at once, without a reload, that the seat is open on another device.

With SCREENSHOTS=1 both screens are saved at each step under ./screenshots/screen-seat/
(the phone at 390 px, the laptop at 1366x768) to be looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import ScreenSeat
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, pictures, snap
from tests.browser.test_content_security_policy import Watch
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player
from tournament.writes.seating import give_player_new_link
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

# A screen polls every few seconds under the test server (no live channel there).
TOLD_MS = 8_000


def hand_of(page: Page, cards: list[str]):
    return page.locator(", ".join(f"#card-{card}" for card in cards))


def test_a_seat_moves_to_the_laptop_only_when_the_phone_frees_it_and_the_phone_is_told(
    live_server, new_context, tmp_path
):
    organizer, _created = ensure_organizer()
    event = factories.start_rounds(screen_event(owner=organizer))
    me = Player.objects.get(pk=deal_at(event, 1).seats[0])
    cards = deal_at(event, 1).hands_by_player[me.pk]
    url = f"{live_server.url}/t/p/{me.token}/"
    shots = pictures("screen-seat", tmp_path)

    phone = new_context(viewport=PHONE, has_touch=True).new_page()
    phone_watch = Watch(phone)
    phone.goto(url)
    expect(hand_of(phone, cards)).to_have_count(len(cards))  # the first browser holds it
    phone.evaluate("window.stillTheSamePage = true")

    laptop = new_context(viewport=LAPTOP).new_page()
    laptop.goto(url)
    expect(laptop.locator("#seat-elsewhere")).to_be_visible()
    expect(laptop.locator("#take-seat")).to_be_visible()
    expect(hand_of(laptop, cards)).to_have_count(0)
    snap(laptop, shots / "offered-1366.png")

    laptop.locator("#take-seat").click()
    expect(laptop.get_by_text("Your seat is in use on another device")).to_be_visible()
    expect(hand_of(laptop, cards)).to_have_count(0)
    assert ScreenSeat.objects.get(player=me).device != ""
    snap(laptop, shots / "refused-1366.png")

    # The phone agrees: "Play on another device", then "Free this seat".
    phone.get_by_text("Play on another device").click()
    snap(phone, shots / "free-390.png", full_page=True)
    phone.locator("#free-seat").click()
    expect(phone.locator("#take-seat")).to_be_visible()
    expect(hand_of(phone, cards)).to_have_count(0)
    snap(phone, shots / "freed-390.png")

    laptop.locator("#take-seat").click()
    expect(hand_of(laptop, cards)).to_have_count(len(cards))
    expect(laptop.locator("#take-seat")).to_have_count(0)
    snap(laptop, shots / "taken-1366.png")

    # The phone hears of it by itself, without a reload.
    phone.evaluate("window.stillTheSamePage = true")
    expect(phone.locator("#seat-elsewhere")).to_be_visible(timeout=TOLD_MS)
    assert phone.evaluate("window.stillTheSamePage === true"), "the phone reloaded"
    expect(hand_of(phone, cards)).to_have_count(0)
    snap(phone, shots / "told-390.png")
    assert phone_watch.violations() == []


def test_a_laptop_holding_the_seat_tells_its_player_when_the_organizer_moves_it(
    live_server, new_context, tmp_path
):
    """The organizer's new link: the old link's screen shows why it stopped at once."""
    organizer, _created = ensure_organizer()
    event = factories.start_rounds(screen_event(owner=organizer))
    me = Player.objects.get(pk=deal_at(event, 1).seats[1])
    cards = deal_at(event, 1).hands_by_player[me.pk]
    shots = pictures("screen-seat", tmp_path)
    laptop = new_context(viewport=LAPTOP).new_page()
    laptop.goto(f"{live_server.url}/t/p/{me.token}/")
    expect(hand_of(laptop, cards)).to_have_count(len(cards))

    give_player_new_link(player=me)
    expect(hand_of(laptop, cards)).to_have_count(0, timeout=TOLD_MS)
    expect(laptop.get_by_text("This link is no longer valid")).to_be_visible()
    snap(laptop, shots / "old-link-1366.png")
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/t/p/{me.token}/")
    expect(hand_of(phone, cards)).to_have_count(len(cards))
