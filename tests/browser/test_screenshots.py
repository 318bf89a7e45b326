"""Screenshots of every projector screen at 1920x1080 and 1280x720, checked for fit.

`make screenshots` (SCREENSHOTS=1) writes them to ./screenshots/projector/, which git
ignores, for anyone to look at. The normal suite writes them to a temporary folder and
still checks what a person at the back of the room would notice: nothing scrolls or is
cut off, names are big enough, the clock is huge.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests import factories
from tests.browser.conftest import PROJECTOR
from tournament.models import Event, Phase
from tournament.rounds import advance_phase, reveal_rules, start_debrief

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"1080p": PROJECTOR, "720p": {"width": 1280, "height": 720}}
MIN_NAME_PX_AT_1080P = 28
MIN_CLOCK_PX_AT_1080P = 150

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


SCREENS: dict[str, tuple[Callable, str | None]] = {
    "01-setup": (lambda o: room(o, 72, 12), None),
    "02-study": (phase(Phase.STUDY), None),
    "03-study-time-up": (lambda o: ended(phase(Phase.STUDY)(o)), None),
    "04-practice": (phase(Phase.PRACTICE), None),
    "05-round-12-tables-of-6": (in_round, None),
    "06-round-time-up": (lambda o: ended(in_round(o)), None),
    "07-round-paused": (paused, None),
    "08-round-small-event": (lambda o: in_round(o, 12, 3), None),
    "09-round-500-players": (lambda o: in_round(o, 500, 125), None),
    "10-moves-48-players": (lambda o: after_round(o, 48, 12), None),
    "11-moves-100-players-tables-of-4": (lambda o: after_round(o, 100, 25), None),
    "12-moves-100-players-tables-of-6": (lambda o: after_round(o, 100, 17), None),
    "13-moves-500-players": (lambda o: after_round(o, 500, 125), None),
    "14-final-results": (final, None),
    "15-debrief": (debrief, None),
    "16-rules-revealed": (revealed, None),
    "17-ladder": (lambda o: after_round(o, 72, 12), "ladder"),
}

# Slow to set up; the normal suite checks the same layouts at 100 players.
ONLY_WITH_SCREENSHOTS = {"09-round-500-players", "13-moves-500-players"}


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    if os.environ.get("SCREENSHOTS"):
        folder = Path(settings.BASE_DIR) / "screenshots" / "projector"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path


FIT_REPORT = """() => {
  const root = document.documentElement;
  const board = document.querySelector('.board');
  const boardBox = board && board.getBoundingClientRect();
  const visible = (el) => el.offsetParent !== null;
  const rows = [...document.querySelectorAll('.row')].filter(visible);
  const names = [...document.querySelectorAll('.name')].filter(visible);
  const clock = document.querySelector('.clock');
  return {
    scrolls: root.scrollHeight > innerHeight || root.scrollWidth > innerWidth,
    rowsCutOff: boardBox ? rows.filter((r) => r.getBoundingClientRect().bottom >
                                             boardBox.bottom + 1).length : 0,
    rowsShown: rows.length,
    smallestName: names.length ? Math.min(...names.map(
        (n) => parseFloat(getComputedStyle(n).fontSize))) : null,
    clock: clock ? parseFloat(getComputedStyle(clock).fontSize) : null,
  };
}"""


@pytest.mark.parametrize("name", SCREENS)
def test_projector_screen(name, live_server, new_context, organizer, shots_dir):
    if name in ONLY_WITH_SCREENSHOTS and not os.environ.get("SCREENSHOTS"):
        pytest.skip("500-player screens are taken by `make screenshots`")
    build, view = SCREENS[name]
    event = build(organizer)
    url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    if view:
        url += f"?view={view}"

    for size, viewport in SIZES.items():
        page = new_context(viewport=viewport, reduced_motion="reduce").new_page()
        page.goto(url)
        page.evaluate("document.body.classList.add('is-idle')")  # as after 3 s: tools hidden
        page.wait_for_timeout(300)  # the clock's first tick
        page.screenshot(path=str(shots_dir / f"{name}-{size}.png"))

        fit = page.evaluate(FIT_REPORT)
        assert not fit["scrolls"], f"{name} at {size} scrolls"
        assert fit["rowsCutOff"] == 0, f"{name} at {size}: rows cut off"
        if size == "1080p":
            if fit["smallestName"] is not None:
                assert fit["smallestName"] >= MIN_NAME_PX_AT_1080P, (name, fit)
            if fit["clock"] is not None:
                assert fit["clock"] >= MIN_CLOCK_PX_AT_1080P, (name, fit)
        page.close()


def test_a_wrong_link(live_server, new_context, shots_dir):
    page = new_context(viewport=PROJECTOR).new_page()
    response = page.goto(live_server.url + reverse("projector:screen", args=["wrong"]))

    assert response.status == 404
    page.screenshot(path=str(shots_dir / "18-wrong-link-1080p.png"))
