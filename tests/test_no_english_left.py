"""Every rule sheet and every screen speaks its language: no English is left.

Terms:
    English left  text a reader sees (a text node, or an aria-label, title, placeholder,
                  alt or data-label) that is the same in English and in another language,
                  once the event's own data is taken out: names, numbers, symbols.
    shared word   a word two languages spell alike ("Radar", "Notes"): SHARED lists the
                  few the catalogues use on purpose, so nothing else may match.
    phase screen  what the phones (table and player pages), the projector (both views,
                  and every debrief screen) and the console show in each phase.

Only a message that was never marked for translation, or one built from English pieces,
can leave English on a page whose catalogue is complete (tests/test_catalogues.py).
"""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tables.rules.players_guide import players_guide
from tables.rules.rule_sheets import rule_sheet
from tables.rules.variants import EVERY_VARIANT
from tests import factories
from tournament.models import DebriefStep, Event, Phase

LANGUAGES = ("fr", "es", "de")
HTMX = {"HTTP_HX_REQUEST": "true"}
# Names that are nobody's English, so a name is never taken for a sentence left behind.
NAMES = [
    "Ana", "Bruno", "Chloé", "Dario", "Emil", "Fatou", "Goran", "Hana",
    "Ilse", "Jamal", "Kenji", "Lena", "Mika", "Nour", "Olek", "Pia",
]  # fmt: skip
EVENT_NAME = "Nordwind"
# The words a language spells exactly as English does, used on purpose.
SHARED = {
    "fr": {"Table", "Tables", "table", "tables", "Absent", "Actions", "Corrections", "Phase"}
    | {"Sections", "Notes", "Pause", "Stop", "min"},
    "es": {"min"},
    "de": {"Phase", "Name", "Status", "Pause", "min"},
}
# The product's and the game's names, each language's own name, and the "Abc" of the
# no-writing pictogram.
ALWAYS_SHARED = {"Five Tricks", "Barnga", "English", "Français", "Español", "Deutsch", "Abc"}
URL = re.compile(r"https?://\S+")
WORD = re.compile(r"[A-Za-z]{3,}")


class _Text(HTMLParser):
    """The text a person reads on a page, as fragments."""

    ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "data-label")

    def __init__(self, data: list[str]) -> None:
        super().__init__()
        self.data = [*NAMES, EVENT_NAME, *ALWAYS_SHARED, *data]
        self.fragments: set[str] = set()
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in self.ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self._add(data)

    def _add(self, text: str) -> None:
        text = URL.sub("", " ".join(text.split()))
        for name in self.data:
            text = text.replace(name, "")
        if WORD.search(text):
            self.fragments.add(text)


def fragments(html: str, data: list[str] = ()) -> set[str]:
    """The readable fragments of ``html`` with words in them, ``data`` (and the names,
    the event's name and ALWAYS_SHARED) taken out."""
    parser = _Text(list(data))
    parser.feed(html)
    return parser.fragments


def english_left(english: set[str], other: set[str], language: str) -> set[str]:
    shared = SHARED[language]
    return {
        text
        for text in english & other
        if WORD.search(
            " ".join(word for word in text.split() if word.strip(".,:;()·") not in shared)
        )
    }


def _strings(value) -> list[str]:
    """Every string inside a rule sheet or guide (dataclasses, tuples, strings)."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        # A section's key names it for the templates; nobody reads it.
        fields = [field.name for field in dataclasses.fields(value) if field.name != "key"]
        return [s for name in fields for s in _strings(getattr(value, name))]
    if isinstance(value, list | tuple):
        return [s for item in value for s in _strings(item)]
    return []


def _worded(texts: list[str]) -> list[str]:
    return [text for text in texts if WORD.search(text) and text not in ALWAYS_SHARED]


# --- the printed rules --------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [None, 3, 4, 5, 7])
def test_every_rule_sheet_variant_is_translated_whole(language, players):
    left = []
    for variant in EVERY_VARIANT:
        english = _worded(_strings(rule_sheet(variant, players=players, translate=gettext)))
        with translation.override(language):
            other = set(_strings(rule_sheet(variant, players=players, translate=gettext)))
        left += [f"{variant.code}: {text!r}" for text in english if text in other]
    assert not left, f"English left on {language} rule sheets:\n" + "\n".join(left[:20])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("winner_by_sheet", [False, True])
def test_the_players_guide_is_translated_whole(language, winner_by_sheet):
    def guide():
        return players_guide(
            study_minutes=5,
            practice_minutes=3,
            round_minutes=8,
            translate=gettext,
            winner_by_sheet=winner_by_sheet,
        )

    english = _worded(_strings(guide()))
    with translation.override(language):
        other = set(_strings(guide()))
    assert not [text for text in english if text in other]


# --- the screens, phase by phase ----------------------------------------------------------


def _event_in(phase: str, owner) -> Event:
    event = factories.seated_event(
        owner=owner, players=NAMES, tables=4, rounds_planned=2, name=EVENT_NAME
    )
    if phase in (Phase.ROUND, Phase.BETWEEN_ROUNDS, Phase.DEBRIEF):
        event = factories.start_rounds(event)
        for number in (1, 2, 3, 4):
            seated = factories.table(event, number).seats.filter(round__number=1)
            factories.report(event, number, seated.first().player)
    return factories.play_until(event, phase, by=owner)


def _room_pages(client: Client, event: Event) -> dict[str, str]:
    """What the room sees of ``event`` now: phones, players' page, projector, kit pages."""
    table = event.tables.order_by("number").first()
    players = event.players_token
    projector = reverse("projector:screen", args=[event.projector_token])
    pages = {
        "table page": client.get(reverse("phone:table", args=[table.token])),
        "table live": client.get(reverse("phone:table_live", args=[table.token]), **HTMX),
        "tricks": client.get(reverse("phone:tricks", args=[table.token]), follow=True),
        "player picker": client.get(reverse("phone:player_home", args=[players])),
        "projector": client.get(projector),
        "projector ladder": client.get(projector + "?view=ladder"),
    }
    player = event.players.order_by("name").first()
    client.post(reverse("phone:player_pick", args=[players]), {"player": player.pk})
    pages["player page"] = client.get(reverse("phone:player_home", args=[players]))
    if event.phase == Phase.DEBRIEF:
        for step in DebriefStep:
            Event.objects.filter(pk=event.pk).update(debrief_step=step, rules_revealed=True)
            pages[f"projector {step.name}"] = client.get(projector)
    return {name: response.content.decode() for name, response in pages.items()}


def _kit_pages(client: Client, event: Event) -> str:
    """The printed pages of the kit (its toolbar is the console's)."""
    html = client.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    return html[html.index('<main class="kit-pages">') :]


def _in(language: str, event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(language=language)
    event.refresh_from_db()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "phase",
    [Phase.SETUP, Phase.STUDY, Phase.PRACTICE, Phase.ROUND, Phase.BETWEEN_ROUNDS, Phase.DEBRIEF],
)
def test_every_phase_screen_speaks_the_event_language(organizer, phase):
    event = _event_in(phase, organizer)
    room = Client()
    console = Client()
    console.force_login(organizer)
    console_url = reverse("organizer:event", args=[event.pk])

    def console_in(language: str) -> str:
        return console.get(console_url, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    english = {name: fragments(html) for name, html in _room_pages(room, event).items()}
    english_kit = fragments(_kit_pages(console, event))
    username = [organizer.get_username()]
    english_console = fragments(console_in("en"), username)
    problems = []
    for language in LANGUAGES:
        _in(language, event)
        for name, html in _room_pages(Client(), event).items():
            if "<html" in html:
                assert f'<html lang="{language}">' in html, (language, name)
            left = english_left(english[name], fragments(html), language)
            problems += [f"{language} {phase} {name}: {text!r}" for text in sorted(left)]
        left = english_left(english_kit, fragments(_kit_pages(console, event)), language)
        problems += [f"{language} {phase} kit: {text!r}" for text in sorted(left)]
        left = english_left(english_console, fragments(console_in(language), username), language)
        problems += [f"{language} {phase} console: {text!r}" for text in sorted(left)]
        _in("en", event)
    assert not problems, "English left:\n" + "\n".join(problems)
