"""Confirming a round's close: refused only when the moves changed since the page showed
them; the page then shows the new moves, each changed one marked in words, for one more
confirmation. Results that change nobody's move never stop the close."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests import factories
from tests.matching import search
from tournament.models import Round, RoundStatus

pytestmark = pytest.mark.django_db

CHANGED_NOTE = "moves changed since you confirmed."
REFUSED = "Some moves changed while you were looking"


@pytest.fixture
def playing(organizer):
    """12 players at 3 tables, round 1 running, no game yet: the alphabet orders each table."""
    return factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def form_values(page: str) -> dict[str, str]:
    """The close form's hidden fields, as a browser would post them."""
    form = page.split('class="confirm-close panel">')[1].split("</form>")[0]
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
        if name != "csrfmiddlewaretoken"
    }


def marked_lines(page: str) -> dict[str, str]:
    """{player: the words of their "Changed" mark} for each line marked changed."""
    lines = re.findall(r'<li class="[^"]*\bchanged\b[^"]*">(.*?)</li>', page, re.S)
    marks = {}
    for line in lines:
        name = search(r'<bdi class="name">(.*?)</bdi>', line).group(1)
        mark = search(r'<span class="changed-mark">(.*?)</span>', line, re.S).group(1)
        marks[html.unescape(name)] = " ".join(re.sub(r"<[^>]+>", "", mark).split())
    return marks


def test_a_report_that_changes_no_move_does_not_stop_the_confirmation(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    first = factories.seated_names(playing, 2)[0]  # first by the alphabet: already going up
    factories.play_games(playing, {2: [first, first], 3: factories.seated_names(playing, 3)[:1]})
    response = signed_in.post(url("close_round", playing.pk, 1), form_values(page))
    assert response["Location"] == url("event", playing.pk) + "#tables"
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.CLOSED
    assert factories.seats_of(playing, 2)[first] == 3


def test_a_changed_move_is_shown_marked_for_one_more_confirmation(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert CHANGED_NOTE not in page
    names = factories.seated_names(playing, 2)
    factories.report(playing, 2, names[-1])  # the last by the alphabet now leads: up, not down

    refused = signed_in.post(url("close_round", playing.pk, 1), form_values(page))
    assert refused.status_code == 200
    again = refused.content.decode()
    assert REFUSED in again
    assert f"3 {CHANGED_NOTE}" in again
    assert marked_lines(again) == {
        names[0]: "Changed (before: up to table 3)",
        names[2]: "Changed (before: staying at table 2)",
        names[3]: "Changed (before: down to table 1)",
    }
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.OPEN
    # The page updates itself: its live part and the reload without JavaScript keep the marks.
    live = signed_in.get(url("close_round_live", playing.pk, 1)).content.decode()
    assert marked_lines(live) == marked_lines(again)
    assert marked_lines(signed_in.get(url("close_round", playing.pk, 1)).content.decode()) == (
        marked_lines(again)
    )

    response = signed_in.post(url("close_round", playing.pk, 1), form_values(again))
    assert response["Location"] == url("event", playing.pk) + "#tables"
    assert factories.seats_of(playing, 2)[names[-1]] == 3
    assert not any(key.startswith("close-shown:") for key, _ in signed_in.session.items())


def test_the_marks_follow_the_moves_shown_at_the_last_confirmation(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    names = factories.seated_names(playing, 1)  # the lowest table: its last stays there
    factories.report(playing, 1, names[-1])  # up, where names[0] was going
    again = signed_in.post(url("close_round", playing.pk, 1), form_values(page)).content.decode()
    assert set(marked_lines(again)) == {names[0], names[3]}
    factories.report(playing, 1, names[2])
    factories.report(playing, 1, names[2])  # 2 games: up, and names[3] stays
    third = signed_in.post(url("close_round", playing.pk, 1), form_values(again))
    # Marked against the moves of the second confirmation, not the first: names[0]
    # still stays, as the second one showed.
    assert marked_lines(third.content.decode()) == {
        names[2]: "Changed (before: staying at table 1)",
        names[3]: "Changed (before: up to table 2)",
    }


def test_a_form_without_the_shown_moves_is_still_guarded(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    factories.report(playing, 3, factories.seated_names(playing, 3)[-1])
    values = form_values(page)
    for shown in ["", "not a seating", '{"Player 001": [1, 2]}']:  # the last is not the digest's
        response = signed_in.post(url("close_round", playing.pk, 1), {**values, "shown": shown})
        assert REFUSED in response.content.decode()
        assert marked_lines(response.content.decode()) == {}
    response = signed_in.post(url("close_round", playing.pk, 1), {"shown": values["shown"]})
    assert "Check the moves again, then confirm." in response.content.decode()
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.OPEN


def test_the_form_works_without_javascript(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="confirm-close panel">', page)
    assert form.group(1) == url("close_round", playing.pk, 1)
    assert set(form_values(page)) == {"moves", "shown"}
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in page
