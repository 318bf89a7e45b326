"""Phones answer the debrief's question: a table's page, the players' page and the answer
page show it with large controls, take one answer per phone (changed until closed), say
what became of it, and cost the same few queries at any size."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.writes.debrief_answers import players_source_limit, table_source_limit
from tests import factories
from tests.factories import table
from tests.tables.views.test_views_player import pick
from tournament.common.phone_ids import signed_phone_id
from tournament.models import DebriefAnswer, DebriefQuestion
from tournament.rules.debrief_questions import AnswerKind
from tournament.writes.debrief_answers import close_answers
from tournament.writes.debrief_bank import show_question

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PHONE = "p" * 22


def body(response) -> str:
    return html_module.unescape(response.content.decode())


def debrief(organizer, kind=AnswerKind.WORDS, *, players=8, tables=2):
    event = factories.seated_event(owner=organizer, players=players, tables=tables)
    event = factories.play_until(event, "debrief", by=organizer)
    question = DebriefQuestion.objects.get(event=event, answer_kind=kind)
    show_question(event=event, question_id=question.pk)
    event.refresh_from_db()
    return event, question


def phone_client(phone: str = PHONE) -> Client:
    client = Client()
    client.cookies["ft_phone"] = signed_phone_id(phone)
    return client


def table_answer(client, event, question, *, REMOTE_ADDR="127.0.0.1", **fields):
    url = reverse("phone:table_answer", args=[table(event, 1).token])
    return client.post(url, {"question": question.pk, **fields}, REMOTE_ADDR=REMOTE_ADDR, **HTMX)


def test_a_tables_page_shows_the_question_with_a_labelled_field(organizer):
    event, question = debrief(organizer)
    page = body(phone_client().get(reverse("phone:table", args=[table(event, 1).token])))
    assert question.text in page
    assert f'<label for="answer-text-{question.pk}">' in page
    assert "Your answer: a word or a few</legend>" in page
    assert 'maxlength="40"' in page


def test_a_question_answered_aloud_shows_no_form(organizer):
    event, _question = debrief(organizer)
    aloud = DebriefQuestion.objects.filter(event=event, answer_kind="").first()
    show_question(event=event, question_id=aloud.pk)
    page = body(phone_client().get(reverse("phone:table", args=[table(event, 1).token])))
    assert 'id="answer"' not in page


def test_a_phone_answers_changes_and_sees_its_answer(organizer):
    event, question = debrief(organizer)
    client = phone_client()
    first = table_answer(client, event, question, text="lost")
    assert "Thank you: your answer is in (lost)" in body(first)
    assert "data-answer-notice" in body(first)
    changed = table_answer(client, event, question, text="curious")
    assert re.search(r"Your answer:.*curious", body(changed))
    assert list(DebriefAnswer.objects.values_list("text", flat=True)) == ["curious"]


def test_without_javascript_an_answer_redirects_to_the_page_with_its_notice(organizer):
    event, question = debrief(organizer, AnswerKind.SCALE)
    client = phone_client()
    url = reverse("phone:table_answer", args=[table(event, 1).token])
    response = client.post(url, {"question": question.pk, "number": 4}, follow=True)
    page = body(response)
    assert "Thank you: your answer is in (4: a lot)" in page
    assert 'aria-pressed="true"' in page
    assert 'id="answer-4"' in page


NO_ID = "Your answer is not stored: this phone did not get its id from the page."


@pytest.mark.parametrize("cookie", [None, "made-up-phone-id-0001", "made-up-phone-id-0001:xyz"])
def test_answers_without_an_id_from_the_page_are_refused_and_stored_nowhere(organizer, cookie):
    event, question = debrief(organizer)
    for _ in range(5):
        client = Client()
        if cookie:
            client.cookies["ft_phone"] = cookie
        assert NO_ID in body(table_answer(client, event, question, text="fine"))
    assert not DebriefAnswer.objects.exists()


def test_the_refusal_hands_out_an_id_and_sending_again_works(organizer):
    event, question = debrief(organizer)
    client = Client()
    assert NO_ID in body(table_answer(client, event, question, text="fine"))
    assert "Thank you: your answer is in (fine)" in body(
        table_answer(client, event, question, text="fine")
    )
    assert DebriefAnswer.objects.count() == 1


FULL = "phones have already answered through this link from this network"


def test_a_tables_link_takes_a_tables_worth_of_phones_from_one_address(organizer):
    """A script that drops its cookie gets a new id each time: the address bounds it."""
    event, question = debrief(organizer)
    limit = table_source_limit()
    for number in range(limit):
        assert "Thank you: your answer is in" in body(
            table_answer(
                phone_client(f"phone-{number:04}-of-this-room"), event, question, text="calm"
            )
        )
    refused = body(
        table_answer(phone_client("one-too-many-phone-id"), event, question, text="calm")
    )
    assert FULL in refused
    assert DebriefAnswer.objects.count() == limit
    # A phone that answered may still change its answer; another table's link, or
    # another address, is counted apart.
    assert "Thank you: your answer is in" in body(
        table_answer(phone_client("phone-0000-of-this-room"), event, question, text="sure")
    )
    other_table = reverse("phone:table_answer", args=[table(event, 2).token])
    assert "Thank you: your answer is in" in body(
        phone_client("one-too-many-phone-id").post(
            other_table, {"question": question.pk, "text": "calm"}, **HTMX
        )
    )
    elsewhere = phone_client("from-elsewhere-phone-id")
    assert "Thank you: your answer is in" in body(
        table_answer(elsewhere, event, question, text="calm", REMOTE_ADDR="10.0.0.9")
    )
    assert DebriefAnswer.objects.count() == limit + 2
    assert DebriefAnswer.objects.get(phone="phone-0000-of-this-room").text == "sure"


def test_the_players_link_takes_the_events_players_from_one_address(organizer):
    event, question = debrief(organizer, players=8)
    url = reverse("phone:player_answer", args=[event.players_token])
    limit = players_source_limit(event)
    assert limit == 8 + 2
    for number in range(limit + 1):
        response = phone_client(f"phone-{number:04}-of-this-room").post(
            url, {"question": question.pk, "text": "calm", "from": "answer"}, **HTMX
        )
    assert FULL in body(response)
    assert DebriefAnswer.objects.count() == limit


def test_a_closed_question_says_so_and_refuses_a_change(organizer):
    event, question = debrief(organizer)
    client = phone_client()
    table_answer(client, event, question, text="calm")
    close_answers(event=event, question_id=question.pk, closed=True)

    refused = body(table_answer(client, event, question, text="angry"))
    assert "The organizer has closed this question: answers can no longer change." in refused
    assert 'name="text"' not in refused
    assert DebriefAnswer.objects.get().text == "calm"


def test_the_players_page_answers_too(client, organizer):
    event, question = debrief(organizer, AnswerKind.ROUNDS)
    pick(client, event, event.players.first())
    client.cookies["ft_phone"] = signed_phone_id(PHONE)
    home = body(client.get(reverse("phone:player_home", args=[event.players_token])))
    assert 'aria-label="Round 1"' in home
    response = client.post(
        reverse("phone:player_answer", args=[event.players_token]),
        {"question": question.pk, "number": 1},
        **HTMX,
    )
    assert "Thank you: your answer is in (Round 1)" in body(response)
    assert DebriefAnswer.objects.get().number == 1


def test_the_answer_page_needs_no_name_and_shows_no_rules(organizer):
    event, question = debrief(organizer)
    client = phone_client()
    url = reverse("phone:answer_page", args=[event.players_token])
    page = body(client.get(url))
    assert question.text in page
    assert "trump" not in page.lower()
    response = client.post(
        reverse("phone:player_answer", args=[event.players_token]),
        {"question": question.pk, "text": "tired", "from": "answer"},
        **HTMX,
    )
    assert "Thank you: your answer is in (tired)" in body(response)
    assert 'class="live answer-page' in body(response)


def test_phones_keep_polling_at_the_debrief_and_see_the_next_question(organizer):
    event, question = debrief(organizer)
    client = phone_client()
    live = reverse("phone:table_live", args=[table(event, 1).token])
    first = client.get(live, **HTMX)
    assert first.status_code == 200
    etag = first["ETag"]
    table_answer(phone_client("q" * 22), event, question, text="other")  # another phone
    assert client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    scale = DebriefQuestion.objects.get(event=event, answer_kind=AnswerKind.SCALE)
    show_question(event=event, question_id=scale.pk)
    assert scale.text in body(client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX))


@pytest.mark.parametrize("players", [20, 500])
def test_the_phone_pages_cost_the_same_at_the_debrief_at_any_size(
    organizer, players, django_assert_max_num_queries
):
    event, question = debrief(organizer, AnswerKind.ROUNDS, players=players, tables=players // 4)
    client = phone_client()
    table_answer(client, event, question, number=1)
    page = reverse("phone:table", args=[table(event, 1).token])
    live = reverse("phone:table_live", args=[table(event, 1).token])
    answer_page = reverse("phone:answer_page", args=[event.players_token])

    with django_assert_max_num_queries(7):
        assert client.get(page).status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get(live, **HTMX).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(answer_page).status_code == 200
    # The link, the write (its savepoint, the event locked, the question, the choices, the
    # answers of this phone and of its source, the answer, its change, the version), then
    # the live part as the table's page reads it.
    with django_assert_max_num_queries(18):
        assert table_answer(client, event, question, number=2).status_code == 200
