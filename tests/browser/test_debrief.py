"""The debrief in a real browser: the organizer steps the projector through its screens
and its questions from the console, and the projector follows without a reload, naming no
table's rules before the reveal."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests import factories
from tests.browser.conftest import LAPTOP, PROJECTOR, sign_in
from tournament.models import DebriefQuestion, DebriefStep
from tournament.reads.debrief import build_debrief
from tournament.rules.debrief_questions import DEFAULT_BANK, Stage
from tournament.writes.rounds import advance_phase, start_debrief
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS, TABLES, ROUNDS = 12, 3, 3
# The projector polls every 2 s; a step must be on it well within a poll or two.
FOLLOW_MS = 6_000
VARIANT_OF_A_TABLE = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|[♥♦♣♠]|trump:", re.IGNORECASE
)


def played_to_the_debrief(organizer):
    """Three rounds; at table 1 the phones disagree in round 1 and round 3."""
    event = factories.start_rounds(
        factories.seated_event(
            owner=organizer, players=PLAYERS, tables=TABLES, rounds_planned=ROUNDS
        )
    )
    while True:
        names = factories.seated_names(event, 1)
        if event.round_number != 2:
            factories.report(event, 1, names[0], game_number=1)
            factories.report(event, 1, names[1], game_number=1)
        for table in range(1, TABLES + 1):
            factories.report(event, table, factories.seated_names(event, table)[-1])
        event = factories.close_current_round(event, organizer)
        if event.is_last_round:
            return start_debrief(event=event)
        event = advance_phase(event=event)


def show_screen(console, label) -> None:
    """Go to a data screen with the console's jump list."""
    label = str(label)
    console.get_by_label("Go to").select_option(label=label)
    console.get_by_role("button", name="Show on the projector").click()
    expect(console.locator(".debrief-now strong")).to_have_text(label)


def press(console, which: str, shown: str) -> None:
    """Click Next or Back, and wait for the console to say what the projector shows."""
    console.get_by_role("button", name=re.compile(f"^{which}: ")).click()
    expect(console.locator(".debrief-now strong")).to_have_text(shown)


def no_rules_named(projector) -> None:
    text = projector.locator("main").inner_text()
    shown = VARIANT_OF_A_TABLE.search(text)
    assert shown is None, shown.group()


def test_the_console_steps_the_projector_through_the_debrief(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = played_to_the_debrief(organizer)
    data = build_debrief(event)
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    expect(projector.locator("h1")).to_have_text("Debrief")
    no_rules_named(projector)

    show_screen(console, DebriefStep.DISPUTES.label)
    expect(projector.locator("h1")).to_have_text("Where games were disputed", timeout=FOLLOW_MS)
    cells = projector.locator("svg.chart-grid g.cell")
    expect(cells).to_have_count(TABLES * ROUNDS)
    shown = {
        (int(c.get_attribute("data-table")), int(c.get_attribute("data-round"))): int(
            c.get_attribute("data-disputes") or 0
        )
        for c in cells.all()
    }
    assert shown == {key: cell.disputes for key, cell in data.cells.items()}
    assert shown[(1, 1)] == 1
    assert sum(shown.values()) >= 2
    no_rules_named(projector)

    show_screen(console, DebriefStep.CLASHES.label)
    expect(projector.locator("h1")).to_have_text("Which rules met at each table", timeout=FOLLOW_MS)
    expect(projector.locator(".clash-sentence")).to_have_text(data.sentence)
    no_rules_named(projector)

    show_screen(console, DebriefStep.PATHS.label)
    expect(projector.locator("h1")).to_have_text("Every player’s path", timeout=FOLLOW_MS)
    paths = projector.locator("svg.chart-paths g.path")
    expect(paths).to_have_count(PLAYERS)
    xs = projector.evaluate(
        """() => new Set([...document.querySelectorAll('svg.chart-paths polyline')]
            .flatMap(line => line.getAttribute('points').split(' '))
            .map(point => point.split(',')[0])).size"""
    )
    assert xs == ROUNDS
    titles = sorted(
        # Each name between the isolates that keep its direction to itself (U+2068, U+2069).
        t.text_content().strip("\u2068\u2069")
        for t in projector.locator("svg.chart-paths g.path > title").all()
    )
    assert titles == sorted(path.name for path in data.paths)
    no_rules_named(projector)

    show_screen(console, DebriefStep.FLOW.label)
    expect(projector.locator("h1")).to_have_text("Moves between tables", timeout=FOLLOW_MS)
    counts = [int(g.get_attribute("data-count")) for g in projector.locator("g.flow").all()]
    assert sum(counts) == PLAYERS * (ROUNDS - 1)
    no_rules_named(projector)

    show_screen(console, DebriefStep.RESULTS.label)
    expect(projector.locator("h1")).to_have_text("Final results", timeout=FOLLOW_MS)
    no_rules_named(projector)

    show_screen(console, DebriefStep.REVEAL.label)
    expect(projector.locator("h1")).to_have_text("Each table’s rules", timeout=FOLLOW_MS)
    expect(projector.locator(".rule-card")).to_have_count(0)
    no_rules_named(projector)

    console.get_by_label("Reveal one table").select_option("2")
    console.get_by_role("button", name="Reveal this table").click()
    expect(projector.locator(".rule-card")).to_have_count(1, timeout=FOLLOW_MS)
    expect(projector.locator(".rule-card .table-badge")).to_contain_text("2")
    console.get_by_role("button", name="Reveal every table's rules on the projector").click()
    expect(projector.locator(".rule-card")).to_have_count(TABLES, timeout=FOLLOW_MS)
    expect(projector.locator("main")).to_contain_text("Trump: ")


def open_both(live_server, new_context, event, organizer):
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))
    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    # Gone after any reload: the projector must follow by polling alone.
    projector.evaluate("window.stillTheSamePage = true")
    return console, projector


def same_page(projector) -> None:
    assert projector.evaluate("window.stillTheSamePage === true"), "the projector reloaded"


def test_the_console_steps_the_projector_through_the_questions(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = played_to_the_debrief(organizer)
    bank = list(DebriefQuestion.objects.filter(event=event).order_by("position"))
    total = len(bank)
    console, projector = open_both(live_server, new_context, event, organizer)
    question = projector.locator(".question-text")

    # Feelings first: Next from the opening ladder is the first question, before any data.
    press(console, "Next", f"Question 1 of {total}")
    expect(question).to_have_text(bank[0].text, timeout=FOLLOW_MS)
    expect(projector.locator(".question-eyebrow")).to_contain_text("How it felt")
    expect(projector.locator(".question-eyebrow")).to_contain_text(f"Question 1 of {total}")
    expect(projector.locator(".board")).to_have_count(0)
    no_rules_named(projector)

    press(console, "Next", f"Question 2 of {total}")
    expect(question).to_have_text(bank[1].text, timeout=FOLLOW_MS)
    no_rules_named(projector)
    press(console, "Back", f"Question 1 of {total}")
    expect(question).to_have_text(bank[0].text, timeout=FOLLOW_MS)

    # The last question before the data, then Next is the disputes map.
    happened = [q for q in bank if q.stage == Stage.HAPPENED]
    console.get_by_label("Go to").select_option(f"question:{happened[-1].pk}")
    console.get_by_role("button", name="Show on the projector").click()
    number = bank.index(happened[-1]) + 1
    expect(console.locator(".debrief-now strong")).to_have_text(f"Question {number} of {total}")
    expect(question).to_have_text(happened[-1].text, timeout=FOLLOW_MS)
    no_rules_named(projector)
    press(console, "Next", str(DebriefStep.DISPUTES.label))
    expect(projector.locator("h1")).to_have_text("Where games were disputed", timeout=FOLLOW_MS)

    # After the reveal, the talk comes back to real teams and workplaces.
    show_screen(console, DebriefStep.REVEAL.label)
    expect(projector.locator("h1")).to_have_text("Each table’s rules", timeout=FOLLOW_MS)
    no_rules_named(projector)
    real_world = [q for q in bank if q.stage == Stage.REAL_WORLD]
    press(console, "Next", f"Question {bank.index(real_world[0]) + 1} of {total}")
    expect(question).to_have_text(real_world[0].text, timeout=FOLLOW_MS)
    expect(projector.locator(".question-eyebrow")).to_contain_text("Teams, cultures, workplaces")
    no_rules_named(projector)
    same_page(projector)


def test_an_edit_on_the_questions_page_reaches_the_projector(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = played_to_the_debrief(organizer)
    console, projector = open_both(live_server, new_context, event, organizer)
    press(console, "Next", f"Question 1 of {len(DEFAULT_BANK)}")
    first = DebriefQuestion.objects.filter(event=event).order_by("position").first()
    expect(projector.locator(".question-text")).to_have_text(first.text, timeout=FOLLOW_MS)

    console.get_by_role("link", name="Edit the questions").click()
    row = console.locator(f"#question-{first.pk}")
    expect(row.locator(".on-projector")).to_have_text("On the projector")
    row.locator("textarea").fill("In a word or two: how was that?")
    row.get_by_role("button", name="Save").click()
    expect(console.locator(".flash")).to_contain_text("Question saved.")
    expect(projector.locator(".question-text")).to_have_text(
        "In a word or two: how was that?", timeout=FOLLOW_MS
    )
    same_page(projector)
