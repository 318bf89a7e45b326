"""An organizer, an observer on a phone and an assistant run one event: the observer's
notes reach the console within a poll and the debrief's timelines, and the projector
only once chosen; the assistant settles a dispute and the log names them; a revoked
co-facilitator is refused. Screenshots of the observer's phone page, the radar and a
debrief timeline go to ./screenshots/cofacilitators/ with SCREENSHOTS=1."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tables.models import Game, GameCorrection, GameStatus
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, pictures, sign_in, snap
from tournament.common.polling import POLL_INTERVAL_SECONDS
from tournament.models import CoFacilitator, DebriefStep, Event, Phase, Round
from tournament.writes.rounds import step_debrief

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    return pictures("cofacilitators", tmp_path)


def invite(page, live_server, event, name: str, role: str) -> str:
    """The organizer invites from the team page; returns the link it shows."""
    page.goto(live_server.url + reverse("organizer:team", args=[event.pk]))
    page.get_by_label("Name").fill(name)
    page.get_by_label(role.capitalize()).check()
    page.get_by_role("button", name="Invite").click()
    invitation = CoFacilitator.objects.get(event=event, name=name)
    link = page.locator(f"#cofac-{invitation.pk} input.invite-url").input_value()
    assert link.startswith(live_server.url)
    return link


def join(context, link: str):
    phone = context.new_page()
    phone.goto(link)
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".role-note")).to_be_visible()
    return phone


def test_organizer_observer_and_assistant(live_server, new_context, organizer, shots_dir, settings):
    # Invitation links start with the address phones reach, never the console's own.
    settings.PUBLIC_URL = live_server.url
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=names, tables=3))
    laptop = new_context(viewport=LAPTOP).new_page()
    sign_in(laptop, live_server, organizer)
    observer_link = invite(laptop, live_server, event, "Sam", "observer")
    assistant_link = invite(laptop, live_server, event, "Noor", "assistant")

    observer = join(new_context(viewport=PHONE, has_touch=True, is_mobile=True), observer_link)
    assistant = join(new_context(viewport=LAPTOP), assistant_link)

    console = live_server.url + reverse("organizer:event", args=[event.pk])
    laptop.goto(console)
    expect(laptop.locator("#radar")).to_be_visible()

    # The observer notes table 2 from the phone; the console shows it within a poll.
    observer.goto(live_server.url + reverse("organizer:notes", args=[event.pk]))
    observer.get_by_role("link", name="2", exact=True).click()
    observer.get_by_label("A few words").fill("Kai drew the trump on a napkin")
    observer.get_by_role("button", name="Gestures or drawing").click()
    expect(observer.locator(".note-list")).to_contain_text("Kai drew the trump on a napkin")
    snap(observer, shots_dir / "observer-phone.png", full_page=True)
    expect(laptop.locator("#notes")).to_contain_text(
        "Kai drew the trump on a napkin", timeout=(POLL_INTERVAL_SECONDS + 2) * 1000
    )

    # The observer cannot change anything: the organizer's controls are not on the page.
    observer.goto(console)
    expect(observer.locator("#phase .controls")).to_have_count(0)
    expect(observer.get_by_role("link", name="Settings")).to_have_count(0)

    # A dispute at table 1: the assistant settles it, and the log names them.
    first, second = factories.seated_players(event, 1)[:2]
    factories.report(event, 1, first, game_number=1)
    factories.report(event, 1, second, game_number=1)
    game = Game.objects.get()
    assistant.goto(live_server.url + reverse("organizer:table", args=[event.pk, 1]))
    assistant.locator("tr.status-disputed").get_by_role("button", name=second.name).click()
    expect(assistant.locator("tr.status-settled")).to_have_count(1)
    game.refresh_from_db()
    assert game.status == GameStatus.SETTLED
    assert GameCorrection.objects.get().changed_by.cofacilitation.name == "Noor"
    laptop.goto(live_server.url + reverse("organizer:corrections", args=[event.pk]))
    expect(laptop.locator("body")).to_contain_text("Noor · assistant")

    # The radar, some minutes into the round: table 3 has been silent.
    Round.objects.filter(event=event).update(started_at=timezone.now() - timedelta(minutes=6))
    laptop.goto(console + "#radar")
    expect(laptop.locator("#radar .radar-list li").first).to_be_visible()
    snap(laptop.locator("#radar"), shots_dir / "radar.png")

    # The debrief: the note is in the console's timeline, not on the projector until chosen.
    event = factories.play_until(Event.objects.get(pk=event.pk), Phase.DEBRIEF, by=organizer)
    step_debrief(event=event, to_step=DebriefStep.CLASHES)
    projector = new_context(viewport=PROJECTOR).new_page()
    projector_url = live_server.url + reverse("projector:screen", args=[event.projector_token])
    projector.goto(projector_url)
    expect(projector.locator("main")).not_to_contain_text("napkin")
    laptop.goto(console + "#notes")
    timeline = laptop.locator("#timeline-2")
    expect(timeline).to_contain_text("Kai drew the trump on a napkin")
    timeline.get_by_role("button", name="Show on the projector").click()
    expect(laptop.locator("#timeline-2")).to_contain_text("On the projector")
    snap(laptop.locator("#notes"), shots_dir / "debrief-timeline-console.png")
    projector.goto(projector_url)
    expect(projector.locator(".observed")).to_contain_text("Kai drew the trump on a napkin")
    snap(projector, shots_dir / "debrief-timeline-projector.png")

    # Revoked: the assistant's next request is refused.
    laptop.goto(live_server.url + reverse("organizer:team", args=[event.pk]))
    noor = CoFacilitator.objects.get(name="Noor")
    laptop.locator(f"#cofac-{noor.pk}").get_by_role("button", name="Revoke").click()
    expect(laptop.locator(f"#cofac-{noor.pk}")).to_contain_text("revoked")
    response = assistant.goto(console)
    assert response.status == 403
    expect(assistant.locator("main")).to_contain_text("revoked")
