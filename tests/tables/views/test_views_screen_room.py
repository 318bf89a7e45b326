"""A player's own screen at a screen event shows what the projector shows, for players who
have no projector: the welcome before study, the moves between rounds, and at the debrief
the step the console is on, its question answered right there (once per device); never a
table's rules before the organizer reveals them; the same few queries at any size."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.screen_factories import screen_event
from tournament.common.phone_ids import signed_phone_id
from tournament.models import DebriefAnswer, DebriefQuestion, DebriefStep, Event, Player, Seat
from tournament.rules.debrief_questions import AnswerKind
from tournament.templatetags.room_screen import forget_room_screens
from tournament.writes.debrief_answers import hide_word, reveal_answers
from tournament.writes.debrief_bank import show_question
from tournament.writes.rounds import reveal_table, step_debrief

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Words and symbols that would give a table's variant away (as the projector's tests).
VARIANT_GIVEAWAY = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|trump|[♥♦♣♠∅]|fewest\s+tricks"
    r"|play\s+higher",
    re.IGNORECASE,
)
# What would say whose rules they were: a suit or a direction.
WHOSE_RULES = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|[♥♦♣♠∅]", re.IGNORECASE
)
# The data screens a player's screen follows, with the heading each shows.
STEP_HEADINGS = {
    DebriefStep.OPENING: "Debrief",
    DebriefStep.DISPUTES: "Where tricks were in disagreement",
    DebriefStep.CLASHES: "Which rules met at each table",
    DebriefStep.TRICKS: "The tricks’ story",
    DebriefStep.PATHS: "Every player’s path",
    DebriefStep.FLOW: "Moves between tables",
    DebriefStep.RESULTS: "Final results",
    DebriefStep.REVEAL: "Each table’s rules",
}


@pytest.fixture(autouse=True)
def _fresh_screens():
    forget_room_screens()


def at_debrief(organizer, *, players: int = 10, tables: int = 2, rounds: int = 2) -> Event:
    event = screen_event(owner=organizer, players=players, tables=tables, rounds_planned=rounds)
    return factories.play_until(event, "debrief", by=organizer)


def phone(device: str = "d" * 22):
    from django.test import Client

    client = Client()
    client.cookies["ft_phone"] = signed_phone_id(device)
    return client


def someone(event: Event) -> Player:
    return Player.objects.filter(event=event).order_by("pk")[0]


def body(response) -> str:
    return html.unescape(response.content.decode())


def page_of(client, player: Player) -> str:
    # follow: a first visit comes back once with the device cookie (screen_home).
    response = client.get(reverse("phone:screen", args=[player.token]), follow=True)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def room_of(page: str) -> str:
    """The room's part of the page (phone/_room_screen.html), '' when it has none."""
    found = re.search(r'<section class="room-screen.*?</section>\s*$', page, re.S | re.M)
    return found.group(0) if found else ""


def room_heading(page: str) -> str:
    found = re.search(r'<h2 id="(?:room-title|answer-question)"[^>]*>(.*?)</h2>', page, re.S)
    assert found, "the room's screen has its heading"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_before_study_the_screen_welcomes_the_player_to_the_event(client, organizer):
    event = screen_event(owner=organizer, name="Atelier interculturel")
    page = page_of(client, someone(event))
    assert "Welcome to" in page
    assert "Atelier interculturel" in page
    assert "Your home table is table" in page


def test_between_rounds_the_screen_shows_the_rooms_moves(client, organizer):
    event = screen_event(owner=organizer, rounds_planned=2)
    event = factories.play_until(event, "between", by=organizer)
    page = page_of(client, someone(event))
    assert room_heading(page) == "Moves for round 2"
    room = room_of(page)
    # Every player of the room, as the projector's board names them.
    assert all(player.name in room for player in Player.objects.filter(event=event))
    assert "Next round" in page, "the player's own move first"


def test_after_the_last_round_the_screen_shows_the_final_results(client, organizer):
    event = screen_event(owner=organizer, rounds_planned=1)
    event = factories.play_until(event, "between", by=organizer)
    page = page_of(client, someone(event))
    assert room_heading(page) == "Final results"
    assert all(player.name in room_of(page) for player in Player.objects.filter(event=event))


@pytest.mark.parametrize("step", list(STEP_HEADINGS), ids=lambda step: step.name.lower())
def test_the_screen_shows_the_debrief_step_the_console_is_on(client, organizer, step):
    event = step_debrief(event=at_debrief(organizer), to_step=step)
    page = page_of(client, someone(event))
    assert room_heading(page) == STEP_HEADINGS[step]
    assert "Look at the big screen" not in page, "a remote player has no big screen"


def test_a_player_without_a_seat_in_the_last_round_follows_the_debrief_too(client, organizer):
    event = step_debrief(event=at_debrief(organizer), to_step=DebriefStep.CLASHES)
    player = someone(event)
    Seat.objects.filter(player=player).delete()  # sat every round out
    page = page_of(client, player)
    assert room_heading(page) == STEP_HEADINGS[DebriefStep.CLASHES]
    assert "You have no seat right now" not in page


def test_a_player_who_sat_the_round_out_still_sees_the_moves(client, organizer):
    event = factories.play_until(screen_event(owner=organizer, rounds_planned=2), "between")
    player = someone(event)
    Seat.objects.filter(player=player, round__number=1).delete()
    page = page_of(client, player)
    assert room_heading(page) == "Moves for round 2"
    assert "You have no seat right now" not in page


def test_the_clash_map_is_the_projectors_chart_with_its_legend(client, organizer):
    event = step_debrief(event=at_debrief(organizer), to_step=DebriefStep.CLASHES)
    room = room_of(page_of(client, someone(event)))
    assert 'class="chart chart-grid"' in room
    assert "tricks in disagreement" in room
    assert "Each player brought the rules of their home table" in room


def test_no_rules_show_before_the_organizer_reveals_them_then_only_those_revealed(
    client, organizer
):
    event = at_debrief(organizer)
    me = someone(event)
    for step in STEP_HEADINGS:
        event = step_debrief(event=event, to_step=step)
        room = re.sub(r"<[^>]+>", " ", room_of(page_of(client, me)))
        # Which rules met names the kind of a difference ("another trump"), never whose.
        kinds = step in (DebriefStep.CLASHES, DebriefStep.TRICKS)
        giveaway = (WHOSE_RULES if kinds else VARIANT_GIVEAWAY).search(room)
        assert giveaway is None, f"{step.label}: {giveaway.group()!r}"
    assert "Which rules did each table play?" in page_of(client, me)

    reveal_table(event=event, table_number=1)
    room = room_of(page_of(client, me))
    assert "Table 1" in room
    assert "Table 2" not in room, "a table not revealed yet stays hidden"
    assert VARIANT_GIVEAWAY.search(room)


def test_the_step_change_reaches_the_players_screen_at_its_next_poll(client, organizer):
    event = step_debrief(event=at_debrief(organizer), to_step=DebriefStep.CLASHES)
    me = someone(event)
    live = reverse("phone:screen_live", args=[me.token])
    first = client.get(live, **HTMX)
    etag = first["ETag"]
    assert client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304

    step_debrief(event=event, to_step=DebriefStep.PATHS)
    after = client.get(live, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert after.status_code == 200, "the step bumps the event's shared version"
    assert room_heading(html.unescape(after.content.decode())) == "Every player’s path"


# --- the question, answered from the screen -------------------------------------------------


def asking(organizer, kind=AnswerKind.SCALE) -> tuple[Event, DebriefQuestion]:
    event = at_debrief(organizer)
    question = DebriefQuestion.objects.filter(event=event, answer_kind=kind)[0]
    show_question(event=event, question_id=question.pk)
    event.refresh_from_db()
    return event, question


def test_a_question_shows_with_its_answer_form_on_the_players_screen(organizer):
    event, question = asking(organizer)
    me = someone(event)
    page = page_of(phone(), me)
    url = reverse("phone:screen_answer", args=[me.token])
    assert room_heading(page) == question.text
    # A plain form first, htmx on top of it.
    assert f'<form method="post" action="{url}" hx-post="{url}"' in page
    assert 'name="number" value="3"' in page
    assert re.search(r"Question \d+ of \d+", page), "its place in the running order"


def test_a_question_answered_from_the_screen_counts_once(organizer):
    event, question = asking(organizer)
    me = someone(event)
    device = phone()
    page_of(device, me)
    url = reverse("phone:screen_answer", args=[me.token])
    fields = {"question": question.pk, "number": 4}

    first = device.post(url, fields, **HTMX)
    again = device.post(url, fields, **HTMX)

    assert first.status_code == again.status_code == 200
    said = html.unescape(first.content.decode())
    assert 'id="live"' in said, "the screen's live part, swapped in by htmx"
    assert "data-answer-notice" in said
    assert "Thank you: your answer is in" in said
    assert 'aria-pressed="true"' in said, "the answer given, marked"
    assert DebriefAnswer.objects.filter(question=question).count() == 1


def test_without_javascript_an_answer_goes_back_to_the_screen(organizer):
    event, question = asking(organizer, AnswerKind.WORDS)
    me = someone(event)
    device = phone()
    url = reverse("phone:screen_answer", args=[me.token])
    answer = device.post(url, {"question": question.pk, "text": "curious"}, follow=True)
    page = html.unescape(answer.content.decode())
    assert answer.redirect_chain[-1][0] == reverse("phone:screen", args=[me.token])
    assert "Thank you: your answer is in (curious)" in page
    assert DebriefAnswer.objects.get(question=question).text == "curious"


def test_a_question_answered_aloud_shows_without_a_form(organizer):
    event = at_debrief(organizer)
    aloud = DebriefQuestion.objects.filter(event=event, answer_kind="").first()
    show_question(event=event, question_id=aloud.pk)
    page = page_of(phone(), someone(event))
    assert room_heading(page) == aloud.text
    assert 'id="answer"' not in page


def answers_chart(page: str) -> str:
    found = re.search(r'<figure class="room-chart">(.*?)</figure>', page, re.S)
    return found.group(1) if found else ""


def test_answers_revealed_and_a_word_hidden_reach_the_players_screen_at_its_next_poll(
    organizer,
):
    event, question = asking(organizer, AnswerKind.WORDS)
    me = someone(event)
    device = phone()
    url = reverse("phone:screen_answer", args=[me.token])
    device.post(url, {"question": question.pk, "text": "curious"}, **HTMX)
    live = reverse("phone:screen_live", args=[me.token])
    shown = device.get(live, **HTMX)
    assert answers_chart(body(shown)) == "", "the answers wait for the organizer"

    reveal_answers(event=event, question_id=question.pk, revealed=True)
    revealed = device.get(live, HTTP_IF_NONE_MATCH=shown["ETag"], **HTMX)
    assert revealed.status_code == 200, "a reveal is news to a player's screen"
    assert "curious" in answers_chart(body(revealed))

    hide_word(event=event, question_id=question.pk, word="curious", hidden=True)
    hidden = device.get(live, HTTP_IF_NONE_MATCH=revealed["ETag"], **HTMX)
    assert hidden.status_code == 200, "a hidden word leaves the player's screen at once"
    assert "curious" not in answers_chart(body(hidden))


# --- query counts ---------------------------------------------------------------------------

# The room's screen read once per event version (tournament/templatetags/room_screen.py): the
# first screen to fetch after a step reads it; the others take it as kept.
FIRST_FETCH_QUERIES = {DebriefStep.CLASHES: (10, 6), DebriefStep.RESULTS: (8, 6)}
# A question adds the device's own answer and the buttons' rounds or tables, kept or not.
FIRST_FETCH_QUERIES[DebriefStep.QUESTION] = (10, 7)


def fetch_counts(event: Event, client) -> dict[str, tuple[int, int]]:
    """For each step: the queries of the first screen's fetch, then of another's."""
    first, second = Player.objects.filter(event=event).order_by("pk")[:2]
    measured = {}
    question = DebriefQuestion.objects.filter(event=event, answer_kind=AnswerKind.SCALE)[0]
    for step in FIRST_FETCH_QUERIES:
        if step == DebriefStep.QUESTION:
            show_question(event=event, question_id=question.pk)
        else:
            step_debrief(event=event, to_step=step)
        counts = []
        for player in (first, second):
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse("phone:screen_live", args=[player.token]), **HTMX)
            assert response.status_code == 200
            counts.append(len(queries))
        measured[step.name] = (counts[0], counts[1])
    return measured


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 100)])
def test_a_players_screen_at_the_debrief_costs_the_same_few_queries_at_any_size(
    client, organizer, players, tables
):
    event = at_debrief(organizer, players=players, tables=tables, rounds=1)
    measured = fetch_counts(event, client)
    assert measured == {step.name: counts for step, counts in FIRST_FETCH_QUERIES.items()}
