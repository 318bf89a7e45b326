"""The tricks' story on the console, the projector, the printed report and the records: the
console's page beside the clash map with a trick replayed (names hidden unless asked, with
and without htmx), the projector's step after the clash map only at a screen event, the
report's chart per round, and the downloads."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tables.models import Deal, TakenTrick
from tests import factories
from tests.built_once import built_once
from tests.debrief_screens import AGREED_AFTER, SETTLED_AFTER, story_event
from tests.screen_factories import screen_event
from tests.tournament.writes.test_cofacilitators import join
from tournament.common.errors import Refused
from tournament.models import CoRole, DebriefStep, Event
from tournament.reads.debrief import debrief_slides
from tournament.reads.records import export_event, tricks_csv
from tournament.writes.rounds import advance_phase, start_debrief, step_debrief

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"organizer:{name}", args=args)


@pytest.fixture(scope="module")
def story(django_db_setup, django_db_blocker) -> Iterator[Event]:
    """The story event, built once for the module's tests (tests/built_once.py)."""
    yield from built_once(
        django_db_blocker, lambda: story_event(factories.make_organizer(get_user_model(), "ada"))
    )


@pytest.fixture
def organizer(story):
    """The story's organizer, as the suite's organizer fixture is everywhere else."""
    return get_user_model().objects.get(pk=story.owner_id)


@pytest.fixture
def event(story) -> Event:
    return Event.objects.get(pk=story.pk)


def names_of(event: Event) -> list[str]:
    return list(event.players.values_list("name", flat=True))


def test_the_page_shows_the_story_beside_the_clash_map_and_the_choice(signed_in, event):
    page = signed_in.get(url("debrief_tricks", event.pk)).content.decode()
    assert page.count('class="chart chart-grid"') == 1
    assert page.count('class="chart chart-tricks"') == 1
    assert '<form method="get"' in page
    assert 'hx-get="' in page
    assert "Download this chart (SVG)" in page
    assert not any(name in page for name in names_of(event)), "no name before one is asked"


def test_a_replayed_trick_numbers_the_players_until_the_organizer_shows_their_names(
    signed_in, event
):
    choice = "?round=1&table=1&game=1&trick=1"
    hidden = signed_in.get(url("debrief_tricks", event.pk) + choice).content.decode()
    assert "Player 1" in hidden
    assert "Names are hidden" in hidden
    assert "The players pointed at different cards, then agreed" in hidden
    assert f"after {AGREED_AFTER} s" in hidden
    assert not any(name in hidden for name in names_of(event))
    assert 'class="pad-view"' in hidden, "the game's pad beside its disputed tricks"
    assert "Tricks in disagreement in this game" in hidden
    shown = signed_in.get(url("debrief_tricks", event.pk) + choice + "&names=1").content.decode()
    deal = Deal.objects.get(
        round__event=event, round__number=1, table__number=1, number=1, practice=False
    )
    seated = list(event.players.filter(pk__in=deal.seats).values_list("name", flat=True))
    assert all(f"<bdi>{name}</bdi>" in shown for name in seated)
    assert "Hide the names" in shown


def test_htmx_swaps_the_choice_alone(signed_in, event):
    response = signed_in.get(
        url("debrief_tricks", event.pk) + "?round=1&table=2&game=1&trick=1",
        headers={"HX-Request": "true"},
    )
    part = response.content.decode()
    assert part.lstrip().startswith('<section id="choice"')
    assert "<html" not in part
    assert "Settled by the organizer" in part
    assert f"after {SETTLED_AFTER} s" in part


def test_a_choice_that_names_no_game_says_so(signed_in, event):
    page = signed_in.get(url("debrief_tricks", event.pk) + "?round=1&table=1&game=7")
    assert "Table 1 played no game 7 in round 1." in page.content.decode()


def test_a_room_event_has_no_tricks_to_tell(signed_in, organizer):
    room = factories.seated_event(owner=organizer, players=8, tables=2)
    page = signed_in.get(url("debrief_tricks", room.pk)).content.decode()
    assert "not on screens" in page
    assert "chart-tricks" not in page


def test_another_organizers_event_is_not_found(client, django_user_model, event):
    other = factories.make_organizer(django_user_model)
    client.force_login(other)
    assert client.get(url("debrief_tricks", event.pk)).status_code == 404
    assert client.get(url("tricks_svg", event.pk)).status_code == 404


def test_an_observer_sees_the_story_and_replays_but_downloads_nothing(event):
    observer, _invitation = join(event, CoRole.OBSERVER)
    page = observer.get(url("debrief_tricks", event.pk) + "?round=1&table=1&game=1&trick=1")
    assert page.status_code == 200
    assert "Player 1" in page.content.decode()
    assert "Download this chart" not in page.content.decode()
    assert observer.get(url("tricks_svg", event.pk)).status_code != 200


def test_the_page_costs_the_same_few_queries_whatever_is_chosen(
    signed_in, event, django_assert_max_num_queries
):
    # The session, the user and the event; the story's four; the game's six.
    with django_assert_max_num_queries(14):
        signed_in.get(url("debrief_tricks", event.pk) + "?round=1&table=1&game=1&trick=2&names=1")


# --- the projector ----------------------------------------------------------------------


def test_the_tricks_story_follows_the_clash_map_only_at_a_screen_event(organizer, event):
    steps = [s.step for s in debrief_slides(event) if not s.is_question]
    assert steps[steps.index(DebriefStep.CLASHES) + 1] == DebriefStep.TRICKS
    room = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    room = start_debrief(event=factories.close_current_round(room, organizer))
    assert DebriefStep.TRICKS not in [s.step for s in debrief_slides(room)]
    with pytest.raises(Refused, match="no such debrief screen"):
        step_debrief(event=room, to_step=DebriefStep.TRICKS)


def test_the_projector_shows_the_story_and_no_name(client, event):
    event = step_debrief(event=event, to_step=DebriefStep.TRICKS)
    page = client.get(reverse("projector:screen", args=[event.projector_token])).content.decode()
    assert "The tricks’ story" in page
    assert 'class="chart chart-tricks"' in page
    assert "settled by the organizer" in page
    assert not any(name in page for name in names_of(event))


# --- the report and the records -----------------------------------------------------------


def test_the_report_tells_each_rounds_tricks_after_the_clash_map(signed_in, event):
    page = signed_in.get(url("debrief_report", event.pk)).content.decode()
    assert page.index('id="chart-clashes"') < page.index('id="chart-tricks"')
    assert page.index('id="chart-tricks"') < page.index('id="chart-paths"')
    assert 'id="tricks-round-1"' in page
    assert 'id="tricks-round-2"' in page
    assert 'id="hatch-tricks-1"' in page
    assert "Where tricks were in disagreement" in page
    assert "tricks in disagreement (hatched, with their number)" in page


def test_a_room_events_report_has_no_tricks(signed_in, organizer):
    room = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    room = start_debrief(event=factories.close_current_round(room, organizer))
    page = signed_in.get(url("debrief_report", room.pk)).content.decode()
    assert 'id="chart-tricks"' not in page
    assert "Where games were disputed" in page


def test_the_charts_download_as_svg_every_round_or_one(signed_in, event):
    every = signed_in.get(url("tricks_svg", event.pk))
    assert every["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert every["Content-Disposition"].startswith("attachment;")
    assert every["Content-Disposition"].endswith('-tricks.svg"')
    assert every.content.decode().count('class="round-label"') == 2
    one = signed_in.get(url("tricks_svg", event.pk) + "?round=2")
    assert one["Content-Disposition"].endswith('-tricks-round-2.svg"')
    assert one.content.decode().count('class="round-label"') == 1
    unplayed = signed_in.get(url("tricks_svg", event.pk) + "?round=7")
    assert unplayed["Content-Disposition"].endswith('-tricks.svg"')


def test_the_tricks_csv_gives_the_charts_data(event):
    rows = list(csv.reader(io.StringIO(tricks_csv(export_event(event)).lstrip("\ufeff"))))
    head = rows[0]
    assert head[-3:] == [
        "Pointed at different cards",
        "Settled by the organizer",
        "Seconds to settle",
    ]
    counted = [row for row in rows[1:] if row[head.index("Practice")] == "no"]
    assert (
        len(counted)
        == TakenTrick.objects.filter(deal__round__event=event, deal__practice=False).count()
    )
    first = next(r for r in counted if r[:3] == ["1", "1", "1"] and r[4] == "1")
    assert first[-3:] == ["yes", "no", str(AGREED_AFTER)]
    settled = next(r for r in counted if r[:3] == ["1", "2", "1"])
    assert settled[-3:] == ["yes", "yes", str(SETTLED_AFTER)]


def test_a_screen_event_between_rounds_has_no_story_step_yet(organizer):
    event = factories.start_rounds(screen_event(owner=organizer, rounds_planned=2))
    event = advance_phase(event=factories.close_current_round(event, organizer))
    with pytest.raises(Refused):
        step_debrief(event=event, to_step=DebriefStep.TRICKS)


@pytest.mark.parametrize(
    "query",
    [
        "?round=99999999999999&table=1&game=1",
        "?round=-1&table=%00",
        "?round=1&table=1&game=1&trick=1&names=<b>",
    ],
)
def test_a_choice_nobody_could_make_answers_with_the_page(signed_in, event, query):
    response = signed_in.get(url("debrief_tricks", event.pk) + query)
    assert response.status_code == 200
    assert "<b>" not in response.content.decode()
