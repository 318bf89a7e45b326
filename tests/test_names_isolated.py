"""Every page shows every player's name isolated (issue 23, item 5): inside a ``<bdi>`` that
holds the name alone, so a right-to-left name beside a number (or any name at all) never
reorders its neighbours. Every page the app serves is fetched, in several phases of an
event whose roster mixes scripts, and every place a name shows is checked.

Terms:
    page       the answer to a GET of one of the app's URL patterns (found by walking the URL
               resolver, as tests/test_hostile_input.py does), when it is HTML or SVG.
    isolated   in HTML, the text holding the name sits in a ``<bdi>`` whose text is the name
               alone; in SVG (a chart), the name is wrapped in U+2068 ... U+2069. Where no
               element can go (the document's ``<title>``, an ``<option>``, a ``<textarea>``)
               the text is plain text of its own and is not checked.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tables.writes.corrections import settle_game
from tests import factories
from tests.test_hostile_input import arguments, endpoints
from tournament.models import DebriefStep, Event, Phase

# Right-to-left names with digits beside them, and names of other scripts.
RTL = ["محمد علي", "שרה לוי 2"]
NAMES = [*RTL, "Łukasz Wróbel", "Ана Петрова", "Quentin Xylo", "Zoë Ng", "Bo Chen", "Cy Dale"]
NAMES += ["Di Eze", "Ed Fox"]
UNCHECKED = {"title", "option", "textarea", "script", "style"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr", "path", "circle", "rect", "line", "polyline", "use", "stop"}
FSI, PDI = "\u2068", "\u2069"


class NameFinder(HTMLParser):
    """Each text that holds a checked name, with the elements it sits in."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.names = names
        self.stack: list[str] = []
        self.bare: list[tuple[str, list[str], str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        for name in self.names:
            if name not in data or UNCHECKED & set(self.stack):
                continue
            inside_svg = "svg" in self.stack
            if inside_svg and f"{FSI}{name}{PDI}" in data:
                continue
            if self.stack and self.stack[-1] == "bdi" and data.strip() == name:
                continue
            self.bare.append((name, list(self.stack), data.strip()[:80]))


def bare_names(html: str, names: list[str]) -> list[tuple[str, list[str], str]]:
    finder = NameFinder(names)
    finder.feed(html)
    return finder.bare


def test_the_finder_sees_a_bare_name_and_passes_an_isolated_one():
    page = "<p>Won: <bdi>محمد علي</bdi> 3</p><p>محمد علي 3</p><p><bdi>محمد علي 3</bdi></p>"
    page += "<svg><text>\u2068محمد علي\u2069</text><text>محمد علي</text></svg>"
    page += "<select><option>محمد علي</option></select><title>محمد علي</title>"
    bare = bare_names(page, ["محمد علي"])
    assert [(where[-1], text) for _, where, text in bare] == [
        ("p", "محمد علي 3"),
        ("bdi", "محمد علي 3"),
        ("text", "محمد علي"),
    ]


def event_in(phase: str, organizer):
    event = factories.seated_event(owner=organizer, players=NAMES, tables=2)
    if phase == Phase.SETUP:
        return event
    event = factories.start_rounds(event)
    for number in (1, 2):
        first, second = factories.seated_names(event, number)[:2]
        factories.report(event, number, first)
        disputed = factories.report(event, number, first)
        assert disputed.report.game is not None
        factories.report(event, number, second, game_number=disputed.report.game.number)
    # One dispute settled: the corrections log names the claims and the decision.
    assert disputed.report.game is not None
    settle_game(game=disputed.report.game, winner=disputed.report.winner, by=organizer)
    if phase == Phase.ROUND:
        return event
    return factories.play_until(event, phase, by=organizer)


@pytest.fixture(
    scope="module", params=[Phase.SETUP, Phase.ROUND, Phase.BETWEEN_ROUNDS, Phase.DEBRIEF]
)
def room(request, django_db_setup, django_db_blocker):
    """An organizer and an event in the phase, built once and rolled back at the end."""
    with django_db_blocker.unblock():
        built = transaction.atomic()
        built.__enter__()
        organizer = factories.make_organizer(get_user_model(), "names")
        event = event_in(request.param, organizer)
    yield organizer, event
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        built.__exit__(None, None, None)


def pages(client: Client, event) -> Iterator[tuple[str, object]]:
    """(what, response) for every page of the event: every URL pattern, the projector's
    screen at each debrief step, and a player's own phone page."""
    for name, converters in endpoints():
        event.refresh_from_db()
        yield name, client.get(reverse(name, kwargs=arguments(event, converters)))
    screen = reverse("projector:screen", args=[event.projector_token])
    steps = DebriefStep if event.phase == Phase.DEBRIEF else [None]
    for step in steps:
        if step is not None:
            Event.objects.filter(pk=event.pk).update(debrief_step=step)
        yield f"projector:screen {step}", client.get(screen)
    player = event.players.order_by("pk").first()
    client.post(reverse("phone:player_pick", args=[event.players_token]), {"player": player.pk})
    yield (
        "phone:player_home (picked)",
        client.get(reverse("phone:player_home", args=[event.players_token])),
    )


@pytest.mark.django_db
def test_every_page_shows_every_name_isolated(room):
    organizer, event = room
    client = Client(raise_request_exception=False)  # a POST-only view may fail a GET
    client.force_login(organizer)
    bare: dict[str, list] = {}
    showing = set()
    for what, response in pages(client, event):
        kind = response.get("Content-Type", "")
        if response.status_code != 200 or not ("html" in kind or "svg" in kind):
            continue
        page = response.content.decode()
        if any(each in page for each in NAMES):
            showing.add(what.split(" ")[0])
        if found := bare_names(page, NAMES):
            bare[what] = found
    report = {
        url: sorted({(">".join(where[-3:]), text[:60]) for _, where, text in found})
        for url, found in bare.items()
    }
    assert bare == {}, "\n".join(f"{url}: {found}" for url, found in report.items())
    # The check saw names where the room sees them.
    assert {"organizer:event", "phone:table", "kit:tally_sheets"} <= showing
    if event.phase != Phase.SETUP:
        assert "organizer:corrections" in showing
    if event.phase != Phase.SETUP:
        assert "projector:screen" in showing
