"""Every page in every phase, in a real browser: no console error (an htmx syntax error
in a trigger included), no axe-core violation, and polling that catches up on wake.

Terms:
    walk     one event taken through setup, study, practice, a round, the moves between
             rounds, the debrief (before and after the reveal) and the finished event,
             visiting every screen of every audience (console, phones, projector) at
             each step.
    axe      axe-core's accessibility rules, run inside Chromium (axe-playwright-python).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, sign_in
from tournament.models import DebriefStep, Event, Phase
from tournament.writes.debrief_bank import show_question
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import (
    advance_phase,
    close_round,
    reveal_rules,
    reveal_table,
    start_debrief,
    step_debrief,
)
from tournament.writes.signin import ensure_organizer, sign_in_path

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Axe()
# The debrief's further screens change the projector and the console's debrief buttons
# only: the walk visits just those two there.
DEBRIEF_SCREEN = "debrief screen:"


def urls_for(event: Event) -> dict[str, tuple[str, dict]]:
    """Every screen of the event now, with the viewport it is seen on."""
    table = factories.table(event, 1)
    pk = event.pk
    screens = {
        "console": (reverse("organizer:event", args=[pk]), LAPTOP),
        "console table": (reverse("organizer:table", args=[pk, 1]), LAPTOP),
        "corrections": (reverse("organizer:corrections", args=[pk]), LAPTOP),
        "player (console)": (
            reverse("organizer:player", args=[pk, event.players.order_by("pk").first().pk]),
            LAPTOP,
        ),
        "kit": (reverse("kit:event_kit", args=[pk]), LAPTOP),
        "table phone": (reverse("phone:table", args=[table.token]), PHONE),
        "player pick": (reverse("phone:player_home", args=[event.players_token]), PHONE),
        "projector": (reverse("projector:screen", args=[event.projector_token]), PROJECTOR),
        "ladder": (
            reverse("projector:screen", args=[event.projector_token]) + "?view=ladder",
            PROJECTOR,
        ),
    }
    if event.phase == Phase.ROUND:
        screens["close round"] = (reverse("organizer:close_round", args=[pk, 1]), LAPTOP)
        screens["tricks"] = (reverse("phone:tricks", args=[table.token]), PHONE)
        number = event.round_number
        screens["paper entry"] = (reverse("organizer:paper_entry", args=[pk, 1, number]), LAPTOP)
        screens["tally sheets"] = (reverse("kit:tally_sheets", args=[pk]), LAPTOP)
        screens["observer notes"] = (reverse("organizer:notes", args=[pk]), PHONE)
    if event.phase == Phase.DEBRIEF:
        screens["debrief report"] = (reverse("organizer:debrief_report", args=[pk]), LAPTOP)
        ask = "reopen" if event.is_finished else "finish"
        screens[f"{ask} (asks first)"] = (reverse(f"organizer:{ask}", args=[pk]), LAPTOP)
    if event.is_finished:
        screens["events"] = (reverse("organizer:events"), LAPTOP)
        screens["delete"] = (reverse("organizer:event_delete", args=[pk]), LAPTOP)
    if event.phase == Phase.SETUP:
        screens |= {
            "events": (reverse("organizer:events"), LAPTOP),
            "new event": (reverse("organizer:event_new"), LAPTOP),
            "settings": (reverse("organizer:event_settings", args=[pk]), LAPTOP),
            "debrief questions": (reverse("organizer:debrief_questions", args=[pk]), LAPTOP),
            "team": (reverse("organizer:team", args=[pk]), LAPTOP),
            "home": ("/", PHONE),
            # Opening a sign-in link spends nothing, so the walk can look at its page.
            "sign-in link": (sign_in_path(event.owner), LAPTOP),
            "password sign-in": (reverse("organizer:login"), LAPTOP),
            "bad sign-in link": (
                reverse("organizer:sign_in_link", args=["MQ", "no-such-token"]),
                LAPTOP,
            ),
            "bad table link": (reverse("phone:table", args=["no-such-token"]), PHONE),
            "bad projector link": (reverse("projector:screen", args=["no-such-token"]), PROJECTOR),
        }
    return screens


def walk(event: Event, organizer) -> Iterator[str]:
    yield "setup"
    for _ in ("study", "practice", "round"):
        event = advance_phase(event=event)
        yield event.phase
    names = factories.seated_names(event, 1)
    factories.report(event, 1, names[0], key="walk-1")
    factories.report(event, 1, names[1], key="walk-2", game_number=1)  # a dispute
    factories.report(event, 2, factories.seated_names(event, 2)[0], key="walk-3")
    yield "round with a dispute"
    close_round(round_=event.current_round, by=organizer)
    yield "between rounds"
    event = start_debrief(event=event)
    yield "debrief"
    first = event.debrief_questions.order_by("position").first()
    show_question(event=event, question_id=first.pk)
    yield f"{DEBRIEF_SCREEN} a question"
    for screen in (DebriefStep.DISPUTES, DebriefStep.CLASHES, DebriefStep.PATHS, DebriefStep.FLOW):
        event = step_debrief(event=event, to_step=screen)
        yield f"{DEBRIEF_SCREEN} {screen.label}"
    reveal_table(event=event, table_number=1)
    yield f"{DEBRIEF_SCREEN} one table revealed"
    reveal_rules(event=event)
    yield "debrief, rules revealed"
    finish_event(event=event)
    yield "finished"


class PageWatch:
    """Console errors and uncaught exceptions of one page."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        page.on("console", lambda message: self._console(message))
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(message.text)


def axe_violations(page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in results.response["violations"]
    ]


def test_every_page_in_every_phase_is_clean(live_server, new_context):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=9, tables=2, rounds_planned=2)
    contexts = {}
    console = new_context(viewport=LAPTOP)
    sign_in(console.new_page(), live_server, organizer)
    problems: list[str] = []
    seen = 0
    for step in walk(event, organizer):
        event.refresh_from_db()
        for name, (url, viewport) in urls_for(event).items():
            if step.startswith(DEBRIEF_SCREEN) and name not in ("projector", "console"):
                continue
            key = (viewport["width"], name)
            if viewport is LAPTOP:
                context = console
            else:
                context = contexts.setdefault(key, new_context(viewport=viewport))
            page = context.new_page()
            watch = PageWatch(page)
            response = page.goto(live_server.url + url)
            assert response is not None
            page.wait_for_load_state("networkidle")
            seen += 1
            expected = "status of 404" if name.startswith("bad ") else None
            problems += [
                f"{step} · {name}: {error}"
                for error in watch.errors
                if not (expected and expected in error)
            ]
            problems += [f"{step} · {name}: axe {v}" for v in axe_violations(page)]
            page.close()
    assert seen >= 60
    assert problems == [], "\n".join(problems)


def is_poll(request_or_response) -> bool:
    request = getattr(request_or_response, "request", request_or_response)
    return request.headers.get("hx-request") == "true"


@pytest.mark.parametrize("screen", ["table phone", "projector"])
def test_a_page_shown_again_asks_for_news_at_once(live_server, new_context, screen):
    """Polling pauses while a page is hidden; when it is shown again it catches up
    without waiting for the next tick (the trigger's visibilitychange clause)."""
    organizer, _ = ensure_organizer()
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    url, viewport = urls_for(event)[screen]
    page = new_context(viewport=viewport).new_page()
    watch = PageWatch(page)
    page.goto(live_server.url + url)
    # Just after a regular poll the next tick is 2 s away: a request within 1 s is the wake.
    with page.expect_response(is_poll, timeout=5_000):
        pass
    with page.expect_request(is_poll, timeout=1_000):
        page.evaluate(
            """() => {
                Object.defineProperty(document, "visibilityState",
                    {value: "visible", configurable: true});
                document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
    assert watch.errors == []
