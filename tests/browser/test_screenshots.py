"""Screenshots of every projector screen at 1920x1080 and 1280x720, checked for fit.

`make screenshots` (SCREENSHOTS=1) writes them to ./screenshots/projector/, which git
ignores, for anyone to look at. The normal suite takes no picture and still checks what a
person at the back of the room would notice: nothing scrolls or is cut off, names are big
enough, the clock is huge.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from django.urls import reverse

from tests import factories
from tests.browser.conftest import PROJECTOR, clock_ticked, pictures, snap
from tournament.models import DebriefQuestion, Event, Phase
from tournament.rules.board_layout import rows_height
from tournament.rules.debrief_questions import QUESTION_MAX_LENGTH
from tournament.writes.debrief_bank import edit_question, show_question
from tournament.writes.rounds import advance_phase, reveal_rules, start_debrief

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"1080p": PROJECTOR, "720p": {"width": 1280, "height": 720}}
MIN_NAME_PX_AT_1080P = 28
MIN_CLOCK_PX_AT_1080P = 150
# A debrief question is read from the back of the room: bigger than any name.
MIN_QUESTION_PX_AT_1080P = 70

FIRST = [
    "Ana", "Bartholomew", "Chloé", "Dmitri", "Émilie", "Fatima", "Gunnar", "Hiroshi",
    "Ingrid", "Jean-Baptiste", "Kwame", "Lucía", "Maximiliane", "Noah", "Oluwaseun",
    "Priya", "Quentin", "Rosalind", "Søren", "Thandiwe", "Ulrich", "Valentina",
    "Wojciech", "Xiomara", "Yusuf", "Zoë",
]  # fmt: skip
LAST = [
    "Abara", "van der Berg", "Castellanos", "Dubois", "Eriksson", "Fitzgerald-Moore",
    "García", "Hakimi", "Ivanova", "Johansson", "Kowalczyk", "Lindqvist", "Mbeki",
    "Nakamura", "O'Sullivan", "Papadopoulos", "Quispe", "Rasmussen", "Schwarzenberger",
    "Tanaka", "Uçar", "Vasquez", "Wiśniewski", "Xu", "Yilmaz", "Zimmermann",
]  # fmt: skip


def room_names(count: int) -> list[str]:
    """Real-looking names, long ones included, in a fixed random order."""
    every = [f"{first} {last}" for first, last in itertools.product(FIRST, LAST)]
    return random.Random(3).sample(every, count)


def room(organizer, players: int, tables: int, **fields) -> Event:
    fields.setdefault("name", "Friday workshop · Intercultural week")
    return factories.seated_event(
        owner=organizer, players=room_names(players), tables=tables, **fields
    )


def play(event: Event) -> Event:
    """Report a few games at every table so the standings differ."""
    event.refresh_from_db()
    for number in event.tables.values_list("number", flat=True):
        names = factories.seated_names(event, number)
        for game in range(number % 4 + 1):
            factories.report(event, number, names[(number + game * (game + 1)) % len(names)])
    event.refresh_from_db()
    return event


def in_round(organizer, players=72, tables=12) -> Event:
    return play(factories.start_rounds(room(organizer, players, tables)))


def after_round(organizer, players: int, tables: int) -> Event:
    return factories.close_current_round(in_round(organizer, players, tables), organizer)


LONGEST_NAME = "Oluwaseun Van der Berg-Castellanos Okafor"[:40]  # as long as a name may be


def with_names(event: Event, names_by_table: dict[int, list[str]]) -> Event:
    """Rename the first players seated at these tables (round 1)."""
    for number, names in names_by_table.items():
        for player, name in zip(factories.seated_players(event, number), names, strict=False):
            player.name = name
            player.save(update_fields=["name"])
    return event


def round_with_longest_name(organizer) -> Event:
    event = with_names(room(organizer, 72, 12), {5: [LONGEST_NAME]})
    return play(factories.start_rounds(event))


def moves_of_sixty(organizer) -> Event:
    """15 tables: two Hannahs share table 8, one stays and one goes down."""
    event = room(organizer, 60, 15)
    event = with_names(event, {8: ["Hannah Abara", "Hannah Zeller"], 3: [LONGEST_NAME]})
    event = factories.start_rounds(event)
    others = [name for name in factories.seated_names(event, 8) if "Hannah" not in name]
    for winner in (others[0], others[0], "Hannah Abara", others[1]):
        factories.report(event, 8, winner)
    return factories.close_current_round(event, organizer)


def ended(event: Event) -> Event:
    """The clock of the event's phase has run out."""
    event.refresh_from_db()
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    return event


def paused(organizer) -> Event:
    event = in_round(organizer)
    event.pause_clock()
    event.save_and_bump(["clock_paused_remaining"])
    return event


def paused_at_zero(organizer) -> Event:
    """The organizer pressed Pause after time ran out, in the last of many rounds."""
    event = play(factories.start_rounds(room(organizer, 72, 12, rounds_planned=12)))
    event.end_clock_now()
    event.pause_clock()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
    return event


def phase(name: str) -> Callable:
    def build(organizer) -> Event:
        event = room(organizer, 72, 12)
        while event.phase != name:
            event = advance_phase(event=event)
        return event

    return build


def final(organizer) -> Event:
    event = room(organizer, 72, 12, rounds_planned=2)
    event = factories.close_current_round(play(factories.start_rounds(event)), organizer)
    event = advance_phase(event=event)
    return factories.close_current_round(play(event), organizer)


def debrief(organizer) -> Event:
    return start_debrief(event=final(organizer))


def revealed(organizer) -> Event:
    return reveal_rules(event=debrief(organizer))


def revealed_at(tables: int) -> Callable:
    """The rules of this many tables, revealed after one quick round."""

    def build(organizer) -> Event:
        event = room(organizer, tables * 4, tables, rounds_planned=1)
        event = factories.close_current_round(factories.start_rounds(event), organizer)
        return reveal_rules(event=start_debrief(event=event))

    return build


# The longest question the editor takes, in long words: the worst case for the screen.
LONGEST_QUESTION = (
    "When your table disagreed about who had taken a trick, and nobody could say a word, "
    "what did you do: give in, insist, copy the others, or invent a sign of your own? "
    "Would you do the same at work, with a customer or a colleague? Tell us why."
)
assert len(LONGEST_QUESTION) == QUESTION_MAX_LENGTH


def question_shown(index: int, text: str | None = None) -> Callable:
    """The debrief's question at ``index`` on the projector (its words replaced by text)."""

    def build(organizer) -> Event:
        event = room(organizer, 8, 2, rounds_planned=1)
        event = start_debrief(
            event=factories.close_current_round(factories.start_rounds(event), organizer)
        )
        question = DebriefQuestion.objects.filter(event=event).order_by("position")[index]
        if text:
            question = edit_question(question=question, text=text, stage=question.stage)
        show_question(event=event, question_id=question.pk)
        return event

    return build


SCREENS: dict[str, tuple[Callable, str | None]] = {
    "01-setup": (lambda o: room(o, 72, 12), None),
    "02-study": (phase(Phase.STUDY), None),
    "03-study-time-up": (lambda o: ended(phase(Phase.STUDY)(o)), None),
    "04-practice": (phase(Phase.PRACTICE), None),
    "05-round-12-tables-of-6": (in_round, None),
    "06-round-time-up": (lambda o: ended(in_round(o)), None),
    "07-round-paused": (paused, None),
    "07b-round-paused-at-zero": (paused_at_zero, None),
    "08-round-small-event": (lambda o: in_round(o, 12, 3), None),
    "08b-round-40-letter-name": (round_with_longest_name, None),
    "09-round-500-players": (lambda o: in_round(o, 500, 125), None),
    "10-moves-48-players": (lambda o: after_round(o, 48, 12), None),
    "10b-moves-60-players-two-hannahs": (moves_of_sixty, None),
    "11-moves-100-players-tables-of-4": (lambda o: after_round(o, 100, 25), None),
    "12-moves-100-players-tables-of-6": (lambda o: after_round(o, 100, 17), None),
    "13-moves-500-players": (lambda o: after_round(o, 500, 125), None),
    "14-final-results": (final, None),
    "15-debrief": (debrief, None),
    "15b-debrief-question": (question_shown(2), None),
    "15c-debrief-question-long": (question_shown(16), None),
    "15d-debrief-question-longest": (question_shown(9, LONGEST_QUESTION), None),
    "16-rules-revealed": (revealed, None),
    "16b-rules-2-tables": (revealed_at(2), None),
    "16c-rules-4-tables": (revealed_at(4), None),
    "16d-rules-7-tables": (revealed_at(7), None),
    "16e-rules-30-tables": (revealed_at(30), None),
    "17-ladder": (lambda o: after_round(o, 72, 12), "ladder"),
}


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    return pictures("projector", tmp_path)


FIT_REPORT = """() => {
  const root = document.documentElement;
  const board = document.querySelector('.board');
  const boardBox = board && board.getBoundingClientRect();
  const visible = (el) => el.offsetParent !== null;
  const rows = [...document.querySelectorAll('.row')].filter(visible);
  const names = [...document.querySelectorAll('.name')].filter(visible);
  const clock = document.querySelector('.clock');
  const question = document.querySelector('.question-text');
  const stage = document.querySelector('#stage');
  const inside = (outer) => (el) => {
    const box = el.getBoundingClientRect();
    return box.top >= outer.top - 1 && box.bottom <= outer.bottom + 1 &&
           box.left >= outer.left - 1 && box.right <= outer.right + 1;
  };
  const band = document.querySelector('.band');
  const bandBox = band && band.getBoundingClientRect();
  // Every box in the band that shows must sit inside it (not inline text: its box is the
  // font's whole height, more than the ink of a clock that fills the band).
  const bandParts = band ? [...band.querySelectorAll('*')].filter(
      (el) => el.getClientRects().length && !el.closest('.visually-hidden') &&
              getComputedStyle(el).display !== 'inline') : [];
  const page = document.querySelector('.rules-page.is-current') ||
               document.querySelector('.rules-page');
  const lineTops = (selector) => page ? [...page.querySelectorAll(selector)].map(
      (el) => Math.round(el.getBoundingClientRect().top)) : [];
  const cards = page ? [...page.querySelectorAll('.rule-card')] : [];
  const cardsBox = page && page.getBoundingClientRect();
  // A name cut at its right edge, or spilling out of its row.
  const namesCut = names.filter((name) => {
    const row = name.closest('.row').getBoundingClientRect();
    const box = name.getBoundingClientRect();
    return name.scrollWidth > name.clientWidth || box.bottom > row.bottom + 1 ||
           box.top < row.top - 1;
  }).map((name) => name.textContent);
  // The rem of height the board gives its rows (less the moves' heads over the columns).
  const rem = parseFloat(getComputedStyle(root).fontSize);
  const head = board && parseFloat(getComputedStyle(board).getPropertyValue('--head'));
  return {
    namesCut,
    boardKind: board ? [...board.classList].find((c) => c.startsWith('board-')) : null,
    rowsRem: board ? boardBox.height / rem - (head || 0) : null,
    scrolls: root.scrollHeight > innerHeight || root.scrollWidth > innerWidth,
    rowsCutOff: boardBox ? rows.filter((r) => r.getBoundingClientRect().bottom >
                                             boardBox.bottom + 1).length : 0,
    rowsShown: rows.length,
    smallestName: names.length ? Math.min(...names.map(
        (n) => parseFloat(getComputedStyle(n).fontSize))) : null,
    clock: clock ? parseFloat(getComputedStyle(clock).fontSize) : null,
    question: question ? parseFloat(getComputedStyle(question).fontSize) : null,
    // The stage hides what overflows it, so a question too long would be cut, not scroll.
    questionCut: question ? !inside(stage.getBoundingClientRect())(question) ||
        question.scrollWidth > question.clientWidth : false,
    bandSpills: bandParts.filter((el) => !inside(bandBox)(el)).map((el) => {
        const box = el.getBoundingClientRect();
        return `${el.className || el.tagName} ${Math.round(box.top - bandBox.top)}..` +
               `${Math.round(box.bottom - bandBox.bottom)}`;
    }),
    pausedShown: [...document.querySelectorAll('.paused-note')].filter(visible).length > 0,
    // Cards in one row of the grid have their lines at the same heights.
    trumpLines: new Set(lineTops('.rule-trump')).size,
    cardRows: new Set(cards.map((card) => Math.round(card.getBoundingClientRect().top))).size,
    cardsFill: cards.length ? Math.max(...cards.map((c) => c.getBoundingClientRect().bottom))
        / cardsBox.bottom : null,
    cardsSpill: cards.filter((card) => [...card.children].some(
        (el) => el.getClientRects().length && !el.classList.contains('visually-hidden') &&
                !inside(card.getBoundingClientRect())(el))).length,
  };
}"""


# Every screen, the 500-player boards included (a few seconds each), in the normal suite
# too: only the pictures wait for SCREENSHOTS=1.
@pytest.mark.parametrize("name", SCREENS)
def test_projector_screen(name, live_server, new_context, organizer, shots_dir):
    build, view = SCREENS[name]
    event = build(organizer)
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    if view:
        url += f"?view={view}"

    for size, viewport in SIZES.items():
        page = new_context(viewport=viewport, reduced_motion="reduce").new_page()
        page.goto(url)
        page.evaluate("document.body.classList.add('is-idle')")  # as after 3 s: tools hidden
        clock_ticked(page)
        snap(page, shots_dir / f"{name}-{size}.png")
        check_fit(page, name, size)
        check_rows_room(page, name, size)
        # Every further page of a board that pages through, as the room sees it in turn.
        pages = page.locator(".board-page").count()
        for number in range(2, pages + 1):
            page.evaluate(SHOW_PAGE, number - 1)
            snap(page, shots_dir / f"{name}-{size}-page{number}.png")
            check_fit(page, f"{name} page {number}", size)
            check_rows_room(page, f"{name} page {number}", size)
        page.close()


# As projector.js turns a page, counter included.
SHOW_PAGE = """(index) => {
  const pages = [...document.querySelectorAll('.board-page')];
  pages.forEach((page, at) => page.classList.toggle('is-current', at === index));
  document.querySelector('[data-pager-number]').textContent = String(index + 1);
  document.querySelector('[data-pager-label]').textContent = pages[index].dataset.label;
}"""


def check_fit(page, name: str, size: str) -> None:
    fit = page.evaluate(FIT_REPORT)
    assert fit["namesCut"] == [], f"{name} at {size}: names cut"
    assert not fit["scrolls"], f"{name} at {size} scrolls"
    assert fit["rowsCutOff"] == 0, f"{name} at {size}: rows cut off"
    assert fit["bandSpills"] == [], f"{name} at {size}: spills out of the band"
    assert not fit["questionCut"], f"{name} at {size}: the question is cut off"
    if "paused-at-zero" in name:
        assert not fit["pausedShown"], "at 0:00 the clock shows time up, not Paused"
    if fit["cardRows"]:
        assert fit["trumpLines"] == fit["cardRows"], f"{name}: lines not aligned"
        assert fit["cardsFill"] > 0.97, f"{name} at {size}: cards leave the screen empty"
        assert fit["cardsSpill"] == 0, f"{name} at {size}: words spill out of a card"
    if size == "1080p":
        if fit["smallestName"] is not None:
            assert fit["smallestName"] >= MIN_NAME_PX_AT_1080P, (name, fit)
        if fit["clock"] is not None:
            assert fit["clock"] >= MIN_CLOCK_PX_AT_1080P, (name, fit)
        if fit["question"] is not None:
            assert fit["question"] >= MIN_QUESTION_PX_AT_1080P, (name, fit)


def check_rows_room(page, name: str, size: str) -> None:
    """The board gives its rows at least the height its layout was computed for
    (tournament.rules.board_layout.ROWS_HEIGHT_REM), so its names are as big as planned:
    tests/tournament/rules/test_board_layout.py shows they are 28 px at 1080p from there.
    In English: the other languages' longer titles and legends take more (issue 31)."""
    fit = page.evaluate(FIT_REPORT)
    if fit["boardKind"] is None:
        return
    room = rows_height(fit["boardKind"].removeprefix("board-"))
    # The browser rounds each box to 1/64 px.
    assert fit["rowsRem"] >= room - 0.01, f"{name} at {size}: rows get {fit['rowsRem']:.2f} rem"


def test_a_wrong_link(live_server, new_context, shots_dir):
    page = new_context(viewport=PROJECTOR).new_page()
    response = page.goto(live_server.url + reverse("projector:screen", args=["wrong"]))

    assert response.status == 404
    snap(page, shots_dir / "18-wrong-link-1080p.png")
