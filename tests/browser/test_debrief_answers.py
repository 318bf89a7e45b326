"""The room answers the debrief's questions from its phones, in real browsers: six phones
answer words, the scale and a round, one changes its answer, the projector counts and
draws the cloud, the organizer hides a word and closes a question, and the printable
report shows the result.

With SCREENSHOTS=1 (`make screenshots`) its pictures go to ./screenshots/debrief/: the
phone's question at 390 px, the word cloud and the round chart at 1920x1080, the report's
answers. Without it the same checks run and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.writes.debrief_answers import answer_question
from tests import factories
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR, pictures, sign_in, snap
from tournament.models import DebriefAnswer, DebriefQuestion
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_bank import show_question
from tournament.writes.signin import ensure_organizer

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_MS = 10_000
WORDS = ["lost", "curious", "Lost", "tired", "lost", "amused"]


@pytest.fixture
def shots_dir(tmp_path) -> Path:
    return pictures("debrief", tmp_path)


def show(event, kind: str) -> DebriefQuestion:
    """The projector moves to the default bank's question of ``kind`` (as the console's
    jump list does)."""
    question = DebriefQuestion.objects.get(event=event, answer_kind=kind)
    show_question(event=event, question_id=question.pk)
    return question


def test_six_phones_answer_three_kinds_and_the_projector_and_report_follow(
    live_server, new_context, shots_dir
):
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=12, tables=3, rounds_planned=2)
    event = factories.play_until(event, "debrief", by=organizer)
    words = show(event, AnswerKind.WORDS)

    phones = []
    for index in range(6):
        phone = new_context(viewport=PHONE).new_page()
        token = factories.table(event, 1 + index % 3).token
        phone.goto(live_server.url + reverse("phone:table", args=[token]))
        phones.append(phone)
    projector = new_context(viewport=PROJECTOR).new_page()
    projector.goto(live_server.url + reverse("projector:screen", args=[event.projector_token]))
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))

    # Words: every phone sends one; the first changes its mind.
    for phone, word in zip(phones, WORDS, strict=True):
        expect(phone.locator("#answer-question")).to_have_text(words.text)
        phone.get_by_label("A word or a few").fill(word)
        phone.get_by_role("button", name="Send my answer").click()
        expect(phone.locator("#my-answer")).to_contain_text(word)
        expect(phone.locator("#announce")).to_contain_text("your answer is in")
    snap(phones[0], shots_dir / "phone-words-390.png", full_page=True)
    phones[0].get_by_label("A word or a few").fill("hopeful")
    phones[0].get_by_role("button", name="Change my answer").click()
    expect(phones[0].locator("#my-answer")).to_contain_text("hopeful")
    expect(phones[0].get_by_role("button", name="Change my answer")).to_be_focused()
    assert DebriefAnswer.objects.filter(question=words).count() == 6

    expect(projector.locator("#answer-count")).to_have_text("6 answers", timeout=LIVE_MS)
    expect(projector.locator("#answers-chart")).to_have_count(0)

    # The organizer reveals the answers, then hides a word: the cloud loses it.
    console.reload()
    console.get_by_role("button", name="Show the answers").click()
    cloud = projector.locator("#answers-chart svg")
    expect(cloud).to_contain_text("tired", timeout=LIVE_MS)
    expect(cloud).to_contain_text("hopeful")
    console.get_by_role("button", name="Hide “tired” from the projector").click()
    expect(cloud).not_to_contain_text("tired", timeout=LIVE_MS)
    expect(cloud).to_contain_text("Lost⁩ (2)")
    snap(projector, shots_dir / "projector-word-cloud-1920x1080.png")

    # The scale: big buttons with faces.
    show(event, AnswerKind.SCALE)
    for index, phone in enumerate(phones):
        button = phone.get_by_role("button", name=f"{1 + index % 5}:", exact=False)
        expect(button.first).to_be_visible(timeout=LIVE_MS)
        button.first.click()
        expect(button.first).to_have_attribute("aria-pressed", "true")
    snap(phones[1], shots_dir / "phone-scale-390.png", full_page=True)
    expect(projector.locator("#answer-count")).to_have_text("6 answers", timeout=LIVE_MS)

    # Rounds, beside the first disputes; then the organizer closes the question.
    rounds = show(event, AnswerKind.ROUNDS)
    for index, phone in enumerate(phones):
        button = phone.get_by_role("button", name=f"Round {1 + index % 2}", exact=True)
        expect(button).to_be_visible(timeout=LIVE_MS)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
    snap(phones[2], shots_dir / "phone-rounds-390.png", full_page=True)
    console.reload()
    console.get_by_role("button", name="Show the answers").click()
    expect(projector.locator("#answers-chart svg")).to_be_visible(timeout=LIVE_MS)
    expect(projector.locator("#answer-count")).to_have_text("6 answers")
    snap(projector, shots_dir / "projector-rounds-1920x1080.png")
    console.get_by_role("button", name="Close the question").click()
    expect(phones[3].locator("#answer-closed")).to_be_visible(timeout=LIVE_MS)
    assert sorted(
        DebriefAnswer.objects.filter(question=rounds).values_list("number", flat=True)
    ) == [1, 1, 1, 2, 2, 2]

    # The report: every question the room answered, the hidden word left out.
    report = console
    report.goto(live_server.url + reverse("organizer:debrief_report", args=[event.pk]))
    answers = report.locator("#answers")
    expect(answers).to_contain_text(words.text)
    expect(answers).to_contain_text("6 answers")
    expect(answers).to_contain_text("1 answer hidden by the organizer is left out")
    expect(answers.locator(".answer-words")).not_to_contain_text("tired")
    expect(answers.locator(".answer-words")).to_contain_text("hopeful (1)")
    snap(report, shots_dir / "report-answers.png", full_page=True)


def test_a_word_typed_to_hide_survives_the_polls_and_clears_once_hidden(live_server, new_context):
    """The box keeps what the organizer is typing while answers re-render the panel twice
    a second; once the word is hidden the box is empty again, ready for the next one."""
    organizer, _ = ensure_organizer()
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    event = factories.play_until(event, "debrief", by=organizer)
    words = show(event, AnswerKind.WORDS)
    console = new_context(viewport=LAPTOP).new_page()
    sign_in(console, live_server, organizer)
    console.goto(live_server.url + reverse("organizer:event", args=[event.pk]))

    box = console.locator("#hide-word")
    box.fill("bor")
    # An answer arrives: the next poll re-renders the panel with its count.
    answer_question(event=event, question_id=words.pk, phone="phone-1-abcdefghijkl", text="curious")
    expect(console.locator("#answer-count")).to_contain_text("1 answer so far", timeout=LIVE_MS)
    expect(box).to_have_value("bor")
    box.press("End")
    box.type("ed")
    console.get_by_role("button", name="Hide", exact=True).click()

    expect(console.locator("#debrief-answers")).to_contain_text("hidden before anyone wrote it")
    expect(box).to_have_value("")
