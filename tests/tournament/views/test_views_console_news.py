"""The console's poll says what arrived since the page's last poll (the poller's
data-news, tournament.views.organizer.console.news): counted, and only once, because the
poller it swaps in carries the new counts."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests import factories
from tests.matching import search
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    """8 players at 2 tables, round 1 running."""
    return factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))


def poller(html_text: str) -> tuple[str, str | None]:
    """The poller's URL and its news (None when it has none)."""
    tag = search(r'<div id="live-poll"[^>]*>', html_text)[0]
    found = re.search(r'data-news="([^"]*)"', tag)
    poll = search(r'hx-get="([^"]+)"', tag)[1]
    return html.unescape(poll), html.unescape(found[1]) if found else None


def names(event, number: int) -> list[str]:
    return sorted(factories.seated_names(event, number))


def test_a_poll_counts_what_arrived_since_the_last_one_and_says_it_once(signed_in, playing):
    poll, news = poller(signed_in.get(reverse("organizer:event", args=[playing.pk])).text)
    assert news is None  # the page itself announces nothing
    factories.report(playing, 1, names(playing, 1)[0])
    factories.report(playing, 2, names(playing, 2)[0])
    factories.report(playing, 2, names(playing, 2)[0])  # game 2 at table 2
    poll, news = poller(signed_in.get(poll).text)
    assert news == "3 new results."

    factories.report(playing, 1, names(playing, 1)[1], phone="b1", game_number=1)
    factories.report(playing, 2, names(playing, 2)[1], phone="b2", game_number=1)
    poll, news = poller(signed_in.get(poll).text)
    assert news == "2 new disputes."  # no result again

    factories.report(playing, 1, names(playing, 1)[0])
    winner = Player.objects.get(event=playing, name=names(playing, 2)[2])
    factories.report(playing, 2, winner, phone="c2", game_number=2)
    poll, news = poller(signed_in.get(poll).text)
    assert news == "1 new result. 1 new dispute."

    # A phone at table 1 that already reported at table 2 this round: held, to check.
    factories.report(playing, 1, names(playing, 1)[0], phone="c2", game_number=2)
    _poll, news = poller(signed_in.get(poll).text)
    assert news == "1 new report to check."


def test_a_poll_from_an_old_page_or_another_round_says_nothing(signed_in, playing):
    factories.report(playing, 1, names(playing, 1)[0])
    live = reverse("organizer:event_live", args=[playing.pk])
    for held in ("", "?heard=nonsense", "?heard=2.0.0.0", "?heard=1.9.9.9"):
        assert poller(signed_in.get(live + held).text)[1] is None, held
