"""static/js/poll.js in a real browser: a page that reached the end stops asking.

(That polls pause while hidden and catch up when shown is in test_projector.py and
test_every_page.py; that every audience polls under the Content-Security-Policy, in
test_content_security_policy.py.)
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import PHONE, count_htmx_requests
from tournament.models import Phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 6_000


def test_a_phone_stops_polling_once_the_debrief_starts(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    page = new_context(viewport=PHONE).new_page()
    page.clock.install()  # time runs as usual, and the test can jump ahead
    page.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))
    statuses: list[int] = []
    page.on(
        "response",
        lambda r: statuses.append(r.status) if r.request.headers.get("hx-request") else None,
    )
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        pass  # it polls while the round is played

    factories.play_until(event, Phase.DEBRIEF, by=organizer)
    expect(page.locator("#live")).to_contain_text(
        "The tournament is over. Thank you for playing!", timeout=LIVE_MS
    )
    assert 286 in statuses  # the server's "stop polling", with the debrief's page
    statuses.clear()
    polls = count_htmx_requests(page)
    page.clock.run_for(5_000)  # two and a half polling intervals, at once
    assert polls() == 0
    assert statuses == []
    assert page.locator("#live").get_attribute("hx-trigger") is None
