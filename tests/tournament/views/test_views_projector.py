"""The projector page: a secret read-only link, polled cheaply, that never spoils the rules."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.rules.variants import Variant, rule_lines
from tests import factories
from tournament.common.polling import poll_trigger
from tournament.models import DebriefQuestion, DebriefStep, Event, Seat, SeatReason
from tournament.rules.debrief_questions import DEFAULT_BANK
from tournament.writes.debrief_bank import edit_question, set_paths_highlight, show_question
from tournament.writes.rounds import (
    advance_phase,
    reveal_rules,
    reveal_table,
    start_debrief,
    step_debrief,
)

pytestmark = pytest.mark.django_db

# One bound for every screen and every size: a page must not cost more with more players.
FULL_RENDER_QUERIES = 5
# What the projector says when a round's time is up: the same words as the phones.
TIME_UP = "Time is up: finish the trick in play, then report."
# Words and symbols that would give a table's variant away.
VARIANT_GIVEAWAY = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|trump|[♥♦♣♠∅]|fewest\s+tricks"
    r"|play\s+higher",
    re.IGNORECASE,
)


def screen_url(event: Event, view: str | None = None) -> str:
    url = reverse("projector:screen", args=[event.projector_token])
    return f"{url}?view={view}" if view else url


def poll(client, event: Event, etag: str | None = None, view: str | None = None):
    headers = {"HX-Request": "true"}
    if etag:
        headers["If-None-Match"] = etag
    return client.get(screen_url(event, view), headers=headers)


def etag_in(response) -> str:
    match = re.search(r'data-etag="([^"]+)"', response.content.decode())
    assert match, "the polled element must carry its ETag"
    return html.unescape(match.group(1))


def text_of(response) -> str:
    """The page's visible text and attribute values, tags dropped (the SVG paths too)."""
    body = response.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'\sd="[^"]*"', " ", body)  # SVG path data is letters and numbers
    return html.unescape(body)


def walk_event(event: Event) -> Iterator[str]:
    """Take a seated event through every phase, with games reported, naming each state."""
    yield "setup"
    event = advance_phase(event=event)
    yield "study"
    event = advance_phase(event=event)
    yield "practice"
    event = advance_phase(event=event)
    while True:
        number = event.round_number
        yield f"round {number}"
        for table_number in (1, 2):
            names = factories.seated_names(event, table_number)
            factories.report(event, table_number, names[number % len(names)])
        yield f"round {number} with games"
        event.refresh_from_db()
        event.end_clock_now()
        event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])
        yield f"round {number} time up"
        event = factories.close_current_round(event, event.owner)
        if event.is_last_round:
            yield "final results"
            break
        yield f"moves after round {number}"
        event = advance_phase(event=event)
    start_debrief(event=event)
    yield "debrief"


# --- access -----------------------------------------------------------------------------


def test_anyone_with_the_link_sees_the_screen_without_signing_in(client, event):
    response = client.get(screen_url(event))

    assert response.status_code == 200
    assert event.name in response.content.decode()


def test_a_wrong_link_answers_a_friendly_404(client):
    wrong = reverse("projector:screen", args=["not-the-token"])

    response = client.get(wrong)

    assert response.status_code == 404
    assert "copy its projector link again" in response.content.decode()
    assert client.get(wrong, headers={"HX-Request": "true"}).status_code == 404


def test_the_screen_is_read_only(client, event):
    assert client.post(screen_url(event)).status_code == 405


def test_setup_shows_the_event_name_and_a_qr_code_to_the_players_page(client, event, settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"

    page = client.get(screen_url(event)).content.decode()

    players_url = "http://192.168.1.20:8000" + reverse(
        "phone:player_home", args=[event.players_token]
    )
    assert event.name in page
    assert players_url in page
    assert '<figure class="players-qr"><svg' in page


# --- polling ----------------------------------------------------------------------------


def test_the_page_polls_its_stage_while_visible_and_works_without_javascript(client, event):
    page = client.get(screen_url(event)).content.decode()

    assert f'hx-trigger="{html.escape(poll_trigger())}"' in page
    assert "js/poll.js" in page
    assert "js/clock.js" in page
    assert '<noscript><meta http-equiv="refresh"' in page


def test_the_polled_stage_carries_the_etag_its_poll_answers_with(client, event):
    response = poll(client, event)

    assert response.status_code == 200
    assert response["ETag"] == etag_in(response)
    assert "<html" not in response.content.decode(), "a poll answers the stage alone"


def test_an_unchanged_poll_answers_304_after_at_most_two_queries(
    client, organizer, django_assert_max_num_queries
):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=20, tables=5))
    etag = etag_in(client.get(screen_url(event)))

    with django_assert_max_num_queries(2):
        response = poll(client, event, etag)

    assert response.status_code == 304
    assert response.content == b""


def test_a_reload_is_never_answered_304_because_the_clock_moved_on(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    etag = etag_in(client.get(screen_url(event)))

    response = client.get(screen_url(event), headers={"If-None-Match": etag})

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_a_reported_game_changes_the_answer_to_the_next_poll(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    winner = factories.seated_names(event, 1)[2]
    etag = etag_in(client.get(screen_url(event)))
    assert poll(client, event, etag).status_code == 304

    factories.report(event, 1, winner)
    response = poll(client, event, etag)

    assert response.status_code == 200
    assert etag_in(response) != etag
    page = response.content.decode()
    assert re.search(rf'{re.escape(winner)}</bdi><span class="games">1</span>', page)


def test_a_phase_change_changes_the_answer_to_the_next_poll(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    etag = etag_in(client.get(screen_url(event)))

    advance_phase(event=event)
    response = poll(client, event, etag)

    assert response.status_code == 200
    assert "screen-study" in response.content.decode()


def test_the_ladder_view_has_its_own_etag(client, event):
    stage, ladder = poll(client, event), poll(client, event, view="ladder")

    assert etag_in(stage) != etag_in(ladder)
    assert poll(client, event, etag_in(stage), view="ladder").status_code == 200


# --- query counts -----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_every_screen_costs_the_same_few_queries_at_any_size(
    client, organizer, django_assert_max_num_queries, players, tables
):
    event = factories.seated_event(owner=organizer, players=players, tables=tables)
    for state in walk_event(event):
        for view in (None, "ladder"):
            with django_assert_max_num_queries(FULL_RENDER_QUERIES, info=state):
                assert client.get(screen_url(event, view)).status_code == 200
            with django_assert_max_num_queries(FULL_RENDER_QUERIES + 1, info=state):
                assert poll(client, event, view=view).status_code == 200


def test_query_counts_do_not_grow_with_the_number_of_players(client, organizer):
    def counts(players: int, tables: int) -> dict[str, int]:
        event = factories.seated_event(
            owner=organizer, name=f"Event of {players}", players=players, tables=tables
        )
        measured = {}
        for state in walk_event(event):
            with CaptureQueriesContext(connection) as queries:
                client.get(screen_url(event))
            measured[state] = len(queries)
        return measured

    assert counts(20, 5) == counts(500, 125)


# --- never a variant before the reveal ----------------------------------------------------


def test_no_screen_shows_a_variant_before_the_reveal(client, organizer):
    event = factories.seated_event(owner=organizer, players=20, tables=5)
    crawled = []
    for state in walk_event(event):
        for view in (None, "ladder"):
            for response in (client.get(screen_url(event, view)), poll(client, event, view=view)):
                assert response.status_code == 200
                giveaway = VARIANT_GIVEAWAY.search(text_of(response))
                assert giveaway is None, f"{state}: {giveaway.group()!r} shown"
            crawled.append(state)
    assert {"setup", "study", "practice", "round 1", "final results", "debrief"} <= set(crawled)


def test_the_reveal_shows_every_tables_variant_and_hiding_them_again_hides_them(client, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3, rounds_planned=1)
    event = factories.start_rounds(event)
    event = factories.close_current_round(event, organizer)
    start_debrief(event=event)
    etag = etag_in(client.get(screen_url(event)))

    event = reveal_rules(event=event)
    revealed = poll(client, event, etag)

    assert revealed.status_code == 200
    page = text_of(revealed)
    for table in event.tables.all():
        assert table.variant.trump.symbol in page
        assert ("Ace high" if table.ace_high else "Ace low") in page
    assert "hx-trigger" in revealed.content.decode(), "the organizer can still hide them"

    reveal_rules(event=event, revealed=False)
    hidden = poll(client, event, etag_in(revealed))
    assert VARIANT_GIVEAWAY.search(text_of(hidden)) is None


def revealed_event(organizer, *, tables: int, anytime: tuple[int, ...] = ()) -> Event:
    event = factories.seated_event(
        owner=organizer, players=tables * 3, tables=tables, rounds_planned=1
    )
    event.tables.update(trump_anytime=False)
    event.tables.filter(number__in=anytime).update(trump_anytime=True)
    event = factories.close_current_round(factories.start_rounds(event), organizer)
    return reveal_rules(event=start_debrief(event=event))


def test_every_rule_card_keeps_a_line_for_trump_any_time_when_one_has_it(client, organizer):
    event = revealed_event(organizer, tables=4, anytime=(2,))

    page = client.get(screen_url(event)).content.decode()

    assert page.count('class="rule-card') == 4
    assert page.count('<p class="rule-extra">') == 4, "the lines sit at the same heights"
    assert page.count('class="rule-clause"') == 1
    assert "has-extras" in page
    assert "--columns: 2; --rows: 2;" in page, "four cards fill the screen two by two"


def test_the_reveal_of_a_mixed_event_gives_each_clause_its_one_line_meaning(client, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=4, rounds_planned=1)
    codes = ["high-hearts-fewest", "low-notrump", "high-clubs-broken", "low-spades-overtake"]
    for table, code in zip(event.tables.order_by("number"), codes, strict=True):
        table.set_variant(Variant.from_code(code))
        table.save()
    event = factories.close_current_round(factories.start_rounds(event), organizer)
    event = reveal_rules(event=start_debrief(event=event))

    page = html.unescape(client.get(screen_url(event)).content.decode())

    assert page.count('<p class="rule-extra">') == 4, "the lines sit at the same heights"
    assert page.count('class="rule-clause"') == 4
    for line in (
        "Fewest tricks wins the game",
        "No trump: only the suit that was led can win a trick",
        "Trumps may not be led until someone has trumped a trick",
        "Must beat the best card of the suit so far, if you can",
    ):
        assert line in page
    assert "is-no-trump" in page
    assert "∅" in page


def test_rule_cards_without_trump_any_time_keep_no_empty_line(client, organizer):
    page = client.get(screen_url(revealed_event(organizer, tables=3))).content.decode()

    assert '<p class="rule-extra">' not in page
    assert "--columns: 3; --rows: 1;" in page


def test_many_tables_rules_page_through_saying_which_tables_show(client, organizer):
    page = client.get(screen_url(revealed_event(organizer, tables=24))).content.decode()

    # 12 cards a page without clause lines (tournament/reads/projector/rule_cards.py).
    assert page.count('class="rules-page') == 2
    assert 'data-label="Tables 1–12"' in page
    assert 'data-label="Tables 13–24"' in page
    assert "<span data-pager-label>Tables 1–12</span>" in page


# --- what each screen says --------------------------------------------------------------


def test_time_up_is_shown_by_the_server_too(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])

    page = client.get(screen_url(event)).content.decode()

    assert "is-time-up" in page
    assert 'data-clock-seconds="0"' in page


def test_a_paused_clock_says_so(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    event.pause_clock()
    event.save_and_bump(["clock_paused_remaining"])

    page = client.get(screen_url(event)).content.decode()

    assert "data-clock-paused" in page
    assert "Paused" in page


def test_a_clock_paused_at_zero_shows_time_up_without_paused(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    event.end_clock_now()
    event.pause_clock()  # the organizer pressed Pause after time ran out
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])

    page = client.get(screen_url(event)).content.decode()

    assert "is-time-up" in page
    assert TIME_UP in page
    assert "Paused" not in page
    assert "data-clock-paused" not in page
    assert "is-paused" not in page


def test_the_moves_screen_shows_each_player_leaving_going_and_why(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))
    winner = factories.seated_names(event, 2)[1]
    factories.report(event, 2, winner)
    event = factories.close_current_round(event, event.owner)

    page = client.get(screen_url(event)).content.decode()

    row = re.search(rf"{re.escape(winner)}</bdi>.*?</li>", page, re.S).group()
    assert "to table </span>3" in row
    assert str(SeatReason.MOVES_UP.label) in row
    assert "▲" in row
    assert re.search(r"<b>1</b>\s*game\b", row), "games won say they are games"
    assert "Moves for round 2" in page
    for number in range(1, 13):
        assert f"Player {number:03d}" in page


def test_every_column_of_moves_says_the_big_number_is_the_table_to_go_to(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=100, tables=25))
    event = factories.close_current_round(event, event.owner)

    page = client.get(screen_url(event)).content.decode()

    columns = page.count('class="board-column"')
    assert columns >= 2
    head = '<p class="column-head" aria-hidden="true"><span>to table</span></p>'
    assert page.count(head) == columns


TIE_WORDS = "a tie in games, broken alphabetically, decided this move"


def moves_with_ties(organizer, tied: set[str]) -> Event:
    """The moves screen after round 1, where the seats in `tied` say a tie decided them."""
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))
    event = factories.close_current_round(event, event.owner)
    seats = Seat.objects.filter(round__event=event, round__number=2)
    seats.update(tie_broken=False)
    seats.filter(player__name__in=tied).update(tie_broken=True)
    return event


def test_the_star_marks_exactly_the_moves_a_tie_decided(client, organizer):
    event = moves_with_ties(organizer, {"Player 003"})

    page = client.get(screen_url(event)).content.decode()

    starred = [row for row in rows_in(page) if "★" in row]
    assert len(starred) == 1
    assert "Player 003" in starred[0]
    assert f'<span class="tie" title="{TIE_WORDS}"><span aria-hidden="true">★</span>' in starred[0]
    assert f'<span class="visually-hidden">{TIE_WORDS}</span>' in starred[0], "heard too"
    legend = re.search(r'<footer class="legend">.*?</footer>', page, re.S).group()
    assert re.search(rf"★</span>\s*{TIE_WORDS}</span>", legend)


def test_without_a_deciding_tie_there_is_no_star_and_no_word_about_ties(client, organizer):
    page = client.get(screen_url(moves_with_ties(organizer, set()))).content.decode()

    assert "★" not in page
    assert TIE_WORDS not in page
    assert all('<span class="tie"></span>' in row for row in rows_in(page)), "columns line up"


def rows_in(page: str) -> list[str]:
    return re.findall(r'<li class="row[^"]*">.*?</li>', page, re.S)


def test_a_winner_at_the_top_table_stays_under_a_mark_other_than_the_star(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))
    leader = factories.seated_names(event, 3)[1]
    factories.report(event, 3, leader)
    event = factories.close_current_round(event, event.owner)

    page = client.get(screen_url(event)).content.decode()

    row = re.search(rf"{re.escape(leader)}</bdi>.*?</li>", page, re.S).group()
    assert str(SeatReason.STAYS_AT_TOP.label) in row
    assert '<span class="mark" aria-hidden="true">△</span>' in row
    assert '<span class="tie"></span>' in row or "★" not in row, "a tie mark only for a tie"
    legend = re.search(r'<footer class="legend">.*?</footer>', page, re.S).group()
    assert re.search(r"△</span>\s*Most games at the top table: stays", legend)


def test_the_ladder_shows_every_player_and_their_climb(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=12, tables=3))
    climber = factories.seated_names(event, 1)[0]
    factories.report(event, 1, climber)
    event = factories.close_current_round(event, event.owner)

    page = client.get(screen_url(event, "ladder")).content.decode()

    row = re.search(rf"{re.escape(climber)}</bdi>.*?</li>", page, re.S).group()
    assert 'class="climb is-up"' in row
    assert "The room’s ladder" in page


def test_the_ladder_says_each_climb_in_words_to_a_screen_reader(client, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=12, tables=3, rounds_planned=3)
    )
    climber = factories.seated_names(event, 1)[0]
    factories.report(event, 1, climber)
    event = factories.close_current_round(event, organizer)
    event = advance_phase(event=event)
    factories.report(event, 2, climber)
    event = factories.close_current_round(event, organizer)

    page = client.get(screen_url(event, "ladder")).content.decode()

    row = re.search(rf"{re.escape(climber)}</bdi>.*?</li>", page, re.S).group()
    assert '<span class="visually-hidden">up 2 tables</span>' in row
    assert '<span aria-hidden="true"><span class="climb-arrow">▲</span>2</span>' in row
    assert '<span class="visually-hidden">down 1 table</span>' in page
    assert '<span class="visually-hidden">same table</span>' in page


# --- every name in full -------------------------------------------------------------------

LONGEST = "Oluwaseun Van der Berg-Castellanos Okafor"[:40]  # as long as a name may be


def rename(event: Event, table_number: int, names: list[str]) -> None:
    for player, name in zip(factories.seated_players(event, table_number), names, strict=False):
        player.name = name
        player.save(update_fields=["name"])


def test_sixty_players_at_fifteen_tables_each_find_their_whole_name(client, organizer):
    event = factories.seated_event(owner=organizer, players=60, tables=15)
    rename(event, 8, ["Hannah Abara", "Hannah Zeller"])
    rename(event, 3, [LONGEST])
    event = factories.start_rounds(event)
    round_page = client.get(screen_url(event)).content.decode()
    event = factories.close_current_round(event, organizer)

    moves_page = client.get(screen_url(event)).content.decode()

    for page in (round_page, moves_page):
        for name in ("Hannah Abara", "Hannah Zeller", LONGEST):
            assert page.count(f'<bdi class="name">{name}</bdi>') == 1
        assert not any("…" in row for row in rows_in(page))
        for number in range(1, 61):
            if f"Player {number:03d}" in page:
                assert f'<bdi class="name">Player {number:03d}</bdi>' in page


def test_a_board_that_pages_counts_its_pages_without_announcing_each_turn(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=150, tables=38))

    page = client.get(screen_url(event)).content.decode()

    pager = re.search(r'<p class="pager".*?</p>', page, re.S).group()
    assert "aria-live" not in pager
    assert re.search(r"page <span data-pager-number>1</span> of \d", pager)


# --- what the room is told ----------------------------------------------------------------

SILENCE_RULES = (
    "No talking",
    "No written words",
    "No sign language",
    "Gestures are fine",
    "Drawings are fine",
)


def silence_rule_in(page: str) -> bool:
    note = re.search(r'<div class="silence" role="note".*?</ul>', page, re.S)
    return note is not None and all(
        f"<span>{rule}</span>" in note.group() for rule in SILENCE_RULES
    )


def test_study_says_talking_is_allowed_then_silence_and_the_guide_in_brief(client, organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=8, tables=2))

    page = text_of(client.get(screen_url(event)))

    for words in (
        "Study the rules and play practice games",
        "Talking is allowed",
        "Then the rules are taken away and silence begins:",
        "Most tricks wins.",
        "Cut off by the clock: most tricks so far.",
        "Most games wins.",
        "Most games: up a table.",
        "Fewest games: down a table.",
        "More than 4 at a table: two each way.",
        "Winners at the top table and losers at the bottom table stay.",
        "Alphabetical order.",
    ):
        assert words in page, words
    assert silence_rule_in(page), "the rule that starts when study ends"


def test_practice_and_rounds_state_the_whole_silence_rule(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    event = advance_phase(event=advance_phase(event=event))
    practice = client.get(screen_url(event)).content.decode()
    event = advance_phase(event=event)
    round_page = client.get(screen_url(event)).content.decode()

    assert "Practice at your home table, in silence" in practice
    assert silence_rule_in(practice)
    assert silence_rule_in(round_page)


def test_time_up_in_a_round_says_what_the_phones_say(client, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    event.end_clock_now()
    event.save_and_bump(["clock_ends_at", "clock_paused_remaining"])

    page = client.get(screen_url(event)).content.decode()

    assert TIME_UP in page
    assert "Stop playing" not in page


def test_every_screen_has_exactly_one_main_heading(client, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=2)
    for state in walk_event(event):
        for view in (None, "ladder"):
            page = client.get(screen_url(event, view)).content.decode()
            assert page.count("<h1") == 1, (state, view)
    event.refresh_from_db()
    reveal_rules(event=event)
    assert client.get(screen_url(event)).content.decode().count("<h1") == 1, "rules"
    wrong = client.get(reverse("projector:screen", args=["wrong"])).content.decode()
    assert wrong.count("<h1") == 1


# --- the debrief's screens ------------------------------------------------------------------

# Words that name one table's rules (the clash map may say which *kinds* of rules met:
# "ace-high and ace-low players", "the trump rules", never whose).
VARIANT_OF_A_TABLE = re.compile(
    r"ace\s+high|ace\s+low|hearts|diamonds|clubs|spades|[♥♦♣♠]|trump:", re.IGNORECASE
)
DEBRIEF_SCREENS = {
    DebriefStep.OPENING: "Debrief",
    DebriefStep.DISPUTES: "Where games were disputed",
    DebriefStep.CLASHES: "Which rules met at each table",
    DebriefStep.PATHS: "Every player’s path",
    DebriefStep.FLOW: "Moves between tables",
    DebriefStep.RESULTS: "Final results",
    DebriefStep.REVEAL: "Each table’s rules",
}


def debriefed_event(organizer, *, players: int = 12, tables: int = 3) -> Event:
    event = factories.seated_event(owner=organizer, players=players, tables=tables)
    for _state in walk_event(event):
        pass
    event.refresh_from_db()
    return event


def main_heading(response) -> str:
    match = re.search(r"<h1>(.*?)</h1>", response.content.decode(), re.S)
    assert match
    return html.unescape(match.group(1)).strip()


def test_each_debrief_step_shows_its_screen_and_the_poll_follows(client, organizer):
    event = debriefed_event(organizer)
    first = client.get(screen_url(event))
    assert main_heading(first) == DEBRIEF_SCREENS[DebriefStep.OPENING]
    etag = etag_in(first)
    # Forward through every screen, then back to the first.
    for step in [*list(DEBRIEF_SCREENS)[1:], DebriefStep.OPENING]:
        heading = DEBRIEF_SCREENS[step]
        event = step_debrief(event=event, to_step=step)
        response = poll(client, event, etag)
        assert response.status_code == 200, "a new step is news to the projector"
        assert main_heading(response) == heading
        etag = etag_in(response)


def test_no_debrief_screen_names_a_tables_rules_before_the_reveal(client, organizer):
    event = debriefed_event(organizer)
    for step in DEBRIEF_SCREENS:
        if step == DebriefStep.REVEAL:
            continue
        event = step_debrief(event=event, to_step=step)
        for highlight in ("", "?highlight=climbers"):
            page = text_of(client.get(screen_url(event) + highlight))
            giveaway = VARIANT_OF_A_TABLE.search(page)
            assert giveaway is None, f"{step.label}: {giveaway.group()!r} shown"
            if step in (DebriefStep.OPENING, DebriefStep.RESULTS):
                assert VARIANT_GIVEAWAY.search(page) is None


def test_stepping_to_the_reveal_reveals_nothing_until_the_organizer_does(client, organizer):
    event = step_debrief(event=debriefed_event(organizer), to_step=DebriefStep.REVEAL)

    waiting = client.get(screen_url(event))
    assert VARIANT_GIVEAWAY.search(text_of(waiting)) is None
    assert "Which rules did each table play?" in text_of(waiting)

    reveal_table(event=event, table_number=2)
    one = text_of(client.get(screen_url(event)))
    page = client.get(screen_url(event)).content.decode()
    assert page.count('class="rule-card') == 1
    table = factories.table(event, 2)
    assert rule_lines(table.variant)[0] in one
    assert f"Trump: {table.variant.trump.value}" in one


def test_the_reveal_says_each_difference_in_a_line(client, organizer):
    event = revealed_event(organizer, tables=2, anytime=(2,))
    page = text_of(client.get(screen_url(event)))
    for table in event.tables.all():
        for line in rule_lines(table.variant):
            assert line in page
    assert "Trumps may be played at any time" in page


def test_the_disputes_map_has_a_cell_per_table_round_with_its_disputes(client, organizer):
    event = step_debrief(event=debriefed_event(organizer), to_step=DebriefStep.DISPUTES)
    page = client.get(screen_url(event)).content.decode()
    cells = re.findall(r'class="cell" data-table="(\d+)" data-round="(\d+)"', page)
    assert len(cells) == 3 * event.rounds_planned
    assert "disputed games" in text_of(client.get(screen_url(event)))


def test_the_clash_map_says_its_sentence(client, organizer):
    event = step_debrief(event=debriefed_event(organizer), to_step=DebriefStep.CLASHES)
    page = text_of(client.get(screen_url(event)))
    assert "Disputes came at" in page or "No table-round brought" in page
    assert "ace-high and ace-low players met" in page


@pytest.mark.parametrize(
    ("highlight", "bold"), [("", 0), ("?highlight=climbers", 1), ("?highlight=2", 1)]
)
def test_the_paths_screen_draws_a_path_per_player_and_highlights_on_request(
    client, organizer, highlight, bold
):
    event = step_debrief(event=debriefed_event(organizer), to_step=DebriefStep.PATHS)
    response = client.get(screen_url(event) + highlight)
    page = response.content.decode()
    assert len(re.findall(r'<g class="path[ "]', page)) == 12, "one path per player"
    assert bool(page.count("is-highlighted")) == bool(bold)
    if highlight:
        assert f'hx-get="{screen_url(event)}{highlight}"' in page, "the poll keeps the highlight"


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_every_debrief_screen_costs_the_same_few_queries_at_any_size(
    client, organizer, django_assert_max_num_queries, players, tables
):
    event = debriefed_event(organizer, players=players, tables=tables)
    for step in DEBRIEF_SCREENS:
        event = step_debrief(event=event, to_step=step)
        with django_assert_max_num_queries(FULL_RENDER_QUERIES + 5, info=step.label):
            assert client.get(screen_url(event)).status_code == 200


# --- the debrief's questions --------------------------------------------------------------


def questions_of(event: Event) -> list[DebriefQuestion]:
    return list(DebriefQuestion.objects.filter(event=event).order_by("position"))


def question_heading(response) -> str:
    match = re.search(r'<h1 class="question-text[^"]*">(.*?)</h1>', response.content.decode(), re.S)
    assert match, "the question is the page's one heading"
    return html.unescape(match.group(1)).strip()


def test_a_question_stands_alone_with_its_stage_and_number_and_the_poll_follows(client, organizer):
    event = debriefed_event(organizer)
    first, second = questions_of(event)[:2]
    etag = etag_in(client.get(screen_url(event)))

    show_question(event=event, question_id=first.pk)
    response = poll(client, event, etag)
    assert response.status_code == 200, "a question shown is news to the projector"
    assert question_heading(response) == first.text
    page = text_of(response)
    assert "How it felt" in page
    assert f"Question 1 of {len(DEFAULT_BANK)}" in page
    assert 'class="board' not in response.content.decode(), "no ladder behind the question"
    etag = etag_in(response)

    show_question(event=event, question_id=second.pk)
    response = poll(client, event, etag)
    assert question_heading(response) == second.text
    assert f"Question 2 of {len(DEFAULT_BANK)}" in text_of(response)
    etag = etag_in(response)

    edit_question(question=second, text="What surprised you most?", stage=second.stage)
    response = poll(client, event, etag)
    assert question_heading(response) == "What surprised you most?", "an edit shows at once"
    assert poll(client, event, etag_in(response)).status_code == 304


def test_no_default_question_names_a_tables_rules(client, organizer):
    event = debriefed_event(organizer)
    for question in questions_of(event):
        event = Event.objects.get(pk=event.pk)
        show_question(event=event, question_id=question.pk)
        page = text_of(client.get(screen_url(event)))
        assert question.text in page
        giveaway = VARIANT_GIVEAWAY.search(page)
        assert giveaway is None, f"{question.text}: {giveaway.group()!r}"


def test_a_long_question_is_set_a_size_smaller(client, organizer):
    event = debriefed_event(organizer)
    question = questions_of(event)[0]
    edit_question(question=question, text="Why? " * 40, stage=question.stage)
    show_question(event=event, question_id=question.pk)
    page = client.get(screen_url(event)).content.decode()
    assert 'class="question-text is-long"' in page


def test_the_paths_highlight_follows_the_console_unless_the_link_asks_otherwise(client, organizer):
    event = step_debrief(event=debriefed_event(organizer), to_step=DebriefStep.PATHS)
    assert "is-highlighted" not in client.get(screen_url(event)).content.decode()
    etag = etag_in(client.get(screen_url(event)))
    event = set_paths_highlight(event=event, highlight="climbers")
    response = poll(client, event, etag)
    assert response.status_code == 200, "the console's choice is news to the projector"
    assert "is-highlighted" in response.content.decode()
    assert "is-highlighted" not in client.get(screen_url(event) + "?highlight=0").content.decode()


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_question_screen_costs_the_same_few_queries_at_any_size(
    client, organizer, django_assert_max_num_queries, players, tables
):
    event = debriefed_event(organizer, players=players, tables=tables)
    show_question(event=event, question_id=questions_of(event)[-1].pk)
    with django_assert_max_num_queries(2, info="the event, then its questions"):
        response = client.get(screen_url(event))
    assert response.status_code == 200
    assert f"Question {len(DEFAULT_BANK)} of {len(DEFAULT_BANK)}" in text_of(response)
    with django_assert_max_num_queries(3, info="the version, the event, its questions"):
        assert poll(client, event).status_code == 200


def test_a_question_gone_leaves_the_projector_on_a_plain_debrief_title(client, organizer):
    event = debriefed_event(organizer)
    question = questions_of(event)[0]
    show_question(event=event, question_id=question.pk)
    DebriefQuestion.objects.filter(pk=question.pk).delete()  # not through the bridge
    response = client.get(screen_url(event))
    assert response.status_code == 200
    assert question_heading(response) == "Debrief"
    assert "Question " not in text_of(response)
