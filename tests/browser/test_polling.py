"""static/js/poll.js in a real browser: a page that reached the end stops asking.

A page shown again asks for news at once. (That polls pause while hidden is in
test_projector.py; that every audience polls under the Content-Security-Policy, in
test_content_security_policy.py.)
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import PHONE, count_htmx_requests
from tests.browser.screen_checks import PageWatch
from tests.browser.test_walk import urls_for
from tournament.common.polling import POLL_INTERVAL_SECONDS
from tournament.models import Phase
from tournament.writes.finishing import finish_event
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 6_000
VISIBILITY = """(state) => {
    Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_phone_stops_polling_once_the_event_is_finished(live_server, new_context):
    """At the debrief it still polls (the phones show the questions the room answers);
    a finished event changes no more, so its polls end."""
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

    event = factories.play_until(event, Phase.DEBRIEF, by=organizer)
    expect(page.locator("#live")).to_contain_text(
        "The tournament is over. Thank you for playing!", timeout=LIVE_MS
    )
    assert 286 not in statuses  # the debrief's page polls on
    finish_event(event=event)
    with page.expect_response(lambda r: r.status == 286, timeout=LIVE_MS):
        pass  # the server's "stop polling", at the next poll
    page.wait_for_function("() => !document.querySelector('#live[hx-trigger]')")
    statuses.clear()
    polls = count_htmx_requests(page)
    page.clock.run_for(5_000)  # ten polling intervals, at once
    assert polls() == 0
    assert statuses == []
    assert page.locator("#live").get_attribute("hx-trigger") is None


def is_poll(request_or_response) -> bool:
    request = getattr(request_or_response, "request", request_or_response)
    return request.headers.get("hx-request") == "true"


@pytest.mark.parametrize("screen", ["table phone", "projector"])
def test_a_page_shown_again_asks_for_news_at_once(live_server, new_context, screen):
    """Polling pauses while a page is hidden; when it is shown again it catches up
    without waiting for the next tick (the trigger's visibilitychange clause)."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    url, viewport = urls_for(event)[screen]
    page = new_context(viewport=viewport).new_page()
    page.clock.install()  # time runs as usual, and the test can jump ahead
    watch = PageWatch(page)
    page.goto(live_server.url + url)
    with page.expect_response(is_poll, timeout=5_000):
        pass  # it polls
    page.evaluate(VISIBILITY, "hidden")
    # The last poll sent while it was visible has come back.
    expect(page.locator("[data-etag]").first).not_to_have_class(re.compile(r"htmx-request"))
    polls = count_htmx_requests(page)
    # The page's time stops here (a second ahead, hidden): a tick of its own cannot poll
    # once it is shown again, so the one poll counted below is the visibilitychange's.
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    page.clock.run_for(int(POLL_INTERVAL_SECONDS * 4 * 1000))  # four ticks, hidden
    assert polls() == 0
    page.evaluate(VISIBILITY, "visible")
    assert polls() == 1  # sent from the visibilitychange event itself, not a later tick
    assert watch.errors == []
