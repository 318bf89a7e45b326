"""Many whole games at two screen tables, through the live channel, with every screen
checked after every trick: a test for the faults that come from timing (issue 39: a
trick whose pointing all agreed but was never shown taken, a screen showing the other
table's video link after a move, a count of games won that was wrong).

Six players, each in their own browser, at two tables of three; each
hand holds two cards (tests.screen_factories.short_hands), so a game is two tricks and
twenty games fit in a minute. The site is served with its live channel
(tests/browser/channel_server.py): screens follow pushes, as at a real event, and poll
only every ten seconds, so a push that is lost shows as a screen left behind.

After every trick, every screen at the table shows the same deal, the same trick, each
player's tricks, and its own table's video link; at time up each screen's "You have won
N games" counts the game cut off as the close then counts it; between rounds each screen
names its next table and the games won; round 2 is played at the new tables, its video
links theirs; after the last round each screen says the games won in it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tables.models import Deal, Game
from tables.reads.silent_channel import table_video_link
from tables.writes.screen_play import game_of
from tests.browser.channel_server import channel_server
from tests.factories import current_round
from tests.screen_factories import screen_event, short_hands
from tournament.models import Event, Seat
from tournament.writes.rounds import advance_phase, close_round
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

# ms. A push reaches a screen in well under a second, and a screen that does not show the
# table's version its own move was stored at fetches it after 3 s. The wait stays under the
# next poll (10 s while the channel is open), so a push lost to any screen fails the test.
WAIT = 8_000
GAMES_A_ROUND = 10  # both tables together

# Everything a screen shows of its table that every screen there must agree on.
SNAPSHOT = """() => {
  const state = document.getElementById("table-state");
  const link = document.getElementById("video-link");
  const tricks = {};
  if (state) state.querySelectorAll(".seat").forEach((seat) => {
    tricks[seat.dataset.player] = Number(seat.dataset.tricks);
  });
  return {
    deal: state ? Number(state.dataset.deal) : null,
    trick: state ? Number(state.dataset.trick || 0) : null,
    tricks: tricks,
    video: link ? link.getAttribute("href") : "",
  };
}"""


@pytest.fixture
def room(new_context, settings, monkeypatch):
    """The channel's server, and a way to open a player's own screen in a browser of its
    own; the browsers close before the server stops."""
    settings.ALLOWED_HOSTS = ["localhost"]
    short_hands(monkeypatch, cards=2)
    contexts = []
    with channel_server() as server:

        def open_screen(token: str) -> Page:
            context = new_context()
            contexts.append(context)
            page = context.new_page()
            page.goto(f"{server.url}/t/p/{token}/")
            return page

        yield open_screen
        for context in contexts:
            context.close()


def seats(event: Event, round_number: int) -> dict[int, int]:
    """Each player's table id in a round."""
    return dict(
        Seat.objects.filter(round__event=event, round__number=round_number).values_list(
            "player_id", "table_id"
        )
    )


def deal_in_play(table_id: int) -> Deal:
    return Deal.objects.select_related("table").get(table_id=table_id, ended_at__isnull=True)


def wait_for(page: Page, want: dict) -> None:
    """Wait until the screen shows ``want`` (SNAPSHOT's keys); fail with what it shows."""
    try:
        page.wait_for_function(
            f"(want) => JSON.stringify(({SNAPSHOT})()) === JSON.stringify(want)",
            arg=want,
            timeout=WAIT,
        )
    except Exception:  # a time-out: say what differs
        assert page.evaluate(SNAPSHOT) == want
        raise


def expected(event: Event, table_id: int) -> dict:
    """What every screen at the table must show now, read from the database."""
    deal = deal_in_play(table_id)
    game = game_of(deal)
    return {
        "deal": deal.pk,
        "trick": game.trick.number if game.trick else 0,
        "tricks": {str(player): game.tricks[player] for player in game.seats},
        "video": table_video_link(event, deal.table),
    }


def play_trick(event: Event, pages: dict[int, Page], table_id: int) -> None:
    """Each player in turn plays their first card from their screen; then all point at
    the leader's card, and every screen at the table is checked."""
    deal = deal_in_play(table_id)
    while (trick := game_of(deal).trick) is not None and trick.to_play is not None:
        page = pages[trick.to_play]
        turn = f'#table-state[data-deal="{deal.pk}"][data-trick="{trick.number}"]'
        expect(page.locator(f'{turn}[data-to-play="{trick.to_play}"]')).to_have_count(
            1, timeout=WAIT
        )
        card = page.locator(".hand-cards button.card").first
        code = card.get_attribute("value")
        card.click()
        expect(page.locator(f'.trick-card[data-card="{code}"]')).to_have_count(1, timeout=WAIT)
    trick = game_of(deal).trick
    assert trick is not None
    taking = dict(trick.plays)[trick.leader]
    for player in deal.seats:
        pages[player].locator(f"#point-{taking}").click(timeout=WAIT)
    # Taken once the last screen shows the table moved on (its pointing was stored).
    last = pages[deal.seats[-1]]
    moved_on = f'#table-state[data-deal="{deal.pk}"][data-trick="{trick.number}"]'
    expect(last.locator(moved_on)).to_have_count(0, timeout=WAIT)
    want = expected(event, table_id)
    for player in deal.seats:
        wait_for(pages[player], want)


def play_round(event: Event, pages: dict[int, Page], tables: set[int]) -> None:
    """Tricks at each table in turn until the round has GAMES_A_ROUND whole games."""
    round_ = current_round(event)
    while Game.objects.filter(round=round_).count() < GAMES_A_ROUND:
        for table_id in sorted(tables):
            play_trick(event, pages, table_id)


def time_up_and_close(event: Event, pages: dict[int, Page], organizer) -> dict[int, str]:
    """One more trick at one table, time up, then the close; each screen's count at time
    up, by player."""
    tables = sorted(set(seats(event, event.round_number).values()))
    play_trick(event, pages, tables[0])  # a game cut off with a trick taken
    event.refresh_from_db()
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    counts = {}
    for player, page in pages.items():
        expect(page.locator("#live")).to_contain_text("Time is up", timeout=WAIT)
        counts[player] = page.locator("#live").inner_text()
    close_round(round_=current_round(event), by=organizer)
    return counts


def won(round_number: int, event: Event) -> dict[int, int]:
    counted = Game.objects.counted().filter(round__event=event, round__number=round_number)
    wins: dict[int, int] = {}
    for winner in counted.values_list("winner_id", flat=True):
        wins[winner] = wins.get(winner, 0) + 1
    return wins


def games_text(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def test_twenty_games_at_two_tables_every_screen_after_every_trick(room):
    organizer = ensure_organizer()[0]
    event = screen_event(
        owner=organizer,
        players=6,
        tables=2,
        rounds_planned=2,
        round_minutes=30,
        video_pattern="https://meet.example/{event}-{table}",
    )
    pages = {player.pk: room(player.token) for player in event.players.order_by("name")}
    for page in pages.values():  # each screen follows the live channel
        expect(page.locator("body[data-pushed]")).to_have_count(1)
    while event.phase != "round":
        event = advance_phase(event=event)
    first = seats(event, 1)
    for table_id in set(first.values()):
        want = expected(event, table_id)
        for player in (p for p, t in first.items() if t == table_id):
            wait_for(pages[player], want)

    play_round(event, pages, set(first.values()))
    at_time_up = time_up_and_close(event, pages, organizer)
    wins = won(1, event)
    assert sum(wins.values()) == GAMES_A_ROUND + 1  # the game cut off counts
    event.refresh_from_db()
    second = seats(event, 2)
    numbers = dict(Seat.objects.filter(round__number=2).values_list("table_id", "table__number"))
    for player, page in pages.items():
        assert f"You have won {games_text(wins.get(player, 0))}" in at_time_up[player]
        move = page.locator("#live .next-table")
        expect(move).to_contain_text(f"Table {numbers[second[player]]}", timeout=WAIT)
        expect(move).to_contain_text(f"{games_text(wins.get(player, 0))} won")

    event = advance_phase(event=event)
    for table_id in set(second.values()):
        want = expected(event, table_id)
        for player in (p for p, t in second.items() if t == table_id):
            wait_for(pages[player], want)
    play_round(event, pages, set(second.values()))
    at_time_up = time_up_and_close(event, pages, organizer)
    wins = won(2, event)
    assert Game.objects.filter(round__event=event).count() >= 2 * GAMES_A_ROUND
    for player, page in pages.items():
        assert f"You have won {games_text(wins.get(player, 0))}" in at_time_up[player]
        expect(page.get_by_text("That was the last round.")).to_be_visible(timeout=WAIT)
        expect(page.locator("#live")).to_contain_text(f"You won {games_text(wins.get(player, 0))}")
