"""A screen event's console says what is true there: the screens play and count their own
games (those in play at time up by their tricks so far), so no page of it talks of phones
reporting, reports to check or tally sheets. A room event keeps its words."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests import factories
from tests.screen_factories import play_trick, screen_event
from tournament.models import Event

pytestmark = pytest.mark.django_db

# What only a room (cards on the table, phones reporting) can say, lowercased.
ROOM_ONLY = (
    "be reported",
    "game reported",
    "games reported",
    "reported game",
    "reported once",
    "reported nothing",
    "reported by one phone",
    "no report",
    "last report",
    "late report",
    "late games",
    "report to check",
    "reports to check",
    "report is held",
    "reports are held",
    "no more reports",
    "phones can report",
    "a phone sent",
    "phone link",
    "phones' links",
    "phone page",
    "tally sheet",
    "rule sheets away",
    "reprint the table",
    "phones answer",
    "phones: ",
    "answers from phones",
    "phones can answer",
    "phones can no longer answer",
)

# What a screen event says instead, at some step of the walk.
SCREENS_SAY = (
    "the screens took the rules away",
    "the screens take no more cards",
    "games counted",
    "no game counted yet",
    "a trick in disagreement for longer than",
    "until the first card of round 2 is played",
    "players' address and wi-fi",
    "no more corrections, roster or settings changes",
    "screens: ",
    "screens answer:",
    "the players answer on their screens",
    "the screens can no longer answer",
    "settles tricks in disagreement",
    "every card played, drawing and gesture",
)


def said(page: str) -> str:
    """A page's words (and its attributes' words), lowercased, in one line."""
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page)).lower()


class Walk:
    """The console's pages as the organizer opens them, each page's room-only words kept."""

    def __init__(self, client, event: Event) -> None:
        self.client, self.event = client, event
        self.found: dict[str, list[str]] = {}

    def look(self, step: str, answer) -> None:
        words = said(answer.content.decode())
        for phrase in (*ROOM_ONLY, *SCREENS_SAY):
            if phrase in words:
                self.found.setdefault(phrase, []).append(step)

    def get(self, step: str, name: str, *args) -> str:
        answer = self.client.get(reverse(f"organizer:{name}", args=[self.event.pk, *args]))
        self.look(f"{step}: {name}", answer)
        return answer.content.decode()

    def post(self, step: str, name: str, *args, **data) -> None:
        url = reverse(f"organizer:{name}", args=[self.event.pk, *args])
        self.look(f"{step}: {name}", self.client.post(url, data, follow=True))
        self.event.refresh_from_db()

    def console(self, step: str) -> None:
        for name, args in (("event", ()), ("table", (1,)), ("table", (2,)), ("radar", ())):
            self.get(step, name, *args)

    def next_phase(self, step: str) -> None:
        self.post(step, "phase_next", phase=self.event.phase_key)
        self.console(step)


def close_through_the_page(walk: Walk, number: int) -> None:
    page = walk.get("close", "close_round", number)
    fields = dict(re.findall(r'name="(moves|shown)" value="([^"]*)"', page))
    walk.post("close", "close_round", number, **{k: html.unescape(v) for k, v in fields.items()})


def walk_an_event(client, event: Event) -> Walk:
    """Study, practice, a round with a game in play, time up, the close, the next round,
    the debrief and the finish, through the console's own pages and buttons."""
    walk = Walk(client, event)
    walk.console("setup")
    for step in ("study", "practice", "round 1"):
        walk.next_phase(step)
    if event.on_screens:
        play_trick(walk.event, 1)
    else:
        factories.report(walk.event, 1, factories.seated_players(walk.event, 1)[0])
    walk.get("round 1", "close_round", 1)
    walk.post("time up", "clock", "time-up", phase=walk.event.phase_key)
    walk.console("time up")
    close_through_the_page(walk, 1)
    walk.console("between")
    walk.next_phase("round 2")
    close_through_the_page(walk, 2)
    walk.post("debrief", "debrief", confirmed="1")
    walk.console("debrief")
    answered = next(q for q in walk.event.debrief_questions.all() if q.takes_answers)
    walk.post("debrief", "debrief_step", goto=f"question:{answered.pk}")
    walk.post("debrief", "answers_close", question=answered.pk, closed="1")
    walk.get("debrief", "debrief_questions")
    walk.get("debrief", "team")
    walk.get("finish", "finish")
    walk.post("finish", "finish", confirmed="1")
    walk.console("finished")
    walk.get("finished", "reopen")
    walk.get("finished", "debrief_questions")
    walk.get("finished", "event_delete")
    return walk


def test_a_screen_events_console_never_talks_of_phones_reports_or_tally_sheets(
    signed_in, organizer
):
    event = screen_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    walk = walk_an_event(signed_in, event)
    assert walk.event.is_finished  # the walk went all the way
    room_words = {phrase: steps for phrase, steps in walk.found.items() if phrase in ROOM_ONLY}
    assert not room_words, "\n".join(f"{p!r} on {', '.join(s[:4])}" for p, s in room_words.items())
    assert set(SCREENS_SAY) <= set(walk.found)


def test_a_room_events_console_keeps_its_words(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    walk = walk_an_event(signed_in, event)
    assert walk.event.is_finished
    assert {"be reported", "games reported", "no report", "tally sheet"} <= set(walk.found)
    assert not set(SCREENS_SAY) & set(walk.found)


def test_a_screen_events_undo_is_refused_once_the_next_round_has_started(organizer):
    event = screen_event(owner=organizer)
    refusal = event.undo_refusal(last_closed_number=1, next_round_has_games=True)
    assert refusal == "Round 2 has started: the close cannot be undone."


def test_a_screen_events_settings_say_its_games_go_with_it_not_its_reports(signed_in, organizer):
    # The settings explain every choice (paper only, its tally sheets included): only the
    # sentence about this event's own rows is checked here.
    event = screen_event(owner=organizer)
    page = said(
        signed_in.get(reverse("organizer:event_settings", args=[event.pk])).content.decode()
    )
    assert "deleting removes the roster, tables, rounds and every game played." in page
    assert "every reported game" not in page
