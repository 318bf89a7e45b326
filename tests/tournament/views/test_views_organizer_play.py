"""Organizer console, running an event: phases and the clock, results entered by hand,
corrections, late reports, closing a round (and undoing it), the debrief, live polling."""

from __future__ import annotations

import html
import math
import re
import time
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse

from tables.models import (
    CorrectionAction,
    Game,
    GameCorrection,
    GameReport,
    GameStatus,
    ReportState,
)
from tables.writes.sightings import flush_sightings, note_phone_seen
from tests import factories
from tests.matching import search
from tournament.models import (
    SCREEN_EVENT_STEPS,
    DebriefQuestion,
    DebriefStep,
    Event,
    Phase,
    Player,
    PlayerStatus,
    Round,
    RoundStatus,
)
from tournament.rules.debrief_questions import Stage
from tournament.writes.rounds import advance_phase, start_debrief

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    """12 players at 3 tables, round 1 running."""
    return factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))


@pytest.fixture
def whole_messages(monkeypatch):
    """Every message comes out of translation inside ⟦ ⟧, so a test sees the units a
    translator gets: a sentence glued from pieces shows up as several brackets."""
    from django.utils import translation

    gettext, ngettext = translation._trans.gettext, translation._trans.ngettext
    monkeypatch.setattr(translation._trans, "gettext", lambda message: f"⟦{gettext(message)}⟧")
    monkeypatch.setattr(
        translation._trans, "ngettext", lambda one, many, n: f"⟦{ngettext(one, many, n)}⟧"
    )


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def messages_after(client, response) -> list[str]:
    assert response.status_code == 302, response.content[:300]
    page = client.get(response["Location"])
    return [str(m) for m in page.context["site_messages"]]


def at_table(event, number, round_number=None) -> list[Player]:
    seats = factories.seats_of(event, round_number or event.round_number)
    names = sorted(name for name, table in seats.items() if table == number)
    return list(Player.objects.filter(event=event, name__in=names).order_by("name"))


# --- phases and the clock ----------------------------------------------------------------


def test_the_phases_in_order_through_the_next_button(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    said = []
    for phase in ("setup", "study", "practice"):
        said += messages_after(
            signed_in, signed_in.post(url("phase_next", event.pk), {"phase": phase})
        )
    event.refresh_from_db()
    assert event.phase == Phase.ROUND
    assert event.round_number == 1
    assert said == [
        "Study started: 5 minutes to read the rules.",
        "Practice started: take the rule sheets away. Silence from now on.",
        "Round 1 started: 5 minutes.",
    ]


def test_a_double_click_does_not_skip_a_phase(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    signed_in.post(url("phase_next", event.pk), {"phase": "setup"})
    said = messages_after(
        signed_in, signed_in.post(url("phase_next", event.pk), {"phase": "setup"})
    )
    assert said[-1] == "The event has already moved on: check where it stands."
    assert Event.objects.get(pk=event.pk).phase == Phase.STUDY


def test_a_clock_button_from_the_phase_before_is_refused(signed_in, organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=8, tables=2))
    signed_in.post(url("phase_next", event.pk), {"phase": "study"})
    # A second tab still shows the study phase: its "Time is up now" must not end practice.
    said = messages_after(
        signed_in, signed_in.post(url("clock", event.pk, "time-up"), {"phase": "study"})
    )
    assert said[-1] == "The event has already moved on: check where it stands."
    event.refresh_from_db()
    assert event.phase == Phase.PRACTICE
    assert not event.time_is_up()


def test_the_console_clock_buttons_post_the_phase_and_round_they_were_shown_in(signed_in, playing):
    html = signed_in.get(url("event", playing.pk)).content.decode()
    for action in ("pause", "add-minute", "time-up"):
        form = html.split(f'action="{url("clock", playing.pk, action)}"')[1].split("</form>")[0]
        assert '<input type="hidden" name="phase" value="round:1">' in form, action


def test_pause_and_time_up_now_hide_when_the_clock_reaches_zero_in_the_browser(signed_in, playing):
    # The server leaves them out once time is up; until the next refresh, clock.js marks
    # the body at 0:00 and the CSS hides them (checked in a real browser in
    # tests/browser/test_organizer_flow.py).
    html = signed_in.get(url("event", playing.pk)).content.decode()
    tag = html.split(f'action="{url("clock", playing.pk, "pause")}"')[1].split(">")[0]
    assert 'class="hidden-at-time-up"' in tag
    # "Time is up now" asks first, in the page: the whole question hides with it.
    before = html.split('id="confirm-time-up"')[0].rsplit("<div", 1)[1]
    assert 'class="hidden-at-time-up"' in before
    tag = html.split(f'action="{url("clock", playing.pk, "add-minute")}"')[1].split(">")[0]
    assert "hidden-at-time-up" not in tag


def test_time_is_up_now_asks_in_the_page_not_in_a_browser_box(signed_in, playing):
    html = signed_in.get(url("event", playing.pk)).content.decode()
    assert "hx-confirm" not in html
    ask = html.split('id="confirm-time-up"')[1].split("</details>")[0]
    assert "End the round’s time now? Games in play can still be reported." in ask
    assert f'action="{url("clock", playing.pk, "time-up")}"' in ask


def test_study_without_a_table_plan_is_refused(signed_in, event):
    said = messages_after(signed_in, signed_in.post(url("phase_next", event.pk)))
    assert said == ["Make the table plan first: players need a home table to study at."]


def test_pause_resume_add_a_minute_and_time_up(signed_in, playing):
    event = playing
    signed_in.post(url("clock", event.pk, "pause"))
    event.refresh_from_db()
    assert event.clock_is_paused
    left = event.clock.paused_remaining
    signed_in.post(url("clock", event.pk, "add-minute"))
    event.refresh_from_db()
    assert event.clock.paused_remaining == left + timedelta(minutes=1)
    signed_in.post(url("clock", event.pk, "resume"))
    event.refresh_from_db()
    assert not event.clock_is_paused
    said = messages_after(signed_in, signed_in.post(url("clock", event.pk, "time-up")))
    event.refresh_from_db()
    assert event.time_is_up()
    assert event.phase == Phase.ROUND
    assert said[-1].startswith("Time is up.")
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert 'class="panel phase-panel is-up"' in page
    assert "Check results and close round 1" in page


def test_the_clock_survives_a_reload(signed_in, playing):
    """The console reads the clock from the round's end, kept in the database: a reload
    neither restarts it nor loses the time already played (90 s here)."""
    played = timedelta(seconds=90)
    Event.objects.filter(pk=playing.pk).update(clock_ends_at=F("clock_ends_at") - played)
    before, left = time.monotonic(), playing.clock_seconds_left()  # as it was, unplayed
    for _reload in range(2):
        shown = signed_in.get(url("event", playing.pk)).context["seconds_left"]
        # A slow machine may take seconds between the two readings of the clock.
        late = math.ceil(time.monotonic() - before) + 1
        assert left - 90 - late <= shown <= left - 90


def test_clock_actions_are_refused_without_a_clock(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    said = messages_after(signed_in, signed_in.post(url("clock", event.pk, "pause")))
    assert said == ["No clock runs in this phase."]
    assert signed_in.post(url("clock", event.pk, "explode")).status_code == 302


# --- results entered by hand, corrections ------------------------------------------------


def test_tap_a_winner_on_the_table_view(signed_in, playing):
    ann = at_table(playing, 1)[0]
    page = signed_in.get(url("table", playing.pk, 1))
    assert page.context["can_add"]
    response = signed_in.post(
        url("game_add", playing.pk, 1),
        {"round": 1, "winner": ann.pk, "next": url("table", playing.pk, 1)},
    )
    assert response["Location"] == url("table", playing.pk, 1)
    game = Game.objects.get()
    assert (game.winner, game.status, game.table.number) == (ann, GameStatus.SETTLED, 1)
    assert GameCorrection.objects.get().changed_by.username == "ada"


@pytest.mark.parametrize("live", ["table_live", "close_round_live"])
def test_a_poll_between_a_press_and_its_redirect_leaves_the_message_to_the_page(
    signed_in, playing, live
):
    """The polled part shows no message, so it must not take the press's: the page the
    redirect opens shows it (it vanished when a poll landed in between)."""
    ann = at_table(playing, 1)[0]
    pressed = signed_in.post(url("game_add", playing.pk, 1), {"round": 1, "winner": ann.pk})
    assert signed_in.get(url(live, playing.pk, 1), HTTP_HX_REQUEST="true").status_code == 200
    assert messages_after(signed_in, pressed) == [f"Game 1 at table 1: {ann.name} won."]


def test_a_game_for_a_closed_round_or_a_stranger_is_refused(signed_in, playing, organizer):
    stranger = at_table(playing, 2)[0]
    said = messages_after(
        signed_in,
        signed_in.post(url("game_add", playing.pk, 1), {"round": 1, "winner": stranger.pk}),
    )
    assert said == ["That player is not seated at this table in this round."]
    factories.close_current_round(playing, organizer)
    said = messages_after(
        signed_in,
        signed_in.post(
            url("game_add", playing.pk, 1), {"round": 1, "winner": at_table(playing, 1, 1)[0].pk}
        ),
    )
    assert said == ["Games can be added only while their round is open."]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({"round": "x", "winner": "1"}, "Games can be added only while their round is open."),
        ({"winner": "1"}, "Games can be added only while their round is open."),
        ({"round": "1", "winner": "x"}, "Choose who won the game."),
        ({"round": "1", "winner": "²"}, "Choose who won the game."),
        ({"round": "1"}, "Choose who won the game."),
    ],
)
def test_a_game_with_odd_numbers_is_refused_with_a_message(signed_in, playing, posted, said):
    response = signed_in.post(url("game_add", playing.pk, 1), posted)
    assert response["Location"] == url("table", playing.pk, 1)
    assert messages_after(signed_in, response) == [said]
    assert not Game.objects.exists()


@pytest.mark.parametrize("winner", ["x", "", "-1", "1" * 12])
def test_settling_with_an_odd_winner_is_refused_with_a_message(signed_in, playing, winner):
    first, second = at_table(playing, 1)[:2]
    factories.report(playing, 1, first, key="a", game_number=1)
    factories.report(playing, 1, second, key="b", game_number=1)
    game = Game.objects.get()
    response = signed_in.post(url("game_settle", playing.pk, game.pk), {"winner": winner})
    assert response["Location"] == url("table", playing.pk, 1)
    assert messages_after(signed_in, response) == ["Choose who won the game."]
    game.refresh_from_db()
    assert game.status == GameStatus.DISPUTED


def test_settle_a_dispute_and_delete_a_game_with_a_record(signed_in, playing):
    first, second = at_table(playing, 1)[:2]
    factories.report(playing, 1, first, key="a", game_number=1)
    factories.report(playing, 1, second, key="b", game_number=1)
    game = Game.objects.get()
    assert game.status == GameStatus.DISPUTED
    signed_in.post(url("game_settle", playing.pk, game.pk), {"winner": second.pk})
    game.refresh_from_db()
    assert (game.winner, game.status) == (second, GameStatus.SETTLED)
    signed_in.post(url("game_delete", playing.pk, game.pk))
    assert not Game.objects.exists()
    log = signed_in.get(url("corrections", playing.pk)).content.decode()
    assert "Settled a dispute" in log
    # Both claims and the decision, not "second → second".
    assert (
        f"claimed: <bdi>{first.name}</bdi> / <bdi>{second.name}</bdi>; "
        f"decided: <bdi>{second.name}</bdi> won"
    ) in log
    assert f"{second.name} → {second.name}" not in log
    assert "Deleted" in log
    assert "ada" in log
    actions = list(GameCorrection.objects.values_list("action", flat=True))
    assert actions == [CorrectionAction.DELETED, CorrectionAction.SETTLED]


def test_a_dispute_is_settled_with_the_same_buttons_on_the_table_and_close_pages(
    signed_in, playing
):
    first, second = at_table(playing, 1)[:2]
    factories.report(playing, 1, first, key="a", game_number=1)
    factories.report(playing, 1, second, key="b", game_number=1)
    game = Game.objects.get()
    action = url("game_settle", playing.pk, game.pk)

    def settle_controls(page: str) -> list[str]:
        """The winners offered, one button each, in the forms that settle the game."""
        forms = re.findall(rf'<form method="post" action="{action}".*?</form>', page, re.S)
        assert all("<select" not in form for form in forms)
        return [
            search(r"<button[^>]*><bdi>([^<]*)</bdi></button>", form).group(1) for form in forms
        ]

    on_table = settle_controls(signed_in.get(url("table", playing.pk, 1)).content.decode())
    on_close = settle_controls(signed_in.get(url("close_round", playing.pk, 1)).content.decode())
    assert on_table == on_close
    assert sorted(on_table) == sorted(p.name for p in at_table(playing, 1))


def test_the_rounds_disputed_count_links_to_its_table(signed_in, playing):
    first, second = at_table(playing, 2)[:2]
    factories.report(playing, 2, first, key="a", game_number=1)
    factories.report(playing, 2, second, key="b", game_number=1)
    page = signed_in.get(url("event", playing.pk)).content.decode()
    summary = page[page.index('<p class="summary">') :]
    summary = summary[: summary.index("</p>")]
    assert "1 disputed" in summary
    assert f'href="{url("table", playing.pk, 2)}#games">table 2</a>' in summary


def test_another_events_game_is_not_found(signed_in, playing, django_user_model):
    other = factories.start_rounds(
        factories.seated_event(
            owner=factories.make_organizer(django_user_model), players=8, tables=2, name="B"
        )
    )
    factories.report(other, 1, at_table(other, 1)[0])
    game = Game.objects.get()
    assert signed_in.post(url("game_delete", playing.pk, game.pk)).status_code == 404
    assert signed_in.post(url("game_delete", other.pk, game.pk)).status_code == 404
    assert Game.objects.exists()


# --- closing a round ---------------------------------------------------------------------


def test_the_close_page_shows_results_disputes_and_moves(signed_in, playing):
    first, second = at_table(playing, 2)[:2]
    factories.report(playing, 2, first, key="a", game_number=1)
    factories.report(playing, 2, second, key="b", game_number=1)
    factories.report(playing, 3, at_table(playing, 3)[0], game_number=1)
    page = signed_in.get(url("close_round", playing.pk, 1))
    html = page.content.decode()
    assert "Table 2, game 1 is disputed" in html
    assert "1 game was reported by one phone only" in html
    assert "No game reported at table" in html
    assert "Most games: moves up" in html
    assert "Fewest games: moves down" in html
    assert page.context["preview"].version == Event.objects.get(pk=playing.pk).version


def test_the_close_page_names_every_table_without_a_game_in_one_sentence(
    signed_in, playing, whole_messages
):
    factories.report(playing, 2, at_table(playing, 2)[0])
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert (
        "⟦No game reported at tables 1, 3: everybody there has 0 games, so the alphabet "
        "decides who moves.⟧"
    ) in html
    console = signed_in.get(url("event", playing.pk)).content.decode()
    assert "⟦No game reported yet at tables 1, 3.⟧" in console


def test_the_close_page_says_what_happens_to_each_absent_player(signed_in, playing):
    # Table 2: its best player would move up, its worst down; one of each is gone now.
    players = at_table(playing, 2)
    best, worst = players[-1], players[0]
    factories.play_games(playing, {2: [best.name, best.name]})
    factories.report(playing, 2, players[1])
    factories.report(playing, 2, players[2])
    Player.objects.filter(pk=best.pk).update(status=PlayerStatus.ABSENT)
    Player.objects.filter(pk=worst.pk).update(status=PlayerStatus.REMOVED)
    page = signed_in.get(url("close_round", playing.pk, 1))
    assert page.context["absent_notes"] == [
        f"{worst.name} was removed from the roster: their games this round count, but their "
        "move down to table 1 is not applied. If put back, they start at the lowest table.",
        f"{best.name} is absent: their games this round count, but their move up to table 3 "
        "is not applied. When back, they start at the lowest table.",
    ]
    html = page.content.decode()
    assert f"{best.name} is absent: their games this round count" in html
    # The round's results stand: the absent winner keeps first place, so nobody else at
    # table 2 moves up in their stead, and table 3 gets nobody from table 2.
    preview = page.context["preview"]
    assert [m.player for m in preview.moves.values() if m.from_table == 2 and m.to_table == 3] == [
        best.name
    ]
    assert preview.next_sizes[3] == 3  # table 3 keeps 3, sends 1 down, receives nobody


def test_absent_players_are_listed_by_name_ignoring_accents_and_case(signed_in, organizer):
    names = ["zoé", "Émile", "adam", "Bea", "Chris", "Dana", "Ezra", "Fay"]
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=names, tables=2))
    Player.objects.filter(name__in=["zoé", "Émile", "adam"]).update(status=PlayerStatus.ABSENT)
    notes = signed_in.get(url("close_round", event.pk, 1)).context["absent_notes"]
    assert [note.split(" is absent")[0] for note in notes] == ["adam", "Émile", "zoé"]


def test_after_the_last_round_an_absent_players_games_still_count(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    gone = at_table(event, 1)[0]
    factories.play_games(event, {1: [gone.name]})
    Player.objects.filter(pk=gone.pk).update(status=PlayerStatus.ABSENT)
    page = signed_in.get(url("close_round", event.pk, 1))
    assert page.context["absent_notes"] == [f"{gone.name} is absent: their games this round count."]
    assert page.context["preview"].standings[1][gone.name] == 1


def test_the_close_page_refreshes_itself_without_javascript(signed_in, playing):
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in html


def confirmation(preview) -> dict[str, str]:
    """What the close form posts: the fingerprint of the moves shown, and those moves."""
    return {"moves": preview.fingerprint, "shown": preview.seating_text}


def test_confirming_commits_the_moves_shown(signed_in, playing):
    winner = at_table(playing, 2)[-1]
    factories.report(playing, 2, winner)
    preview = signed_in.get(url("close_round", playing.pk, 1)).context["preview"]
    shown = {name: move.to_table for name, move in preview.moves.items()}
    response = signed_in.post(url("close_round", playing.pk, 1), confirmation(preview))
    assert response["Location"] == url("event", playing.pk) + "#tables"
    assert factories.seats_of(playing, 2) == shown
    assert shown[winner.name] == 3


def dispute(event, table_number: int) -> tuple[Player, Player]:
    first, second = at_table(event, table_number)[:2]
    factories.report(event, table_number, first, key="a", game_number=1)
    factories.report(event, table_number, second, key="b", game_number=1)
    return first, second


def test_a_dispute_names_each_report_by_its_arrival(signed_in, playing):
    first, second = dispute(playing, 2)
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    labels = [
        report.label(place)
        for place, report in enumerate(GameReport.objects.order_by("received_at", "pk"), 1)
    ]
    assert labels[0].startswith("first report (")
    assert labels[0].endswith(f": <bdi>{first.name}</bdi>")
    assert labels[1].startswith("second report (")
    assert labels[1].endswith(f": <bdi>{second.name}</bdi>")
    assert f"({labels[0]}; {labels[1]})" in html
    table = signed_in.get(url("table", playing.pk, 2)).content.decode()
    assert labels[1] in table


def test_closing_with_a_dispute_needs_the_tick(signed_in, playing):
    dispute(playing, 2)
    page = signed_in.get(url("close_round", playing.pk, 1))
    html = page.content.decode()
    assert "Close anyway: the disputed game counts for nobody" in html
    assert '<input type="checkbox" name="disputed_ok" value="1" required>' in html
    # Table 2's only game is disputed: listed as a dispute, not as a table without games.
    assert "No game reported at tables 1, 3:" in html
    shown = confirmation(page.context["preview"])
    response = signed_in.post(url("close_round", playing.pk, 1), shown)
    assert response.status_code == 200
    assert [str(m) for m in response.context["site_messages"]] == [
        "1 game is disputed. Settle it, or tick “Close anyway”: it then counts for nobody."
    ]
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.OPEN
    response = signed_in.post(url("close_round", playing.pk, 1), {**shown, "disputed_ok": "1"})
    assert response["Location"] == url("event", playing.pk) + "#tables"
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.CLOSED


def test_the_close_page_asks_no_tick_without_a_dispute(signed_in, playing):
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert "disputed_ok" not in html


def test_the_close_page_warns_while_time_is_left_without_blocking(signed_in, playing):
    page = signed_in.get(url("close_round", playing.pk, 1))
    html = page.content.decode()
    seconds = page.context["seconds_left"]
    assert 4 * 60 < seconds <= 5 * 60
    warning = html.split('class="warn time-left-warning"')[1].split("</p>")[0]
    assert f'<span class="clock" data-clock-seconds="{seconds}">' in warning
    assert "is still on the clock: closing now cuts off the games in play." in warning
    signed_in.post(url("clock", playing.pk, "time-up"))
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert "time-left-warning" not in html
    signed_in.post(url("clock", playing.pk, "add-minute"))
    signed_in.post(url("clock", playing.pk, "pause"))
    html = signed_in.get(url("close_round", playing.pk, 1)).content.decode()
    assert 'data-clock-seconds="60" data-clock-paused><span data-clock-text>1:00</span>' in html
    preview = signed_in.get(url("close_round", playing.pk, 1)).context["preview"]
    response = signed_in.post(url("close_round", playing.pk, 1), confirmation(preview))
    assert response["Location"] == url("event", playing.pk) + "#tables"


def test_undo_the_last_close_from_the_console(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    page = signed_in.get(url("event", playing.pk)).content.decode()
    assert "Undo the close of round 1" in page
    said = messages_after(signed_in, signed_in.post(url("undo_close", playing.pk)))
    assert said[0].startswith("Round 1 is open again")
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.OPEN
    said = messages_after(signed_in, signed_in.post(url("undo_close", playing.pk)))
    assert said == ["No round has been closed yet."]


def test_a_double_click_on_undo_undoes_one_close(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    signed_in.post(url("phase_next", playing.pk), {"phase": "between"})
    factories.close_current_round(playing, organizer)
    page = signed_in.get(url("event", playing.pk)).content.decode()
    assert '<input type="hidden" name="round" value="2">' in page
    said = messages_after(signed_in, signed_in.post(url("undo_close", playing.pk), {"round": 2}))
    assert said[0].startswith("Round 2 is open again")
    said = messages_after(signed_in, signed_in.post(url("undo_close", playing.pk), {"round": 2}))
    assert said == ["The close of round 2 has already been undone."]
    statuses = dict(Round.objects.filter(event=playing).values_list("number", "status"))
    assert statuses == {1: RoundStatus.CLOSED, 2: RoundStatus.OPEN}
    assert len(factories.seats_of(playing, 2)) == 12


def test_undo_with_an_odd_round_is_refused(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    response = signed_in.post(url("undo_close", playing.pk), {"round": "x"})
    assert messages_after(signed_in, response) == ["Choose the round whose close to undo."]
    assert Round.objects.get(event=playing, number=1).status == RoundStatus.CLOSED


def test_undo_is_neither_offered_nor_done_at_the_debrief(signed_in, organizer):
    event = factories.play_until(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1),
        Phase.DEBRIEF,
        by=organizer,
    )
    signed_in.post(url("reveal", event.pk), {"revealed": "1"})
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert url("undo_close", event.pk) not in page
    assert "The debrief has started: the results are final." in page
    said = messages_after(signed_in, signed_in.post(url("undo_close", event.pk), {"round": 1}))
    assert said == ["The debrief has started: the results are final."]
    event.refresh_from_db()
    assert (event.phase, event.rules_revealed) == (Phase.DEBRIEF, True)


def test_after_the_last_round_undo_is_possible_until_the_debrief(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    )
    factories.close_current_round(event, organizer)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Possible while round 2 has no reported game." in page
    signed_in.post(url("phase_next", event.pk), {"phase": "between"})
    close = signed_in.get(url("close_round", event.pk, 2)).content.decode()
    assert "You can undo the close until you start the debrief." in close
    factories.close_current_round(event, organizer)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Possible until you start the debrief: the results are final then." in page
    assert "Possible while" not in page


def test_the_round_panel_says_who_closed_the_round_in_one_sentence(
    signed_in, playing, organizer, whole_messages
):
    factories.close_current_round(playing, organizer)
    closed_at = Round.objects.get(event=playing, number=1).closed_at
    html = signed_in.get(url("event", playing.pk)).content.decode()
    assert f"⟦Round 1 was closed at {closed_at:%H:%M} by ada.⟧" in html


def test_undo_is_refused_once_the_next_round_has_a_game(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    signed_in.post(url("phase_next", playing.pk), {"phase": "between"})
    playing.refresh_from_db()
    factories.report(playing, 1, at_table(playing, 1)[0])
    page = signed_in.get(url("event", playing.pk))
    assert page.context["c"].undo_blocker
    said = messages_after(signed_in, signed_in.post(url("undo_close", playing.pk)))
    assert said == ["Round 2 already has reported games, so the close cannot be undone."]


def test_late_reports_are_accepted_or_dropped(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    ann, ben = at_table(playing, 1, 1)[:2]
    factories.report(playing, 1, ann, round_number=1, key="late-1")
    factories.report(playing, 1, ben, round_number=1, key="late-2")
    page = signed_in.get(url("event", playing.pk))
    late = page.context["c"].late_reports
    assert len(late) == 2
    assert "2 late reports" in page.content.decode()
    signed_in.post(url("report_accept", playing.pk, late[0].pk))
    signed_in.post(url("report_drop", playing.pk, late[1].pk))
    late[0].refresh_from_db()
    late[1].refresh_from_db()
    assert (late[0].state, late[1].state) == (ReportState.ACCEPTED, ReportState.DROPPED)
    assert Game.objects.get(round__number=1).winner == ann
    assert not signed_in.get(url("event", playing.pk)).context["c"].late_reports


def test_the_close_page_asks_to_accept_or_drop_one_held_report_as_one(signed_in, playing):
    factories.report(playing, 1, at_table(playing, 1)[0], phone="roaming")
    factories.report(playing, 2, at_table(playing, 2)[0], game_number=1, phone="roaming")
    close_page = html.unescape(signed_in.get(url("close_round", playing.pk, 1)).content.decode())
    assert "1 report is held for you: it counts only once you accept it." in close_page
    assert ">Accept or drop it in the console</a>" in close_page
    assert "Accept or drop them" not in close_page


def test_held_reports_show_with_their_note_and_are_accepted_or_dropped(
    signed_in, playing, organizer
):
    """A phone that reported at table 1 reports at table 2 and 3: both held, shown with
    the note beside the late reports, each handled from the console."""
    factories.report(playing, 1, at_table(playing, 1)[0], phone="roaming")
    two, three = at_table(playing, 2)[0], at_table(playing, 3)[0]
    factories.report(playing, 2, two, game_number=1, phone="roaming")
    factories.report(playing, 3, three, game_number=1, phone="roaming")

    page = signed_in.get(url("event", playing.pk))
    held = page.context["c"].late_reports
    text = html.unescape(page.content.decode())
    assert [report.state for report in held] == [ReportState.HELD] * 2
    assert "2 reports to check" in text
    assert "This phone reported at table 1 this round." in text
    assert "This phone reported at table 2 this round." in text
    close_page = html.unescape(signed_in.get(url("close_round", playing.pk, 1)).content.decode())
    assert "2 reports are held for you: they count only once you accept them." in close_page
    assert ">Accept or drop them in the console</a>" in close_page

    said = messages_after(signed_in, signed_in.post(url("report_accept", playing.pk, held[0].pk)))
    assert said[0].startswith(f"Accepted: game 1 of round 1 at table 2, won by {two.name}.")
    said = messages_after(signed_in, signed_in.post(url("report_drop", playing.pk, held[1].pk)))
    assert said == ["The report from table 3 was dropped."]
    assert Game.objects.get(table__number=2).winner == two
    assert not Game.objects.filter(table__number=3).exists()
    assert not signed_in.get(url("event", playing.pk)).context["c"].late_reports


# --- the end -----------------------------------------------------------------------------


def test_debrief_and_reveal(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    said = messages_after(signed_in, signed_in.post(url("reveal", event.pk)))
    assert said == ["The rules are revealed at the debrief, after the last round."]
    factories.close_current_round(event, organizer)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Start the debrief" in page
    said = messages_after(signed_in, signed_in.post(url("debrief", event.pk), {"confirmed": "1"}))
    assert said == ["The debrief has started. The results are final."]
    said = messages_after(signed_in, signed_in.post(url("reveal", event.pk), {"revealed": "1"}))
    assert said[-1] == "The projector now shows every table's rules."
    assert Event.objects.get(pk=event.pk).rules_revealed
    signed_in.post(url("reveal", event.pk), {"revealed": "0"})
    assert not Event.objects.get(pk=event.pk).rules_revealed


@pytest.mark.parametrize("rounds_planned", [1, 4])  # on time, or ending early
def test_the_debrief_asks_first_that_undo_ends(signed_in, organizer, rounds_planned):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=rounds_planned)
    )
    factories.close_current_round(event, organizer)
    html = signed_in.get(url("event", event.pk)).content.decode()
    # The console asks in the page (no browser box); its "Yes" posts the confirmation.
    assert "hx-confirm" not in html
    ask = html.split('id="confirm-debrief"')[1].split("</details>")[0]
    assert "undo will no longer be possible" in ask
    form = ask.split(f'action="{url("debrief", event.pk)}"')[1].split("</form>")[0]
    assert '<input type="hidden" name="confirmed" value="1">' in form

    # Without JavaScript the form arrives unconfirmed: a page asks instead. After the
    # last round, "next" from an older page leads to the debrief too: it asks the same.
    unconfirmed = signed_in.post(url("debrief", event.pk))
    assert unconfirmed["Location"] == url("debrief", event.pk)
    if rounds_planned == 1:
        unconfirmed = signed_in.post(url("phase_next", event.pk), {"phase": "between"})
        assert unconfirmed["Location"] == url("debrief", event.pk)
    assert Event.objects.get(pk=event.pk).phase == Phase.BETWEEN_ROUNDS
    step = signed_in.get(url("debrief", event.pk)).content.decode()
    assert "The results become final: undo will no longer be possible." in step
    assert "The close of round 1 cannot be taken back after this." in step
    assert ("Rounds 2 to 4 are not played." in step) == (rounds_planned == 4)
    assert '<input type="hidden" name="confirmed" value="1">' in step

    response = signed_in.post(url("debrief", event.pk), {"confirmed": "1"})
    assert response["Location"] == url("event", event.pk)
    assert Event.objects.get(pk=event.pk).phase == Phase.DEBRIEF
    again = signed_in.get(url("debrief", event.pk))
    assert again["Location"] == url("event", event.pk)


def test_starting_the_next_round_needs_no_confirmation(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    signed_in.post(url("phase_next", playing.pk), {"phase": "between"})
    playing.refresh_from_db()
    assert (playing.phase, playing.round_number) == (Phase.ROUND, 2)


# --- live polling ------------------------------------------------------------------------


def test_polls_answer_304_until_something_changes(signed_in, playing):
    etag = f'"{Event.objects.get(pk=playing.pk).version}"'
    for name, args in (
        ("event_live", [playing.pk]),
        ("table_live", [playing.pk, 1]),
        ("close_round_live", [playing.pk, 1]),
    ):
        page = signed_in.get(url(name, *args), HTTP_IF_NONE_MATCH=etag)
        assert page.status_code == 304, name
    factories.report(playing, 1, at_table(playing, 1)[0])
    page = signed_in.get(url("event_live", playing.pk), HTTP_IF_NONE_MATCH=etag)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="tables" class="panel tables-panel" hx-swap-oob="true"' in html
    version = Event.objects.get(pk=playing.pk).version
    assert f'data-etag="&quot;{version}&quot;"' in html
    table = signed_in.get(url("table_live", playing.pk, 1), HTTP_IF_NONE_MATCH=etag)
    assert table.status_code == 200
    assert 'hx-swap-oob="true"' in table.content.decode()


def poll_url(page) -> str:
    """The URL the console's poller asks, with the section keys the page holds."""
    html = page.content.decode()
    return search(r'id="live-poll"[^>]*hx-get="([^"]+)"', html)[1].replace("&amp;", "&")


def swapped_ids(page) -> set[str]:
    """The ids of the elements a live answer swaps in out of band."""
    return set(re.findall(r'<\w+ [^>]*id="([\w-]+)"[^>]*hx-swap-oob="true"', page.content.decode()))


def test_a_report_at_one_table_re_renders_only_that_tables_card(signed_in, playing):
    held = poll_url(signed_in.get(url("event", playing.pk)))
    factories.report(playing, 2, at_table(playing, 2)[0])
    page = signed_in.get(held)
    assert page.status_code == 200
    # The card and the round panel's totals; not the phase, the late reports, the tables'
    # heading (unchanged), the other tables, nor any section that does not poll (the roster).
    assert swapped_ids(page) == {"table-2", "round-panel"}
    html = page.content.decode()
    assert "1 game" in html
    assert 'id="roster"' not in html
    assert 'id="table-1"' not in html
    # The next poll holds the new keys: with nothing new it is the same small answer.
    again = signed_in.get(poll_url(page))
    assert swapped_ids(again) == {"round-panel"}


def test_a_change_to_the_whole_event_re_renders_the_phase_and_every_table(signed_in, playing):
    held = poll_url(signed_in.get(url("event", playing.pk)))
    signed_in.post(url("clock", playing.pk, "pause"), {"phase": playing.phase_key})
    page = signed_in.get(held)
    assert swapped_ids(page) >= {"phase", "round-panel", "late", "tables"}
    assert 'id="table-3"' in page.content.decode()


def test_a_phone_reaching_a_table_before_play_re_renders_its_card_and_the_heading(
    signed_in, organizer
):
    """Before play the heading counts the phones in all; it is re-sent only when that
    count changes, never on every refresh (a link in it would move from under a click)."""
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    held = poll_url(signed_in.get(url("event", event.pk)))
    assert swapped_ids(signed_in.get(held)) == {"round-panel"}

    note_phone_seen(table_id=factories.table(event, 1).pk, phone="phone-a-0123456789abc")
    flush_sightings()
    page = signed_in.get(held)

    assert swapped_ids(page) == {"tables-head", "table-1", "round-panel"}
    assert "1 phone reached the server" in page.content.decode()


def test_a_late_report_re_renders_the_late_reports_not_the_phase(signed_in, playing, organizer):
    factories.close_current_round(playing, organizer)
    held = poll_url(signed_in.get(url("event", playing.pk)))
    factories.report(playing, 1, at_table(playing, 1, 1)[0], round_number=1)
    page = signed_in.get(held)
    assert swapped_ids(page) == {"late", "table-1", "round-panel"}
    assert "1 late report" in page.content.decode()


def test_a_poll_without_keys_sends_every_live_section(signed_in, playing):
    """A page loaded before the keys existed still gets everything it polls for."""
    page = signed_in.get(url("event_live", playing.pk))
    assert swapped_ids(page) >= {"phase", "round-panel", "late", "tables"}


def test_a_one_minute_phase_is_announced_in_the_singular(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, study_minutes=1)
    response = signed_in.post(url("phase_next", event.pk), {"phase": event.phase_key}, follow=True)
    assert "Study started: 1 minute to read the rules." in response.content.decode()


# --- the debrief's screens on the projector --------------------------------------------------


def debrief_event(organizer) -> Event:
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    return start_debrief(event=event)


def step_form(page: str, label: str) -> str:
    """The slide the step form whose button starts with ``label`` posts."""
    for form in page.split("<form")[1:]:
        if f">{label}" in form:
            return form.split('name="goto" value="')[1].split('"')[0]
    raise AssertionError(f"no {label!r} button")


def test_next_and_back_walk_the_screens_and_the_questions_in_the_running_order(
    signed_in, organizer
):
    event = debrief_event(organizer)
    bank = list(DebriefQuestion.objects.filter(event=event).order_by("position"))
    # Every screen but QUESTION and those of a screen event, every question.
    slides = len(DebriefStep) - 1 - len(SCREEN_EVENT_STEPS) + len(bank)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "The projector shows" in page
    assert "Debrief: the ladder" in page
    assert "Back:" not in page, "nothing before the first screen"
    assert step_form(page, "Next") == f"question:{bank[0].pk}", "the feelings come first"

    said = messages_after(
        signed_in, signed_in.post(url("debrief_step", event.pk), {"goto": step_form(page, "Next")})
    )
    assert said == [f"The projector shows question 1 of {len(bank)}."]
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert f"(step 2 of {slides})" in page
    assert bank[0].text in page, "the console shows the question the room reads"
    assert (step_form(page, "Back"), step_form(page, "Next")) == (
        "step:0",
        f"question:{bank[1].pk}",
    )

    # After the reveal the talk comes back to the questions about real teams.
    signed_in.post(url("debrief_step", event.pk), {"step": "6"})
    assert Event.objects.get(pk=event.pk).debrief_step == DebriefStep.REVEAL
    page = signed_in.get(url("event", event.pk)).content.decode()
    real_world = [q for q in bank if q.stage == Stage.REAL_WORLD]
    assert step_form(page, "Next") == f"question:{real_world[0].pk}"

    signed_in.post(url("debrief_step", event.pk), {"goto": f"question:{real_world[-1].pk}"})
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Next:" not in page, "nothing after the last question"
    assert f"(step {slides} of {slides})" in page


def test_the_jump_list_offers_every_screen_and_question_by_stage(signed_in, organizer):
    event = debrief_event(organizer)
    page = signed_in.get(url("event", event.pk)).content.decode()
    jump = page.split('name="goto">')[1].split("</select>")[0]
    values = re.findall(r'<option value="([^"]+)"', jump)
    questions = DebriefQuestion.objects.filter(event=event)
    assert len(values) == len(DebriefStep) - 1 - len(SCREEN_EVENT_STEPS) + questions.count()
    assert {f"question:{q.pk}" for q in questions} <= set(values)
    assert re.findall(r'<optgroup label="([^"]+)"', jump)[0] == "How it felt"
    assert "selected>Debrief: the ladder" in jump


def test_a_question_of_another_event_is_refused_and_shows_nothing(signed_in, organizer):
    event = debrief_event(organizer)
    other = factories.make_event(owner=organizer, name="Another")
    foreign = other.debrief_questions.first()
    said = messages_after(
        signed_in, signed_in.post(url("debrief_step", event.pk), {"goto": f"question:{foreign.pk}"})
    )
    assert said == ["That question is no longer in the list: choose another one."]
    assert Event.objects.get(pk=event.pk).debrief_step == DebriefStep.OPENING


@pytest.mark.parametrize("goto", ["question:", "question:x", "slide:1", "step:7", "question:-3"])
def test_a_slide_that_cannot_be_is_refused(signed_in, organizer, goto):
    event = debrief_event(organizer)
    said = messages_after(signed_in, signed_in.post(url("debrief_step", event.pk), {"goto": goto}))
    assert said == ["There is no such debrief screen."]
    assert Event.objects.get(pk=event.pk).debrief_step == DebriefStep.OPENING


def test_the_paths_highlight_is_chosen_on_the_console_while_the_paths_show(signed_in, organizer):
    event = debrief_event(organizer)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert 'name="highlight"' not in page, "only beside the paths screen"
    signed_in.post(url("debrief_step", event.pk), {"step": str(DebriefStep.PATHS.value)})
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert 'name="highlight"' in page
    version = Event.objects.get(pk=event.pk).version

    said = messages_after(
        signed_in, signed_in.post(url("debrief_highlight", event.pk), {"highlight": "climbers"})
    )
    assert said == ["Paths chart: The biggest climbers and fallers."]
    event.refresh_from_db()
    assert (event.paths_highlight, event.version > version) == ("climbers", True)

    said = messages_after(
        signed_in, signed_in.post(url("debrief_highlight", event.pk), {"highlight": "lots"})
    )
    assert said == ["Choose which paths to draw bold."]
    assert Event.objects.get(pk=event.pk).paths_highlight == "climbers"


@pytest.mark.parametrize("step", ["7", "-1", "", "²", "1e3"])
def test_a_step_that_does_not_exist_is_refused(signed_in, organizer, step):
    event = debrief_event(organizer)
    said = messages_after(signed_in, signed_in.post(url("debrief_step", event.pk), {"step": step}))
    assert said == ["There is no such debrief screen."]
    assert Event.objects.get(pk=event.pk).debrief_step == DebriefStep.OPENING


def test_the_debrief_screens_wait_for_the_debrief(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    said = messages_after(signed_in, signed_in.post(url("debrief_step", event.pk), {"step": "1"}))
    assert said == ["The debrief screens come after the last round."]


def test_one_table_can_be_revealed_at_a_time(signed_in, organizer):
    event = debrief_event(organizer)
    said = messages_after(signed_in, signed_in.post(url("reveal_table", event.pk), {"table": "2"}))
    assert said == ["The projector now shows table 2's rules."]
    event.refresh_from_db()
    assert (event.debrief_step, event.rules_revealed) == (DebriefStep.REVEAL, False)
    assert list(event.tables.filter(revealed=True).values_list("number", flat=True)) == [2]
    page = signed_in.get(url("event", event.pk)).content.decode()
    select = page.split('name="table"')[1].split("</select>")[0]
    assert 'value="1"' in select
    assert 'value="2"' not in select, "table 2 is out already"

    said = messages_after(signed_in, signed_in.post(url("reveal_table", event.pk), {"table": "9"}))
    assert said == ["There is no table 9."]
    signed_in.post(url("reveal", event.pk), {"revealed": "0"})
    assert not event.tables.filter(revealed=True).exists(), "hiding them all hides each one"
    event.refresh_from_db()
    assert event.debrief_step == DebriefStep.OPENING, "the projector is back where it began"


# The console at the debrief: CONSOLE_QUERIES of test_views_organizer, plus the running
# order's one query (the event's questions), the question shown with the room's answers
# (tournament.reads.debrief_answers), and the tables' timelines (build_debrief's five
# queries and the notes). On PostgreSQL one more: the backups kept in the database.
DEBRIEF_CONSOLE_QUERIES = 22


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_debrief_console_costs_the_same_at_20_and_500_players(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=tables, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    event = start_debrief(event=event)
    question = DebriefQuestion.objects.filter(event=event).order_by("position").last()
    signed_in.post(url("debrief_step", event.pk), {"goto": f"question:{question.pk}"})
    with django_assert_max_num_queries(DEBRIEF_CONSOLE_QUERIES):
        page = signed_in.get(url("event", event.pk)).content.decode()
    assert html.escape(question.text) in page
    with django_assert_max_num_queries(DEBRIEF_CONSOLE_QUERIES):
        assert signed_in.get(url("event_live", event.pk)).status_code == 200
