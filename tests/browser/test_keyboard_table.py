"""The console's table page by keyboard alone (page.keyboard only).

Terms:
  tap button   a player's "won a game" button on the table page: the player's name, then
               the games they won
  settled      the swap after a press is done and the focus placed (organizer.js focuses
               once htmx has settled the new page)
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tables.models import Game
from tests import factories
from tests.browser.conftest import LAPTOP, sign_in
from tests.browser.test_keyboard import focus, tab_to
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table_page(live_server, new_context):
    """A signed-in laptop on table 1's page of an event in round 1 (4 players a table)."""
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=8, tables=2))
    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:table", args=[event.pk, 1]))
    expect(page.locator("#table-live .tap-button")).to_have_count(4)
    return page, event


def settled_on(page: Page, name: str, wins: int) -> None:
    """Wait until the focus is on ``name``'s tap button, showing ``wins``, in a settled page."""
    page.wait_for_function(
        """([name, wins]) => {
            const element = document.activeElement;
            return element && element.classList.contains("tap-button")
                && element.querySelector(".name").textContent === name
                && element.querySelector(".wins").textContent === String(wins)
                && !element.closest(".htmx-settling");
        }""",
        arg=[name, wins],
    )


def test_enter_twice_on_the_third_player_adds_two_games_for_that_player(table_page):
    page, event = table_page
    third = page.locator("#table-live .tap-button .name").nth(2).inner_text()
    assert tab_to(page, third)["tag"] == "button"
    page.keyboard.press("Enter")
    settled_on(page, third, 1)
    page.keyboard.press("Enter")
    settled_on(page, third, 2)
    assert focus(page)["text"].startswith(third)
    winners = list(Game.objects.filter(table__event=event).values_list("winner__name", flat=True))
    assert winners == [third, third]
