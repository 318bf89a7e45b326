"""Before play the console counts the phones that opened their table's page: the count
settles within the time the console says it takes (REACHED_SETTLE_SECONDS), even when the
phones came just after a batch of sightings was written and just after the console's
count was refreshed. The clock is a fake one, stepped as the phones and the console poll."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.writes import sightings
from tests import factories
from tests.matching import search
from tournament.common.phone_ids import signed_phone_id
from tournament.common.polling import POLL_INTERVAL_SECONDS
from tournament.reads.console.reached import REACHED_SETTLE_SECONDS
from tournament.views.organizer import console as console_views

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOTAL = re.compile(r"(\d+) phones? reached the server in the last minute")


class FakeClock:
    """time.monotonic() and time.time() of the sightings' batches and the console's ETag."""

    def __init__(self, now: float) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds  # only the batches' short pauses between chunks


class Console:
    """The organizer's console page and its poll, as static/js/poll.js sends it."""

    def __init__(self, client, event) -> None:
        self.client = client
        self.read(client.get(reverse("organizer:event", args=[event.pk])).content.decode())

    def read(self, html: str) -> None:
        self.url = search(r'id="live-poll"[^>]*hx-get="([^"]+)"', html)[1].replace("&amp;", "&")
        etag = search(r'id="live-poll"[^>]*data-etag="([^"]+)"', html)[1]
        self.etag = etag.replace("&quot;", '"')
        # A poll re-sends the tables' heading only when it changed: the page keeps its own.
        if (total := TOTAL.search(html)) is not None:
            self.total = int(total[1])
        self.html = html

    def poll(self) -> None:
        response = self.client.get(self.url, HTTP_IF_NONE_MATCH=self.etag, **HTMX)
        if response.status_code == 200:
            self.read(response.content.decode())


def test_ten_phones_are_all_counted_within_the_time_the_console_says(
    client, signed_in, organizer, monkeypatch
):
    # The worst moment for the phones to come: the batch before theirs was just written
    # (forget_pending, below), and the console's last count before their batch is written
    # came just after a refresh (1_000_000 is a refresh at any whole number of seconds).
    start = 1_000_000 - sightings.FLUSH_SECONDS + POLL_INTERVAL_SECONDS * 1.5
    clock = FakeClock(start)
    monkeypatch.setattr(sightings, "time", clock)
    monkeypatch.setattr(console_views, "time", clock)
    sightings.forget_pending()
    event = factories.seated_event(owner=organizer, players=20, tables=5)
    tables = [factories.table(event, n) for n in (1, 2, 3, 4, 5)]
    console = Console(signed_in, event)
    assert console.total == 0
    assert f"within {REACHED_SETTLE_SECONDS} seconds of opening the table's page" in console.html

    phones = [(tables[n % 5], f"phone-{n:04d}-abcdefghijkl") for n in range(10)]
    seen_at = None
    for step in range(int((REACHED_SETTLE_SECONDS + 10) / POLL_INTERVAL_SECONDS)):
        clock.now = start + step * POLL_INTERVAL_SECONDS  # each step as poll.js ticks
        for table, phone in phones:
            client.cookies["ft_phone"] = signed_phone_id(phone)
            client.get(reverse("phone:table_live", args=[table.token]), **HTMX)
        console.poll()
        if console.total == 10:
            seen_at = clock.now - start
            break
        assert console.total < 10

    assert seen_at is not None, "the console never counted the ten phones"
    assert seen_at <= REACHED_SETTLE_SECONDS
