"""The console's radar: each reason a table is flagged, the ranking, the thresholds the
organizer sets, and the panel's cost at 20 and 500 players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import GameReport, ReportState
from tests import factories
from tournament.models import Event, Round
from tournament.reads.radar import build_radar
from tournament.writes.rounds import ClockAction, advance_phase, change_clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organizer):
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
    return factories.start_rounds(factories.seated_event(owner=organizer, players=names, tables=3))


def minutes_later(minutes: float):
    return timezone.now() + timedelta(minutes=minutes)


def reasons(event, **kwargs) -> dict[int, list[str]]:
    event = Event.objects.get(pk=event.pk)
    return {line.table: [f.kind for f in line.flags] for line in build_radar(event, **kwargs)}


def test_a_fresh_round_flags_nothing(playing):
    assert reasons(playing) == {}


def test_a_table_without_a_report_for_minutes_is_flagged(playing):
    for number in (1, 2):
        factories.report(playing, number, factories.seated_players(playing, number)[0])
    later = minutes_later(playing.radar_quiet_minutes + 0.5)
    assert reasons(playing, now=later) == {1: ["quiet"], 2: ["quiet"], 3: ["quiet"]}
    assert reasons(playing, now=minutes_later(playing.radar_quiet_minutes - 0.5)) == {}
    # Round 1 started before the reports: table 3, silent since the start, waited longest.
    Round.objects.filter(event=playing).update(started_at=timezone.now() - timedelta(minutes=2))
    lines = build_radar(Event.objects.get(pk=playing.pk), now=later)
    assert lines[0].table == 3
    assert lines[0].flags[0].text == f"No report for {playing.radar_quiet_minutes + 2} min"


def test_the_quiet_threshold_is_the_organizers(playing, signed_in):
    signed_in.post(
        reverse("organizer:radar_settings", args=[playing.pk]),
        {
            "radar_quiet_minutes": 10,
            "radar_newcomer_minutes": 3,
            "radar_streak": 3,
        },
    )
    assert Event.objects.get(pk=playing.pk).radar_quiet_minutes == 10
    assert reasons(playing, now=minutes_later(6)) == {}
    assert set(reasons(playing, now=minutes_later(11))) == {1, 2, 3}


def test_a_bad_threshold_is_refused_and_nothing_changes(playing, signed_in):
    response = signed_in.post(
        reverse("organizer:radar_settings", args=[playing.pk]),
        {
            "radar_quiet_minutes": 0,
            "radar_newcomer_minutes": 3,
            "radar_streak": 3,
        },
    )
    assert response.status_code == 302
    assert Event.objects.get(pk=playing.pk).radar_quiet_minutes == 4


def test_a_paused_clock_silences_the_time_flags(playing):
    change_clock(event=playing, action=ClockAction.PAUSE)
    assert reasons(playing, now=minutes_later(30)) == {}


def test_a_paper_only_event_never_flags_a_silent_table(organizer, signed_in):
    """Its tables hand in their tally sheets at the end of the round: silence is normal."""
    names = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=names, tables=2, paper_only=True)
    )
    assert reasons(event, now=minutes_later(30)) == {}
    panel = signed_in.get(reverse("organizer:radar", args=[event.pk])).content.decode()
    assert "a table's silence is never flagged" in panel
    assert "No report for" not in panel
    # Its time thresholds are kept, unseen, and saving the streak still works.
    assert 'type="hidden" name="radar_quiet_minutes"' in panel
    assert 'type="number" name="radar_streak"' in panel
    signed_in.post(
        reverse("organizer:radar_settings", args=[event.pk]),
        {"radar_quiet_minutes": 4, "radar_newcomer_minutes": 3, "radar_streak": 5},
    )
    assert Event.objects.get(pk=event.pk).radar_streak == 5


def test_disputes_piling_up_rank_first(playing):
    first, second = factories.seated_players(playing, 1)[:2]
    for game in (1, 2):
        factories.report(playing, 1, first, game_number=game)
        factories.report(playing, 1, second, game_number=game)
    factories.report(playing, 2, factories.seated_players(playing, 2)[0])
    lines = build_radar(Event.objects.get(pk=playing.pk), now=minutes_later(5))
    assert lines[0].table == 1
    assert "disputes" in [f.kind for f in lines[0].flags]
    assert "2 disputed games waiting" in [f.text for f in lines[0].flags]


def test_one_disputed_game_is_enough_even_with_the_clock_paused(playing):
    first, second = factories.seated_players(playing, 1)[:2]
    factories.report(playing, 1, first, game_number=1)
    factories.report(playing, 1, second, game_number=1)
    assert reasons(playing) == {1: ["disputes"]}
    change_clock(event=playing, action=ClockAction.PAUSE)
    assert reasons(playing, now=minutes_later(30)) == {1: ["disputes"]}


def test_the_panel_never_says_no_table_needs_you_while_a_dispute_waits(playing, signed_in):
    url = reverse("organizer:radar", args=[playing.pk])
    assert "No table needs you right now." in signed_in.get(url).content.decode()
    first, second = factories.seated_players(playing, 2)[:2]
    factories.report(playing, 2, first, game_number=1)
    factories.report(playing, 2, second, game_number=1)
    page = signed_in.get(url).content.decode()
    assert "No table needs you right now." not in page
    table = reverse("organizer:table", args=[playing.pk, 2])
    # The count itself links to the table's games, where the same buttons settle it.
    assert f'href="{table}#games">1 disputed game waiting</a>' in page


def test_late_reports_waiting_are_counted_at_their_table_and_link_to_them(
    playing, organizer, signed_in
):
    at_two = factories.seated_players(playing, 2)[0]
    event = factories.close_current_round(playing, organizer)
    event = advance_phase(event=Event.objects.get(pk=event.pk))  # round 2 starts
    late = factories.report(event, 2, at_two, round_number=1, game_number=1)
    assert late.report.state == ReportState.LATE
    lines = build_radar(Event.objects.get(pk=event.pk))
    assert [(line.table, [f.text for f in line.flags]) for line in lines] == [
        (2, ["1 late report waiting for you"])
    ]
    page = signed_in.get(reverse("organizer:radar", args=[event.pk])).content.decode()
    console = reverse("organizer:event", args=[event.pk])
    assert f'href="{console}#late">1 late report waiting for you</a>' in page
    # Once accepted it no longer waits.
    GameReport.objects.filter(pk=late.report.pk).update(state=ReportState.ACCEPTED)
    assert build_radar(Event.objects.get(pk=event.pk)) == []


def test_one_player_winning_every_game_is_flagged(playing):
    winner = factories.seated_players(playing, 3)[0]
    for game in (1, 2, 3):
        factories.report(playing, 3, winner, game_number=game)
    at_two = factories.seated_players(playing, 2)
    for game, player in enumerate([at_two[0], at_two[0], at_two[1]], start=1):
        factories.report(playing, 2, player, game_number=game)  # two winners: no streak
    lines = build_radar(Event.objects.get(pk=playing.pk))
    assert [(line.table, [f.kind for f in line.flags]) for line in lines] == [(3, ["streak"])]
    assert lines[0].flags[0].text == f"{winner.name} won all 3 games"


def test_a_table_silent_after_newcomers_arrived_is_flagged(playing, organizer):
    for number in (1, 2, 3):
        factories.report(playing, number, factories.seated_players(playing, number)[0])
    event = factories.close_current_round(playing, organizer)
    event = advance_phase(event=Event.objects.get(pk=event.pk))  # round 2 starts
    assert (event.phase, event.round_number) == ("round", 2)
    # Round 2: players moved to every table; only table 2 has reported since.
    factories.report(event, 2, factories.seated_players(event, 2)[0])
    flagged = reasons(event, now=minutes_later(event.radar_newcomer_minutes + 0.5))
    assert flagged[1] == ["newcomers"]
    assert flagged[3] == ["newcomers"]
    assert 2 not in flagged  # it reported
    # Below the quiet threshold a table without newcomers would not be flagged at all.
    lines = build_radar(event, now=minutes_later(event.radar_newcomer_minutes + 0.5))
    assert all(line.weight >= 30 for line in lines)


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_radar_panel_costs_the_same_at_20_and_500_players(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=tables)
    )
    for number in range(1, tables + 1, 2):
        first, second = factories.seated_players(event, number)[:2]
        factories.report(event, number, first, game_number=1)
        factories.report(event, number, second, game_number=1)
        factories.report(event, number, first, game_number=2)
        factories.report(event, number, second, game_number=2)
    Round.objects.filter(event=event).update(started_at=timezone.now() - timedelta(minutes=30))
    # The session and user, the event (and its access), the radar's five.
    with django_assert_max_num_queries(8):
        response = signed_in.get(reverse("organizer:radar", args=[event.pk]))
    page = response.content.decode()
    assert page.count('class="radar-rank"') == tables  # every table: disputes or quiet
    assert page.index("disputed games waiting") < page.index("No report for")
