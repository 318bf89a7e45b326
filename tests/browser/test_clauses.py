"""A round with a fewest-tricks-wins table, in a real browser: a time-up tricks entry on
its phone gives the game to the fewest tricks, the phone never says so, and the close
moves players by the games they won there."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import Game
from tables.rules.variants import Variant
from tests import factories
from tests.browser.conftest import PHONE, PROJECTOR, pictures, sign_in, snap
from tests.browser.test_phones import shown, stop_polling
from tournament.writes.rounds import reveal_rules, start_debrief
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_time_up_entry_at_a_fewest_wins_table_goes_to_the_fewest_and_moves_them_up(
    live_server, new_context
):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    event.tables.filter(number=1).update(fewest_wins=True)
    event = factories.start_rounds(event)
    low = factories.seated_names(event, 1)
    high = factories.seated_names(event, 2)
    phone = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(live_server.url + reverse("phone:table", args=[factories.table(event, 1).token]))

    phone.get_by_role("link", name="Time up mid-game? Enter the tricks").click()
    page_text = phone.locator("main").inner_text().lower()
    # Rules are secret after study: the phone only asks for tricks.
    assert "fewest" not in page_text
    assert "most tricks" not in page_text
    for name, tricks in zip(low, (3, 2, 1, 0), strict=True):
        phone.get_by_label(name).fill(str(tricks))
    phone.get_by_role("button", name="Save this game").click()

    expect(shown(phone).get_by_text(f"Game 1 recorded: {low[3]} won.")).to_be_visible()
    game = Game.objects.get(table__number=1, number=1)
    assert (game.winner.name, game.finished) == (low[3], False)
    stop_polling(phone)

    # At the ordinary table the most tricks win; then the round closes.
    factories.report(event, 2, factories.seated_players(event, 2)[0])
    event = factories.close_current_round(event, organizer)

    # The fewest-tricks winner of table 1 goes up; table 2's last player comes down.
    seats = factories.seats_of(event, 2)
    assert seats[low[3]] == 2
    assert seats[high[0]] == 2
    assert sum(1 for name in low if seats[name] == 2) == 1
    assert sum(1 for name in high if seats[name] == 1) == 1


# --- screenshots: a rule sheet per new clause, and the reveal of a mixed event ------------

MIXED = (
    "high-hearts-fewest",
    "low-notrump",
    "high-clubs-broken",
    "low-spades-overtake",
    # The longest sheet: trump any time, play higher and fewest wins together.
    "high-diamonds-anytime-overtake-fewest",
)


def _folder(tmp_path) -> Path:
    return pictures("clauses", tmp_path)


def mixed_event(organizer, **fields):
    event = factories.seated_event(owner=organizer, players=20, tables=5, **fields)
    for table, code in zip(event.tables.order_by("number"), MIXED, strict=True):
        table.set_variant(Variant.from_code(code))
        table.save()
    return event


def test_the_rule_sheet_of_each_new_clause(live_server, page, tmp_path):
    organizer, _ = ensure_organizer()
    event = mixed_event(organizer, difference_set="custom", custom_clauses=["fewest"])
    sign_in(page, live_server, organizer)
    folder = _folder(tmp_path)
    for number, code in enumerate(MIXED, start=1):
        page.goto(live_server.url + reverse("kit:event_kit", args=[event.pk]) + f"?table={number}")
        sheet = page.get_by_role("region", name=f"Rule sheet for table {number}")
        expect(sheet).to_be_visible()
        text = sheet.inner_text()
        variant = Variant.from_code(code)
        if variant.fewest_wins:
            assert "The player with the fewest tricks wins the game" in text
        if variant.no_trump:
            assert "There is no trump suit in this game" in text
        if variant.trumps_broken:
            assert "Trumps may not be led until they are broken" in text
        if variant.must_overtake:
            way = "higher" if variant.ace_high else "lower"
            assert f"You must also play {way} if you can" in text
        # The sheet is one printed page: nothing may run past its end.
        spill = sheet.evaluate(
            """(sheet) => { const end = sheet.getBoundingClientRect().bottom;
                 return [...sheet.querySelectorAll('p, td')]
                   .filter(el => el.getBoundingClientRect().bottom > end + 1).length; }"""
        )
        assert spill == 0, f"{code}: {spill} lines run past the sheet"
        snap(sheet, folder / f"rule-sheet-{code}.png")
        # The guide beside it leaves the winner to the sheet at this event.
        guide = page.get_by_role("region", name=f"Players' guide for table {number}")
        assert "The player your rule sheet names" in guide.inner_text()


def test_the_reveal_of_a_mixed_event(live_server, new_context, tmp_path):
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(mixed_event(organizer, rounds_planned=1))
    event = factories.close_current_round(event, organizer)
    event = reveal_rules(event=start_debrief(event=event))
    screen = new_context(viewport=PROJECTOR).new_page()
    screen.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    expect(screen.get_by_text("Fewest tricks wins the game")).to_have_count(2)
    expect(
        screen.get_by_text("No trump: only the suit that was led can win a trick")
    ).to_be_visible()
    snap(screen, _folder(tmp_path) / "reveal-mixed-1080p.png")
    # Nothing scrolls or is cut off.
    overflow = screen.evaluate(
        """() => [...document.querySelectorAll('.rule-card')]
             .filter(card => card.scrollHeight > card.clientHeight + 1)
             .map(card => card.innerText.slice(0, 40))"""
    )
    assert overflow == []
    screen.goto("about:blank")
