"""The words the translation review of 2026-12-07 changed, as a player reads them on their
own screen at a screen event, in French, Spanish and German: a trick in disagreement (with a
player gone), a trick the organizer settled, practice, and a move refused for its key.

Terms:
    wanted      a wording the review asked for; the page must say it.
    refused     a wording the review refused (it means something else at a card table, or
                is another screen's term); the page must not say it. The catalogues keep
                them out too (tests/test_catalogue_words.py).
    gone        a player no screen of whom showed up for a minute (tables.reads.screen_play).
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables.models import Deal, ScreenSeat, ScreenSighting
from tables.writes.screen_organizer import settle_trick
from tables.writes.screen_play import game_of, play_card, point_at_card
from tests import factories
from tests.screen_factories import deal_at, device_of, key, play_trick, screen_event
from tournament.common.languages import PHONE_LANGUAGE_COOKIE
from tournament.common.phone_ids import signed_phone_id
from tournament.models import Event, Player
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db

DEVICE = "reviewed-words-phone"  # the phone id of the test's browser
# A German card is named as the rule sheets write it, "Herz-Ass", never "Herz Ass".
GERMAN_SUITS = ("Herz", "Karo", "Pik", "Kreuz")

# (wanted, refused) on the screen of a trick in disagreement, a player at the table gone.
DISAGREEMENT = {
    # montrer reveals a card; absent is the roster's status.
    "fr": (
        [
            "Désignez la carte qui remporte le pli",
            "La table désigne des cartes différentes",
            "la carte qu’il désigne",
            "hors ligne",
        ],
        ["montr", "absent"],
    ),
    # ausente is the roster's status.
    "es": (["Señala la carta que se lleva la baza", "sin conexión"], ["ausente"]),
    # strittig is a disputed game's word; Einigung is what a settled trick lacked.
    "de": (
        ["Zeig auf die Karte, die den Stich gewinnt", "zeigt man auf verschiedene Karten"],
        ["strittig", "einigung"],
    ),
}
# (wanted, refused) once the organizer settled it and the taker led the next trick.
SETTLED = {
    "fr": (["Geste\xa0: désigner une carte (", "hors ligne"], ["montr", "absent"]),
    "es": (["Gesto: señalar el ", "sin conexión"], ["ausente", "decid", "decíd"]),
    "de": (["Geste: auf "], ["strittig", "einigung"]),
}
# (wanted, refused) in practice: the rules are put away, not saved or laid down (the review
# found nothing to change in the French).
PRACTICE = {
    "es": (["Se han retirado las reglas"], ["guardad"]),
    "de": (["Die Regeln sind weggeräumt"], ["weggelegt"]),
}
# A move whose key another player's move holds: it says nothing is "valid".
NOT_VALID = {
    "en": ("This move could not be matched to your screen.", "valid"),
    "fr": ("Ce coup n’a pas pu être rattaché à votre écran.", "valide"),
    "es": ("No se pudo asociar esta jugada a tu pantalla.", "válida"),
    "de": ("Dieser Zug konnte deinem Bildschirm nicht zugeordnet werden.", "gültig"),
}


def phone(language: str) -> Client:
    """The test's browser: it keeps the phone id DEVICE and picked ``language``."""
    client = Client()
    client.cookies["ft_phone"] = signed_phone_id(DEVICE)
    client.cookies[PHONE_LANGUAGE_COOKIE] = language
    return client


def screen_of(player: Player, language: str) -> str:
    """The player's screen in ``language``, on the device that holds their seat."""
    ScreenSeat.objects.filter(player=player).update(device=DEVICE)
    response = phone(language).get(reverse("phone:screen", args=[player.token]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def make_gone(player: Player) -> None:
    ScreenSeat.objects.filter(player=player).update(seen_at=timezone.now() - timedelta(minutes=2))
    ScreenSighting.objects.filter(player=player).delete()


def in_disagreement(event: Event) -> tuple[Deal, dict[int, str]]:
    """Table 1's first trick, every card down: its first two players each point at their
    own card; its last player is gone."""
    deal, cards = play_trick(event, 1)
    for pk in deal.seats[:2]:
        player = Player.objects.get(pk=pk)
        point_at_card(
            player=player, trick=1, card=cards[pk], client_key=key(), device=device_of(player)
        )
    trick = game_of(deal).trick
    assert trick is not None
    assert len(set(trick.pointing.values())) == 2
    make_gone(Player.objects.get(pk=deal.seats[-1]))
    return deal, cards


def check(page: str, wanted: list[str], refused: list[str], language: str) -> None:
    for words in wanted:
        assert words in page, f"{words!r} is not on the screen"
    lowered = page.lower()
    for words in refused:
        assert words not in lowered, f"{words!r} is on the screen"
    if language == "de":  # the cards in the trick, or the last trick's, are named
        assert any(f"{suit}-" in page for suit in GERMAN_SUITS)
        assert not any(f"{suit} " in page for suit in GERMAN_SUITS)


@pytest.fixture
def playing(organizer) -> Event:
    return factories.start_rounds(screen_event(owner=organizer))


@pytest.mark.parametrize("language", DISAGREEMENT)
def test_a_trick_in_disagreement_reads_as_reviewed(playing, language):
    deal, _cards = in_disagreement(playing)
    me = Player.objects.get(pk=deal.seats[0])
    page = screen_of(me, language)
    assert "trick-disagree" in page
    check(page, *DISAGREEMENT[language], language)


@pytest.mark.parametrize("language", SETTLED)
def test_a_trick_the_organizer_settled_reads_as_reviewed(playing, organizer, language):
    deal, cards = in_disagreement(playing)
    taker = Player.objects.get(pk=deal.seats[1])
    settle_trick(event=playing, table_number=1, trick=1, card=cards[taker.pk], by=organizer)
    deal = deal_at(playing, 1)
    lead = game_of(deal).hands[taker.pk][0]
    play_card(player=taker, card=lead, client_key=key(), device=device_of(taker))
    page = screen_of(Player.objects.get(pk=deal.seats[0]), language)
    assert 'class="muted last-taken"' in page
    check(page, *SETTLED[language], language)


@pytest.mark.parametrize("language", PRACTICE)
def test_practice_reads_as_reviewed(organizer, language):
    event = advance_phase(event=advance_phase(event=screen_event(owner=organizer)))
    me = Player.objects.get(pk=deal_at(event, 1).seats[0])
    check(screen_of(me, language), *PRACTICE[language], language)


@pytest.mark.parametrize("language", NOT_VALID)
def test_a_move_refused_for_its_key_says_nothing_is_valid(playing, language):
    deal = deal_at(playing, 1)
    first = Player.objects.get(pk=game_of(deal).trick.to_play)
    card = deal.hands_by_player[first.pk][0]
    play_card(player=first, card=card, client_key="taken-key-123456", device=device_of(first))
    other = Player.objects.get(pk=deal.seats[2])
    screen_of(other, language)  # the browser holds the other player's seat
    answer = phone(language).post(
        reverse("phone:screen_play", args=[other.token]),
        {"card": deal.hands_by_player[other.pk][0], "key": "taken-key-123456"},
        headers={"HX-Request": "true"},
    )
    assert answer["X-Action-Refused"] == "1"
    said, refused = NOT_VALID[language]
    text = html.unescape(answer.content.decode())
    assert said in text
    assert refused not in text.lower()
