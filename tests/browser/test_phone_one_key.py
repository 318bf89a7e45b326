"""A key is one report, on a real phone (static/js/phone.js): two different taps on a game
chosen to contest, made while the phone is offline, go as two reports with two keys, and
neither is lost when the first is stored (the server refuses a key sent again with
another report, tables.writes.reporting)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import GameReport
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.test_phones import POLL_WAIT, stop_polling, winner_button
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

RETRIED = 30_000  # ms: the outbox backs off between tries (2 s, 4 s, 8 s)


def test_two_taps_on_a_contested_game_are_two_reports(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    names = factories.seated_names(event, 1)
    factories.report(event, 1, names[0], game_number=1)  # another phone's report
    table = factories.table(event, 1)
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[table.token]) + "?game=1")
    expect(phone.locator("#back-to-next")).to_be_visible()

    phone.context.set_offline(True)
    expect(phone.locator("#offline")).to_be_visible(timeout=POLL_WAIT)
    winner_button(phone, names[1]).click()
    outbox = phone.locator("#outbox")
    expect(outbox.get_by_text(f"Waiting to send: {names[1]} won game 1")).to_be_visible()
    expect(winner_button(phone, names[2])).to_be_enabled(timeout=POLL_WAIT)
    winner_button(phone, names[2]).click()
    expect(outbox.get_by_text(f"Waiting to send: {names[2]} won game 1")).to_be_visible()
    keys = phone.evaluate(
        "JSON.parse(localStorage.getItem('ft-outbox') || '[]').map((entry) => entry.key)"
    )
    assert len(set(keys)) == 2

    phone.context.set_offline(False)
    expect(outbox.get_by_text(f"Sent: {names[2]} won game 1")).to_be_visible(timeout=RETRIED)
    reported = GameReport.objects.filter(game_number=1).values_list("winner__name", flat=True)
    assert sorted(reported) == sorted(names[:3])
    assert phone.evaluate("JSON.parse(localStorage.getItem('ft-outbox') || '[]')") == []
    stop_polling(phone)
