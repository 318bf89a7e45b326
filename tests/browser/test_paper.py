"""A round typed in from paper tally sheets and closed, keyboard only from the first row
to the close's confirmation: the moves are those the same games reported by phone give.
And the printed tally sheet: every page at its paper's size (A4 and US Letter), none blank;
with SCREENSHOTS=1 its pages and the entry form as pictures for a person to look at."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.models import Game
from tables.rules.tally import shortcuts
from tables.writes.reporting import report_game
from tests import factories
from tests.browser.conftest import LAPTOP, SCREENSHOTS, pictures, sign_in, snap
from tests.browser.pdf_pages import pdf_pages, render_pngs
from tournament.writes.signin import ensure_organizer

PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}

NAMES = [
    "Ana Bell", "Bo Chen", "Cy Dow", "Di Egan", "Ed Fox", "Flo Gray", "Gus Hale", "Hal Ide",
    "Ivy Jones", "Jo King", "Kai Lund", "Lu Moss", "Max Nye", "Nia Orr", "Oz Park", "Pia Quinn",
]  # fmt: skip


def games_for(event) -> dict[int, list]:
    """Each table's games as a list of winners (Player) or a tricks dict (Player → count)
    for one game cut off by the clock; different at every table, so moves differ."""
    games: dict[int, list] = {}
    for number in range(1, 5):
        a, b, c, d = factories.seated_players(event, number)
        tables: list[list] = [[a, b, a, c], [d, d, {a: 1, d: 3, c: 0, b: 2}], [b, c, c], [a]]
        games[number] = tables[number - 1]
    return games


def typed(game, names: list[str]) -> str:
    codes = shortcuts(names)
    if isinstance(game, dict):
        return " ".join(f"{codes[player.name]} {count}" for player, count in game.items())
    return codes[game.name]


def tab_to(page, text: str, *, presses: int = 200) -> None:
    """Press Tab until the focused element says ``text``, as a keyboard user would."""
    for _press in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => document.activeElement?.innerText || ''")
        if text in " ".join(focused.split()):
            return
    raise AssertionError(f"{text!r} cannot be reached with Tab")


def test_a_round_from_paper_by_keyboard_moves_players_as_phones_would(live_server, new_context):
    user, _ = ensure_organizer()
    paper = factories.start_rounds(
        factories.seated_event(owner=user, players=NAMES, tables=4, name="Paper")
    )
    phones = factories.start_rounds(
        factories.seated_event(owner=user, players=NAMES, tables=4, name="Phones")
    )
    assert factories.seats_of(paper, 1) == factories.seats_of(phones, 1)

    # The twin: the same games, reported by phone.
    for number, games in games_for(phones).items():
        for game_number, game in enumerate(games, start=1):
            report_game(
                table=factories.table(phones, number),
                round_number=1,
                client_key=uuid.uuid4().hex,
                game_number=game_number,
                **({"tricks": game} if isinstance(game, dict) else {"winner": game}),
            )
    factories.close_current_round(phones, user)

    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)
    for number, games in games_for(paper).items():
        names = factories.seated_names(paper, number)
        page.goto(live_server.url + reverse("organizer:paper_entry", args=[paper.pk, number, 1]))
        expect(page.locator("#game-1")).to_be_focused()
        for position, game in enumerate(games):
            if position:
                page.keyboard.press("Tab")
            page.keyboard.type(typed(game, names))
        page.keyboard.press("Escape")  # close the names' suggestions, if shown
        page.keyboard.press("Enter")
        expect(
            page.locator(".message", has_text=f"Table {number}, round 1: {len(games)} game")
        ).to_be_visible()

    # Closed from the keyboard too: Tab to the console's link, then to the confirmation.
    page.goto(live_server.url + reverse("organizer:event", args=[paper.pk]))
    tab_to(page, "Check results and close round 1")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Close round 1: check, then confirm")).to_be_visible()
    tab_to(page, "Confirm: close round 1 and seat round 2")
    page.keyboard.press("Enter")
    expect(page.locator(".message", has_text="Round 1 closed")).to_be_visible()

    assert factories.seats_of(paper, 2) == factories.seats_of(phones, 2)
    assert factories.seats_of(paper, 2) != factories.seats_of(paper, 1)


def test_a_bad_row_keeps_the_good_ones_in_the_form(live_server, new_context):
    user, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=user, players=NAMES, tables=4))
    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:paper_entry", args=[event.pk, 1, 1]))
    first = factories.seated_names(event, 1)[0]
    # Typing before the autofocus lands would lose the first keys.
    expect(page.locator("#game-1")).to_be_focused()
    page.keyboard.type(first)
    page.keyboard.press("Tab")
    expect(page.locator("#game-2")).to_be_focused()
    page.keyboard.type("Zed")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was saved: 1 row needs fixing")
    expect(page.locator("#game-1")).to_have_value(first)
    expect(page.locator("#game-2-errors")).to_contain_text("Nobody at this table is “Zed”")


def test_the_tally_sheet_prints_on_a4_and_letter_and_the_entry_form_shows_its_errors(
    live_server, new_context, tmp_path
):
    user, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=user, players=NAMES[:9], tables=2, name="Training room")
    )
    folder = pictures("paper", tmp_path)
    page = new_context(LAPTOP).new_page()
    sign_in(page, live_server, user)

    # A4, then US Letter: the same sheet, on the paper size a US room prints on.
    for paper, (width_mm, height_mm) in PAPERS.items():
        page.goto(
            live_server.url
            + reverse("kit:tally_sheets", args=[event.pk])
            + f"?round=1&paper={paper}"
        )
        pdf = folder / f"tally-{paper}.pdf"
        page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
        printed = pdf_pages(pdf.read_bytes())
        assert printed, f"{paper}: no page printed"
        for number, sheet in enumerate(printed, start=1):
            assert abs(sheet.width_mm - width_mm) < 1, (paper, number)
            assert abs(sheet.height_mm - height_mm) < 1, (paper, number)
            assert sheet.shows_text, f"{paper} page {number} is blank"
        if SCREENSHOTS:
            render_pngs(pdf, folder / f"tally-{paper}", dpi=60)

    names = factories.seated_names(event, 1)
    page.goto(live_server.url + reverse("organizer:paper_entry", args=[event.pk, 1, 1]))
    expect(page.locator("#game-1")).to_be_focused()
    page.keyboard.type(names[0])
    page.keyboard.press("Tab")
    page.keyboard.type("Q")
    page.keyboard.press("Tab")
    page.keyboard.type(names[1].split()[0])
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_be_visible()
    snap(page, folder / "entry-form-1366.png")


ACCENTED = ["Lucía Fernández", "Łukasz Wróbel", "Zoe Adams", "Tomás Ó Súilleabháin"]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_refused_row_takes_the_focus_and_names_fold_their_accents(
    live_server, new_context, javascript
):
    """A good row, an accented name typed by a later word without its accents, and a row
    nobody fits: the page comes back refused with the focus on the bad row (autofocus
    without JavaScript), and saves once the fix is typed there."""
    user, _ = ensure_organizer()
    event = factories.start_rounds(
        factories.seated_event(owner=user, players=ACCENTED, tables=1, paper_only=True)
    )
    page = new_context(LAPTOP, java_script_enabled=javascript).new_page()
    sign_in(page, live_server, user)
    page.goto(live_server.url + reverse("organizer:paper_entry", args=[event.pk, 1, 1]))
    expect(page.locator("#game-1")).to_be_focused()
    page.keyboard.type("lucia")
    page.keyboard.press("Tab")
    page.keyboard.type("fernandez")
    page.keyboard.press("Tab")
    page.keyboard.type("Zed")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was saved: 1 row needs fixing")
    expect(page.locator("#game-3")).to_be_focused()
    expect(page.locator("#game-3")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#game-1")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#game-2")).to_have_value("fernandez")

    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("wrobel")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    expect(page.locator(".message", has_text="Table 1, round 1: 3 games")).to_be_visible()
    winners = Game.objects.filter(table__event=event).order_by("number")
    assert [game.winner.name for game in winners] == [
        "Lucía Fernández",
        "Lucía Fernández",
        "Łukasz Wróbel",
    ]
