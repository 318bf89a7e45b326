"""At a screen table no screen, answer or message ever tells a player that a card is not
allowed: that would reveal that the tables' rules differ. Any card of the hand is taken
in the player's turn, at a table of any variant, and none of the words the screen flow
can show says otherwise, in any of the four languages."""

from __future__ import annotations

import random
import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse

from tables.models import Play, Table
from tables.rules.variants import Suit, Variant
from tables.writes.screen_play import game_of
from tests import factories
from tests.screen_factories import deal_at, key, screen_event
from tournament.models import Player

ROOT = Path(__file__).resolve().parents[2]
# What a rule-judging message would say, in each language the app speaks.
FORBIDDEN = re.compile(
    r"not allowed|isn.t allowed|can(?:no|')t play|may not play|must follow|follow suit|"
    r"illegal|invalid card|wrong card|against the rules|break(?:s|ing)? the rules|"
    r"interdit|pas autoris|pas le droit|fournir|"
    r"no (?:est[aá] )?permitid|prohibid|no puedes jugar|asistir|"
    r"nicht erlaubt|verboten|darfst [^.]*nicht|bedienen",
    re.IGNORECASE,
)
# Everything a player's screen at a screen table is made of.
SCREEN_FLOW = [
    "tables/writes/screen_play.py",
    "tables/writes/screen_organizer.py",
    "tables/reads/screen_play.py",
    "tables/views/screen.py",
    "tournament/serving/live_channel.py",
    "templates/phone/screen.html",
    "templates/phone/_screen_table.html",
]


def _shown_words(path: Path) -> list[str]:
    """What a file can put on a screen: its gettext messages (Python), or its text
    without comments (templates)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return re.findall(r'_\(\s*"((?:[^"\\]|\\.)*)"', text)
    text = re.sub(r"{#.*?#}", "", text, flags=re.DOTALL)
    return [re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.DOTALL)]


def _from_the_screen_flow(entry: polib.POEntry) -> bool:
    return any(name in where for where, _line in entry.occurrences for name in SCREEN_FLOW)


def test_no_word_of_the_screen_flow_judges_a_card_in_any_language():
    english = [words for name in SCREEN_FLOW for words in _shown_words(ROOT / name)]
    assert len(english) > 20  # the scan found the messages it reads
    assert [words for words in english if FORBIDDEN.search(words)] == []
    for language in ("fr", "es", "de"):
        catalogue = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
        for entry in catalogue:
            if any(
                name in occurrence
                for occurrence, _line in entry.occurrences
                for name in SCREEN_FLOW
            ):
                texts = [entry.msgstr, *entry.msgstr_plural.values()]
                assert not any(FORBIDDEN.search(text) for text in texts), entry.msgid


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_card_of_the_hand_is_taken_at_a_table_that_must_beat_the_best_card(
    organizer, client, seed
):
    """A whole game of random cards, at a table whose rules forbid most of them: every
    play is stored, and no answer says a word against any card."""
    event = factories.start_rounds(screen_event(owner=organizer))
    table = Table.objects.get(event=event, number=1)
    table.set_variant(Variant(ace_high=True, trump=Suit.SPADES, must_overtake=True))
    table.save()
    rng = random.Random(seed)
    deal = deal_at(event, 1)
    players = {player.pk: player for player in Player.objects.filter(pk__in=deal.seats)}
    for player in players.values():
        client.get(reverse("phone:screen", args=[player.token]))  # the same device for all
    plays = 0
    while (game := game_of(deal)).trick is not None:
        trick = game.trick
        if trick.to_play is None:
            for player in players.values():
                answer = client.post(
                    reverse("phone:screen_point", args=[player.token]),
                    {"card": trick.plays[0][1], "key": key("screen-point"), "trick": trick.number},
                    headers={"HX-Request": "true"},
                )
                assert not FORBIDDEN.search(answer.content.decode())
            continue
        player = players[trick.to_play]
        card = rng.choice(game.hands[player.pk])
        answer = client.post(
            reverse("phone:screen_play", args=[player.token]),
            {"card": card, "key": key("screen-play")},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 200, answer.content.decode()[:300]
        assert answer["X-Action-Stored"] == "1"
        assert not FORBIDDEN.search(answer.content.decode())
        plays += 1
    assert plays == Play.objects.filter(deal=deal).count() == 28
