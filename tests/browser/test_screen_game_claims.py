"""At an event with a scoring clause, in real browsers with the live channel: a game whose
last trick is taken asks every screen at the table who won it, a button per player; the
screens show a disagreement and name nobody, no count of games won moves, and when all
point at one player the game is theirs and the next one is dealt
(tables.writes.game_claims).

Three players at a fewest-wins table, each in their own browser, two cards each (so a
game is two tricks); every trick goes to its leader's card, so one player takes both and
the two others none: the tricks would give the game to a player with none. A phone and
two laptops, as players bring them.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import Game, GameClaim
from tables.writes.screen_play import game_of
from tests.browser.channel_server import channel_server
from tests.browser.conftest import LAPTOP, PHONE, pictures, snap
from tests.browser.test_screen_tables import WAIT, everyone_points, play_trick
from tests.screen_factories import deal_at, scoring_event, short_hands
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fewest_table(new_context, settings, monkeypatch):
    """Round 1's deal at a fewest-wins table of three, and each player's own screen with
    its live channel open, by player id; the browsers close before the server stops."""
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=2)
    event = scoring_event(owner=ensure_organizer()[0], players=3, tables=1, round_minutes=30)
    for _step in range(3):  # study, practice, round 1
        event = advance_phase(event=event)
    with channel_server() as server:
        pages: dict[int, Page] = {}
        for index, player in enumerate(event.players.order_by("name")):
            viewport = PHONE if index == 0 else LAPTOP
            page = new_context(viewport=viewport, has_touch=index == 0).new_page()
            page.goto(f"{server.url}/t/p/{player.token}/")
            expect(page.locator("body[data-pushed]")).to_have_count(1, timeout=WAIT)
            pages[player.pk] = page
        yield deal_at(event, 1), pages
        for page in pages.values():
            page.context.close()


def test_the_table_names_the_winner_and_the_app_never_does(fewest_table, tmp_path):
    deal, pages = fewest_table
    shots = pictures("screens", tmp_path)
    for number in (1, 2):  # two tricks, each to its leader's card
        trick = game_of(deal).trick
        assert trick is not None
        played = play_trick(pages, deal)
        everyone_points(pages, deal, played[trick.leader])
        after = f'#table-state[data-trick="{number + 1}"]' if number == 1 else "form.claim"
        for page in pages.values():  # the trick was taken
            expect(page.locator(after)).to_have_count(1, timeout=WAIT)
    assert game_of(deal).over
    tricks = game_of(deal).tricks
    taker = max(tricks, key=tricks.__getitem__)
    first, second = (player for player in deal.seats if player != taker)
    # Every screen asks, a button per player and none marked; nobody has won a game yet.
    for page in pages.values():
        expect(page.get_by_text("The game is over. Point at who won it:")).to_be_visible(
            timeout=WAIT
        )
        for player in deal.seats:
            expect(page.locator(f"#claim-{player}")).to_have_attribute("aria-pressed", "false")
        expect(page.locator(".games-won")).to_have_text("You have won 0 games this round.")
    # The clash: two point at the player who took the tricks, one at themselves.
    pages[taker].locator(f"#claim-{taker}").click()
    pages[first].locator(f"#claim-{taker}").click()
    pages[second].locator(f"#claim-{second}").click()
    for page in pages.values():
        expect(page.locator(".claim-disagree-note")).to_be_visible(timeout=WAIT)
        expect(page.locator(".games-won")).to_have_text("You have won 0 games this round.")
    expect(pages[second].locator(f"#claim-{second}")).to_have_attribute("aria-pressed", "true")
    for player, page in pages.items():
        snap(page, shots / f"game-claim-in-disagreement-{player}.png", full_page=True)
    assert not Game.objects.exists()
    # The last player comes round: the game is given, and the next one dealt.
    pages[second].locator(f"#claim-{taker}").click()
    for page in pages.values():
        expect(page.locator('.screen-table[data-game="2"]')).to_be_visible(timeout=WAIT)
        expect(page.locator(".claim")).to_have_count(0)
    expect(pages[taker].locator(".games-won")).to_have_text(
        "You have won 1 game this round.", timeout=WAIT
    )
    expect(pages[first].locator(".games-won")).to_have_text("You have won 0 games this round.")
    game = Game.objects.get()
    assert game.winner_id == taker
    assert GameClaim.objects.filter(player_id=second).count() == 2  # a tap counts once
