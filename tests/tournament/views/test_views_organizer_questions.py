"""The organizer's debrief questions page: edit, add, move, delete, reset; refused input
comes back with what was typed; only the event's organizer gets in."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests import factories
from tournament.models import DebriefQuestion, DebriefStep, Event
from tournament.rules.debrief_questions import DEFAULT_BANK, QUESTION_MAX_LENGTH, Stage
from tournament.writes.finishing import finish_event
from tournament.writes.rounds import start_debrief

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def messages_after(client, response) -> list[str]:
    assert response.status_code == 302, response.content[:300]
    page = client.get(response["Location"])
    return [str(m) for m in page.context["site_messages"]]


def of_stage(event: Event, stage: Stage) -> list[DebriefQuestion]:
    return list(DebriefQuestion.objects.filter(event=event, stage=stage).order_by("position"))


def texts(event: Event) -> list[str]:
    return list(
        DebriefQuestion.objects.filter(event=event)
        .order_by("position")
        .values_list("text", flat=True)
    )


def textarea(page: str, question: DebriefQuestion | None = None) -> str:
    name = f"text-{question.pk}" if question else "new-text"
    found = re.search(rf'<textarea[^>]*id="{name}"[^>]*>(.*?)</textarea>', page, re.S)
    assert found, name
    return html.unescape(found.group(1))


def test_the_page_lists_every_question_by_stage_with_its_tools(signed_in, event):
    response = signed_in.get(url("debrief_questions", event.pk))
    page = response.content.decode()
    assert response.status_code == 200
    for question in DEFAULT_BANK:
        assert html.escape(question.text) in page
    headings = re.findall(r'<h2 id="stage-[a-z_]+-title">(.*?)</h2>', page)
    assert headings == [
        "How it felt",
        "What happened",
        "Noticing the difference",
        "Coping without words",
        "Adapting or insisting",
        "Teams, cultures, workplaces",
    ]
    assert page.count('name="direction" value="up"') == len(DEFAULT_BANK)
    assert page.count(" disabled>↑") == len(Stage), "the first of each stage cannot go up"
    assert ">Show<" not in page, "no question can be shown before the debrief"


def test_the_console_links_to_the_questions(signed_in, event):
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert url("debrief_questions", event.pk) in page


def test_an_edit_is_saved_and_lands_on_its_question(signed_in, event):
    question = of_stage(event, Stage.FEELINGS)[1]
    response = signed_in.post(
        url("debrief_question_edit", event.pk, question.pk),
        {"text": "What made you laugh?", "stage": Stage.FEELINGS},
    )
    assert response["Location"].endswith(f"#question-{question.pk}")
    assert messages_after(signed_in, response) == ["Question saved."]
    assert DebriefQuestion.objects.get(pk=question.pk).text == "What made you laugh?"


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("   ", "Write the question: it cannot be empty."),
        ("Why " * 70 + "?", "A question can be at most 240 characters long; this one has 281."),
    ],
)
def test_refused_words_come_back_as_typed_with_the_reason(signed_in, event, typed, reason):
    question = of_stage(event, Stage.COPING)[0]
    before = texts(event)
    response = signed_in.post(
        url("debrief_question_edit", event.pk, question.pk),
        {"text": typed, "stage": Stage.ADAPTING},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert reason in html.unescape(page)
    assert textarea(page, question) == typed, "nothing typed is lost"
    assert f'<option value="{Stage.ADAPTING}" selected>' in page, "the stage chosen too"
    assert texts(event) == before
    other = of_stage(event, Stage.COPING)[1]
    assert textarea(page, other) == other.text, "the other questions are as stored"


def test_a_question_is_added_to_its_stage_and_refused_words_stay_in_the_form(signed_in, event):
    response = signed_in.post(
        url("debrief_question_add", event.pk), {"text": "Who surprised you?", "stage": "coping"}
    )
    assert messages_after(signed_in, response) == ["Question added to “Coping without words”."]
    assert of_stage(event, Stage.COPING)[-1].text == "Who surprised you?"

    long = "Long? " * 50
    response = signed_in.post(
        url("debrief_question_add", event.pk), {"text": long, "stage": "noticing"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert textarea(page) == long
    assert f"this one has {len(long.strip())}" in page
    assert len(texts(event)) == len(DEFAULT_BANK) + 1

    response = signed_in.post(url("debrief_question_add", event.pk), {"text": "Why?"})
    assert response.status_code == 400, "a stage must be chosen"
    assert textarea(response.content.decode()) == "Why?"


def test_a_post_only_address_answers_get_with_the_page(signed_in, event):
    response = signed_in.get(url("debrief_question_add", event.pk))
    assert response.status_code == 302
    assert response["Location"] == url("debrief_questions", event.pk)


def test_up_and_down_move_within_the_stage_and_refuse_past_its_edge(signed_in, event):
    first, second, third = of_stage(event, Stage.ADAPTING)
    response = signed_in.post(
        url("debrief_question_move", event.pk, second.pk), {"direction": "up"}
    )
    assert messages_after(signed_in, response) == []
    assert of_stage(event, Stage.ADAPTING) == [second, first, third]
    said = messages_after(
        signed_in,
        signed_in.post(url("debrief_question_move", event.pk, second.pk), {"direction": "up"}),
    )
    assert said == ["This is already the first question of its stage."]
    said = messages_after(
        signed_in,
        signed_in.post(url("debrief_question_move", event.pk, third.pk), {"direction": "left"}),
    )
    assert said == ["Choose up or down."]
    assert of_stage(event, Stage.ADAPTING) == [second, first, third]


def test_delete_and_reset(signed_in, event):
    question = of_stage(event, Stage.HAPPENED)[0]
    said = messages_after(
        signed_in, signed_in.post(url("debrief_question_delete", event.pk, question.pk))
    )
    assert said == [f"Deleted: “{question.text}”"]
    assert len(texts(event)) == len(DEFAULT_BANK) - 1

    said = messages_after(signed_in, signed_in.post(url("debrief_questions_reset", event.pk)))
    assert said == ["Tick the box to confirm: every question of this event is replaced."]
    assert len(texts(event)) == len(DEFAULT_BANK) - 1

    said = messages_after(
        signed_in, signed_in.post(url("debrief_questions_reset", event.pk), {"confirmed": "1"})
    )
    assert said == [f"The event has the {len(DEFAULT_BANK)} default questions again."]
    assert texts(event) == [q.text for q in DEFAULT_BANK]


def test_at_the_debrief_a_question_can_be_shown_from_the_page(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    event = start_debrief(event=event)
    question = of_stage(event, Stage.NOTICING)[0]
    here = url("debrief_questions", event.pk)
    response = signed_in.post(
        url("debrief_step", event.pk),
        {"goto": f"question:{question.pk}", "next": f"{here}#question-{question.pk}"},
    )
    assert response["Location"] == f"{here}#question-{question.pk}"
    event.refresh_from_db()
    assert (event.debrief_step, event.debrief_question_id) == (DebriefStep.QUESTION, question.pk)
    page = signed_in.get(here).content.decode()
    assert "On the projector" in page
    assert page.count(">Show</button>") == len(DEFAULT_BANK) - 1


def test_only_the_events_organizer_gets_in(client, django_user_model, event):
    question = of_stage(event, Stage.FEELINGS)[0]
    posts = [
        ("debrief_question_edit", [question.pk], {"text": "Hijacked?", "stage": "feelings"}),
        ("debrief_question_add", [], {"text": "Hijacked?", "stage": "feelings"}),
        ("debrief_question_move", [question.pk], {"direction": "down"}),
        ("debrief_question_delete", [question.pk], {}),
        ("debrief_questions_reset", [], {"confirmed": "1"}),
    ]
    before = (texts(event), Event.objects.get(pk=event.pk).version)

    page = client.get(url("debrief_questions", event.pk))
    assert page.status_code == 302
    assert "/sign-in/" in page["Location"]

    client.force_login(factories.make_organizer(django_user_model, "mallory"))
    assert client.get(url("debrief_questions", event.pk)).status_code == 404
    for name, args, data in posts:
        assert client.post(url(name, event.pk, *args), data).status_code == 404, name
    assert (texts(event), Event.objects.get(pk=event.pk).version) == before


def test_a_question_of_another_event_is_not_found_here(signed_in, organizer, event):
    other = factories.make_event(owner=organizer, name="Another")
    foreign = of_stage(other, Stage.FEELINGS)[0]
    response = signed_in.post(
        url("debrief_question_edit", event.pk, foreign.pk), {"text": "Mixed?", "stage": "feelings"}
    )
    assert response.status_code == 404
    assert DebriefQuestion.objects.get(pk=foreign.pk).text == foreign.text


def test_the_page_costs_a_few_queries(signed_in, event, django_assert_max_num_queries):
    # The session and user, the event, its questions.
    with django_assert_max_num_queries(4):
        assert signed_in.get(url("debrief_questions", event.pk)).status_code == 200


def test_the_longest_question_allowed_is_accepted(signed_in, event):
    text = "a" * (QUESTION_MAX_LENGTH - 1) + "?"
    response = signed_in.post(
        url("debrief_question_add", event.pk), {"text": text, "stage": "coping"}
    )
    assert response.status_code == 302
    assert of_stage(event, Stage.COPING)[-1].text == text


def test_a_finished_events_questions_are_shown_read_only(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    event = finish_event(event=start_debrief(event=event))
    here = url("debrief_questions", event.pk)

    # The page's own part: the console's top bar keeps its language switcher.
    page = (
        signed_in.get(here)
        .content.decode()
        .split('<main class="page" id="main" tabindex="-1">', 1)[1]
    )

    assert "This event is finished: its questions are read-only." in page
    for question in DEFAULT_BANK:
        assert html.escape(question.text) in page
    assert "<textarea" not in page
    assert "<select" not in page
    for writer in (
        "debrief_question_add",
        "debrief_questions_reset",
    ):
        assert url(writer, event.pk) not in page
    question = of_stage(event, Stage.FEELINGS)[0]
    for writer in ("debrief_question_edit", "debrief_question_move", "debrief_question_delete"):
        assert url(writer, event.pk, question.pk) not in page
    # Every form left shows a question on the projector, which a finished event still takes.
    actions = set(re.findall(r'<form method="post" action="([^"]+)"', page))
    assert actions == {url("debrief_step", event.pk)}
    response = signed_in.post(url("debrief_step", event.pk), {"goto": f"question:{question.pk}"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.debrief_question_id == question.pk


def test_an_open_events_editor_has_no_finished_note(signed_in, event):
    page = signed_in.get(url("debrief_questions", event.pk)).content.decode()
    assert "read-only" not in page
    assert "<textarea" in page
