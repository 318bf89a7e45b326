"""A screen event in real browsers: ten players at two tables of 5, each in their own
browser context, through study, practice, a whole game played card by card, a trick whose
pointing disagrees and then agrees, time up in mid-game, the close from the console with
the guide's moves, and round 2 with every screen at its new table.

The organizer's phases are driven by the writes (the console's buttons are tested
elsewhere); the close goes through the console's close page, as a facilitator's would.
Under pytest-django's live server there is no live channel (tournament.serving.asgi serves it):
the screens poll, as they do when the channel is down.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import Game, Play, TakenTrick
from tables.writes.screen_play import game_of
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, pictures, sign_in, snap
from tests.screen_factories import deal_at, screen_event
from tournament.models import Player, Seat
from tournament.rules.movement import plan_moves
from tournament.writes.rounds import advance_phase
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms: ten screens polling a live server on two cores


def table_of(page: Page) -> int:
    return int(page.locator("h1 .table-number").inner_text())


def open_screens(new_context, live_server, event) -> dict[int, Page]:
    """Every player's own screen, by player id: phones and laptops, alternately."""
    pages = {}
    for index, player in enumerate(event.players.order_by("name")):
        viewport = PHONE if index % 2 == 0 else LAPTOP
        context = new_context(viewport=viewport, has_touch=index % 2 == 0)
        page = context.new_page()
        page.goto(f"{live_server.url}/t/p/{player.token}/")
        pages[player.pk] = page
    return pages


def play_next_card(pages: dict[int, Page], deal) -> tuple[int, str]:
    """The player whose turn it is plays the first card of their hand, from their screen."""
    game = game_of(deal)
    assert game.trick is not None
    player = game.trick.to_play
    assert player is not None
    page = pages[player]
    # The screen shows this deal and trick (not a page still on the practice's deal).
    shown = f'#table-state[data-deal="{deal.pk}"][data-trick="{game.trick.number}"]'
    expect(page.locator(shown)).to_be_visible(timeout=WAIT)
    expect(page.locator(".your-turn")).to_be_visible(timeout=WAIT)
    card = page.locator(".hand-cards button.card").first
    code = card.get_attribute("value") or ""
    card.click()
    expect(page.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    return player, code


def play_trick(pages: dict[int, Page], deal) -> dict[int, str]:
    played = {}
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        player, code = play_next_card(pages, deal)
        played[player] = code
    return played


def at(page: Page, game: int, trick: int):
    """The screen's table once it shows ``trick`` of ``game``."""
    return page.locator(f'.screen-table[data-game="{game}"][data-trick="{trick}"]')


def everyone_points(
    pages: dict[int, Page], deal, card: str, *, first_elsewhere: int | None = None
) -> None:
    for player in deal.seats:
        page = pages[player]
        button = page.locator(f"#point-{card}")
        expect(button).to_be_visible(timeout=WAIT)
        if player != first_elsewhere:
            button.click()


def test_a_screen_event_from_study_to_round_two(live_server, new_context, tmp_path):
    organizer = ensure_organizer()[0]
    event = screen_event(owner=organizer, players=10, tables=2, round_minutes=30)
    pages = open_screens(new_context, live_server, event)
    shots = pictures("screens", tmp_path)
    home = {seat.player_id: seat.table.number for seat in Seat.objects.filter(round__number=1)}
    for player, page in pages.items():
        expect(page.locator("h1 .table-number")).to_have_text(str(home[player]))

    # Study: each screen shows its own table's rules and a hand to try them with.
    event = advance_phase(event=event)
    some = next(iter(pages.values()))
    expect(some.locator("#rules-title")).to_be_visible(timeout=WAIT)
    expect(some.locator(".hand-cards button.card").first).to_be_visible(timeout=WAIT)
    # Practice: the rules are gone, the cards stay.
    event = advance_phase(event=event)
    expect(some.get_by_text("Practice: games are not scored.")).to_be_visible(timeout=WAIT)
    expect(some.locator("#rules-title")).to_have_count(0)

    # Round 1: a whole game at table 1, card by card.
    event = advance_phase(event=event)
    deal = deal_at(event, 1)
    seats = list(deal.seats)
    first = play_trick(pages, deal)
    leader_card = first[game_of(deal).trick.leader]
    other_card = next(card for player, card in first.items() if card != leader_card)
    # A trick in disagreement: the last player points elsewhere, the table sees it.
    everyone_points(pages, deal, leader_card, first_elsewhere=seats[-1])
    pages[seats[-1]].locator(f"#point-{other_card}").click()
    watcher = pages[seats[0]]
    expect(watcher.locator(".disagree-note")).to_be_visible(timeout=WAIT)
    snap(watcher, shots / "trick-in-disagreement.png", full_page=True)
    # The console watches the table live; the projector shows the round as for any event.
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(f"{live_server.url}/console/{event.pk}/tables/1/")
    expect(console.get_by_text("The players point at different cards.")).to_be_visible()
    expect(console.locator(f"#settle-{other_card}")).to_be_visible()
    snap(console, shots / "console-screen-table.png", full_page=True)
    console.goto(f"{live_server.url}/console/{event.pk}/")
    snap(console, shots / "console-screen-event.png", full_page=True)
    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(f"{live_server.url}/screen/{event.projector_token}/")
    expect(projector.locator("body")).to_contain_text("Round 1")
    snap(projector, shots / "projector-screen-round.png")
    projector.close()
    # ... then changes to agree, and the trick is taken.
    pages[seats[-1]].locator(f"#point-{leader_card}").click()
    expect(at(watcher, 1, 2)).to_be_visible(timeout=WAIT)
    assert TakenTrick.objects.get(deal=deal, number=1).disagreed
    for trick in range(2, 7):
        played = play_trick(pages, deal)
        everyone_points(pages, deal, played[game_of(deal).trick.leader])
        following = at(watcher, 1, trick + 1) if trick < 6 else at(watcher, 2, 1)
        expect(following).to_be_visible(timeout=WAIT)
    game = Game.objects.get(table__number=1)
    assert game.finished
    assert sum(game.tricks.values()) == 6
    assert Play.objects.filter(deal=deal).count() == 28

    # Time up in mid-game at table 2: one trick taken, then the clock runs out.
    deal2 = deal_at(event, 2)
    played = play_trick(pages, deal2)
    everyone_points(pages, deal2, played[game_of(deal2).trick.leader])
    expect(at(pages[deal2.seats[0]], 1, 2)).to_be_visible(timeout=WAIT)
    event.refresh_from_db()
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    for player in deal2.seats:
        expect(pages[player].get_by_text("Time is up: the game in play counts")).to_be_visible(
            timeout=WAIT
        )
        expect(pages[player].locator(".hand-cards")).to_have_count(0)

    # The close, from the console: the moves are the guide's.
    console.goto(f"{live_server.url}/console/{event.pk}/rounds/1/close/")
    console.get_by_role("button", name="Confirm: close round 1 and seat round 2").click()
    expect(console.locator(".message-success")).to_contain_text("Round 1 closed", timeout=WAIT)
    cut_off = Game.objects.get(table__number=2)
    assert not cut_off.finished
    assert sum(cut_off.tricks.values()) == 1
    expected = plan_moves(event.rounds.get(number=1).games_won_by_table())
    names = dict(Player.objects.filter(event=event).values_list("pk", "name"))
    for player, page in pages.items():
        destination = expected[names[player]]
        expect(page.locator(".next-number > span[aria-hidden]:not(.arrow)")).to_have_text(
            str(destination), timeout=WAIT
        )

    # Round 2: every screen at its new table, with a new hand.
    event.refresh_from_db()
    advance_phase(event=event)
    for player, page in pages.items():
        expect(page.locator("h1 .table-number")).to_have_text(
            str(expected[names[player]]), timeout=WAIT
        )
        expect(page.locator(".hand-cards button.card").first).to_be_visible(timeout=WAIT)
    snap(pages[seats[0]], shots / "hand-390.png", full_page=True)
    snap(pages[seats[1]], shots / "hand-1280.png", full_page=True)
    # At 200 % zoom (a phone's 390 px seen as 195, a laptop's 1280 as 640) nothing is
    # cut off sideways, and a hand still plays by keyboard.
    phone = pages[seats[0]]
    for width in (195, 640):
        phone.set_viewport_size({"width": width, "height": 800})
        assert phone.evaluate("document.documentElement.scrollWidth") <= width
        snap(phone, shots / f"hand-200-percent-{width}.png", full_page=True)
    # A hand plays by keyboard: Tab to a card, Enter.
    deal = deal_at(event, 1)
    turn = pages[game_of(deal).trick.to_play]
    expect(turn.locator(".your-turn")).to_be_visible(timeout=WAIT)
    card = turn.locator(".hand-cards button.card").first
    code = card.get_attribute("value")
    card.focus()
    turn.keyboard.press("Enter")
    expect(turn.locator(f'.trick-card[data-card="{code}"]')).to_be_visible(timeout=WAIT)
    assert (
        "of"
        in turn.locator(f'.trick-card[data-card="{code}"] .card > .visually-hidden').inner_text()
    )
