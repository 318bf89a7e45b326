"""A round with a fewest-tricks-wins table, in a real browser: a time-up tricks entry on
its phone gives the game to the fewest tricks, the phone never says so, and the close
moves players by the games they won there."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import Game
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.test_phones import shown, stop_polling
from tournament.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_time_up_entry_at_a_fewest_wins_table_goes_to_the_fewest_and_moves_them_up(
    live_server, new_context
):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    event.tables.filter(number=1).update(fewest_wins=True)
    event = factories.start_rounds(event)
    low = factories.seated_names(event, 1)
    high = factories.seated_names(event, 2)
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))

    phone.get_by_role("link", name="Time up mid-game? Enter the tricks").click()
    page_text = phone.locator("main").inner_text().lower()
    # Rules are secret after study: the phone only asks for tricks.
    assert "fewest" not in page_text and "most tricks" not in page_text
    for name, tricks in zip(low, (3, 2, 1, 0), strict=True):
        phone.get_by_label(name).fill(str(tricks))
    phone.get_by_role("button", name="Save this game").click()

    expect(shown(phone).get_by_text(f"Game 1 recorded: {low[3]} won.")).to_be_visible()
    game = Game.objects.get(table__number=1, number=1)
    assert (game.winner.name, game.finished) == (low[3], False)
    stop_polling(phone)

    # At the ordinary table the most tricks win; then the round closes.
    factories.report(event, 2, factories.seated_players(event, 2)[0])
    event = factories.close_current_round(event, organizer)

    # The fewest-tricks winner of table 1 goes up; table 2's last player comes down.
    seats = factories.seats_of(event, 2)
    assert seats[low[3]] == 2
    assert seats[high[0]] == 2
    assert sum(1 for name in low if seats[name] == 2) == 1
    assert sum(1 for name in high if seats[name] == 1) == 1
