"""The organizer's controls over the room's answers and the projector's answers: the kind
per question, reveal, close, hide a word; the count at once, the chart once revealed, the
answer page's QR code at a paper-only event; the same few queries at any size."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tables.writes.debrief_answers import answer_question
from tests import factories
from tests.tournament.views.test_views_projector import screen_url
from tournament.models import DebriefAnswer, DebriefQuestion
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_answers import reveal_answers
from tournament.writes.debrief_bank import show_question
from tournament.writes.finishing import finish_event

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def debrief(organizer, kind=AnswerKind.WORDS, *, players=8, tables=2, **fields):
    event = factories.seated_event(owner=organizer, players=players, tables=tables, **fields)
    event = factories.play_until(event, "debrief", by=organizer)
    question = DebriefQuestion.objects.get(event=event, answer_kind=kind)
    show_question(event=event, question_id=question.pk)
    event.refresh_from_db()
    return event, question


def answer(event, question, phone: str, **given):
    answer_question(event=event, question_id=question.pk, phone=phone * 22, **given)


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_the_questions_page_sets_how_the_room_answers(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    question = DebriefQuestion.objects.filter(event=event, answer_kind="").first()
    page = text(signed_in.get(url("debrief_questions", event.pk)))
    assert f'<label for="kind-{question.pk}">' in page

    response = signed_in.post(
        url("debrief_question_answers", event.pk, question.pk), {"kind": "tables"}
    )
    assert response.status_code == 302
    question.refresh_from_db()
    assert question.answer_kind == "tables"


def test_the_console_counts_and_controls_the_answers(signed_in, organizer):
    event, question = debrief(organizer)
    answer(event, question, "a", text="lost")
    console = text(signed_in.get(url("event", event.pk)))
    assert "1 answer so far" in console
    assert "not shown on the projector yet" in console

    signed_in.post(url("answers_reveal", event.pk), {"question": question.pk, "revealed": "1"})
    signed_in.post(url("answers_close", event.pk), {"question": question.pk, "closed": "1"})
    signed_in.post(url("answers_hide_word", event.pk), {"question": question.pk, "word": "Lost"})
    question.refresh_from_db()
    assert (question.answers_revealed, question.answers_open) == (True, False)
    assert question.hidden_words
    console = text(signed_in.get(url("event", event.pk)))
    assert "Open the question again" in console
    assert "hidden" in console


def test_a_finished_event_refuses_the_controls(signed_in, organizer):
    event, question = debrief(organizer)
    finish_event(event=event)
    response = signed_in.post(
        url("answers_reveal", event.pk), {"question": question.pk, "revealed": "1"}, follow=True
    )
    assert "This event is finished" in text(response)
    question.refresh_from_db()
    assert not question.answers_revealed


def test_the_projector_counts_at_once_and_draws_once_revealed(client, organizer):
    event, question = debrief(organizer)
    answer(event, question, "a", text="lost")
    answer(event, question, "b", text="Lost")
    answer(event, question, "c", text="curious")
    page = text(client.get(screen_url(event)))
    assert "3 answers" in page
    assert 'id="answers-chart"' not in page

    reveal_answers(event=event, question_id=question.pk, revealed=True)
    page = text(client.get(screen_url(event)))
    assert 'id="answers-chart"' in page
    assert "curious" in page


def test_an_answer_reaches_the_projectors_poll(client, organizer):
    event, question = debrief(organizer)
    first = client.get(screen_url(event), headers={"HX-Request": "true"})
    answer(event, question, "a", text="lost")
    again = client.get(
        screen_url(event), headers={"HX-Request": "true", "If-None-Match": first["ETag"]}
    )
    assert again.status_code == 200
    assert "1 answer" in text(again)


def test_a_paper_only_event_shows_the_answer_pages_qr_code(client, organizer):
    event, _question = debrief(organizer, paper_only=True)
    page = text(client.get(screen_url(event)))
    assert reverse("phone:answer_page", args=[event.players_token]) in page
    assert "QR code of the page where phones answer" in page


@pytest.mark.parametrize("players", [20, 500])
@pytest.mark.parametrize("kind", [AnswerKind.WORDS, AnswerKind.SCALE, AnswerKind.ROUNDS])
def test_the_projectors_answers_cost_the_same_at_any_size(
    client, organizer, players, kind, django_assert_max_num_queries
):
    event, question = debrief(organizer, kind, players=players, tables=players // 4)
    DebriefAnswer.objects.bulk_create(
        DebriefAnswer(
            question=question,
            phone=f"phone{i:017d}",
            **({"text": f"word{i % 30}"} if kind == AnswerKind.WORDS else {"number": 1 + i % 2}),
        )
        for i in range(players)
    )
    reveal_answers(event=event, question_id=question.pk, revealed=True)
    with django_assert_max_num_queries(12):
        page = text(client.get(screen_url(event)))
    assert f"{players} answers" in page
