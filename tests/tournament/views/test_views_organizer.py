"""Organizer console, preparing an event: who may see what, events, roster, table plan,
variants, players, and what the pages cost in queries."""

from __future__ import annotations

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.translation import gettext

from tables.models import Table
from tables.rules.variants import variant_label
from tests import factories
from tournament.common.product import VERSION
from tournament.models import EVENT_MAX_PLAYERS, Event, Phase, Player, PlayerStatus
from tournament.reads.close_preview import preview_close
from tournament.writes.rounds import advance_phase

pytestmark = pytest.mark.django_db


def url(name, *args):
    return reverse(f"organizer:{name}", args=args)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["site_messages"]]


def follow(client, response):
    assert response.status_code == 302, response.content[:500]
    return client.get(response["Location"])


# --- who may see what --------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_sign_in(client, event):
    for target in (url("events"), url("event", event.pk), url("event_live", event.pk)):
        response = client.get(target)
        assert response.status_code == 302
        assert response["Location"].startswith(url("login"))
    response = client.post(url("phase_next", event.pk))
    assert response.status_code == 302
    assert response["Location"].startswith(url("login"))


def test_another_organizers_event_is_not_found(client, django_user_model, event):
    client.force_login(factories.make_organizer(django_user_model, "bob"))
    assert client.get(url("event", event.pk)).status_code == 404
    assert client.get(url("event_live", event.pk), HTTP_IF_NONE_MATCH='"1"').status_code == 404
    assert client.post(url("phase_next", event.pk)).status_code == 404
    assert client.post(url("roster_add", event.pk), {"names": "Eve"}).status_code == 404
    assert not Player.objects.exists()
    assert event.name not in client.get(url("events")).content.decode()


def test_a_superuser_sees_every_event(client, django_user_model, event):
    client.force_login(factories.make_organizer(django_user_model, "root", superuser=True))
    page = client.get(url("events")).content.decode()
    assert event.name in page
    assert "ada" in page
    assert client.get(url("event", event.pk)).status_code == 200


# --- events ------------------------------------------------------------------------------


def test_the_console_shows_the_version_in_its_footer(signed_in):
    page = signed_in.get(url("events")).content.decode()
    footer = re.search(r'<footer class="console-foot muted">(.*?)</footer>', page, re.S)
    assert footer is not None
    assert footer[1].split()[:3] == ["Five", "Tricks", VERSION]


def test_create_an_event_with_the_defaults(signed_in, organizer):
    form = signed_in.get(url("event_new")).context["form"]
    assert [form[f].value() for f in ("rounds_planned", "round_minutes", "study_minutes")] == [
        4,
        5,
        5,
    ]
    assert form["practice_minutes"].value() == 3
    response = signed_in.post(
        url("event_new"),
        {
            "name": "  Friday   workshop ",
            "rounds_planned": 4,
            "round_minutes": 5,
            "study_minutes": 5,
            "practice_minutes": 3,
        },
    )
    event = Event.objects.get()
    assert (event.owner, event.name) == (organizer, "Friday workshop")
    assert response["Location"] == url("event", event.pk) + "#roster"


def test_a_bad_event_form_is_shown_again_with_what_was_typed(signed_in):
    response = signed_in.post(
        url("event_new"),
        {
            "name": "Friday",
            "rounds_planned": 0,
            "round_minutes": 5,
            "study_minutes": 5,
            "practice_minutes": 3,
        },
    )
    assert response.status_code == 400
    assert 'value="Friday"' in response.content.decode()
    assert response.context["form"].errors["rounds_planned"]
    assert not Event.objects.exists()


def test_settings_refuse_fewer_rounds_than_already_seated(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=3)
    )
    factories.close_current_round(event, organizer)
    data = {
        "name": "Renamed",
        "rounds_planned": 1,
        "round_minutes": 7,
        "study_minutes": 5,
        "practice_minutes": 3,
    }
    response = signed_in.post(url("event_settings", event.pk), data)
    assert response.status_code == 400
    assert "at least 2 rounds" in response.content.decode()
    response = signed_in.post(url("event_settings", event.pk), data | {"rounds_planned": 2})
    event.refresh_from_db()
    assert (event.name, event.rounds_planned, event.round_minutes) == ("Renamed", 2, 7)


def test_settings_refuse_more_rounds_once_the_last_one_is_closed(signed_in, organizer):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=8, tables=2, rounds_planned=1)
    )
    factories.close_current_round(event, organizer)
    data = {"name": "Friday", "round_minutes": 5, "study_minutes": 5, "practice_minutes": 3}
    response = signed_in.post(url("event_settings", event.pk), data | {"rounds_planned": 2})
    assert response.status_code == 400
    assert "The last round is already closed" in response.content.decode()
    assert Event.objects.get(pk=event.pk).rounds_planned == 1


def test_delete_an_event_needs_its_name(signed_in, event):
    response = signed_in.post(url("event_delete", event.pk), {"name": "nope"})
    assert response.status_code == 400
    assert Event.objects.exists()
    signed_in.post(url("event_delete", event.pk), {"name": event.name})
    assert not Event.objects.exists()


# --- roster ------------------------------------------------------------------------------


THIRTEEN = ["Zoë", "<b>Bold</b>", "Émile", "Ann", "Ben", "Cleo", "Dev", "Eva", "Finn"]
THIRTEEN += ["Grace", "Hugo", "Ida", "Jonas 🎲"]


def test_paste_a_roster(signed_in, event):
    response = signed_in.post(url("roster_add", event.pk), {"names": "\n".join(THIRTEEN) + "\n\n"})
    assert response["Location"].endswith("#roster")
    assert sorted(event.players.values_list("name", flat=True)) == sorted(THIRTEEN)
    page = follow(signed_in, response)
    assert "Added 13 players." in messages_of(page)


def test_roster_problems_are_named_per_line_and_nothing_is_lost(signed_in, event):
    factories.add_players(event, ["Ann"])
    text = "Zoë\nann\n\nBen\nben\n" + "x" * 41 + "\n...\nAnn\nZoë\n"
    response = signed_in.post(url("roster_add", event.pk), {"names": text})
    assert response.status_code == 400
    page = response.content.decode()
    for expected in (
        "Line 2: “<bdi>ann</bdi>” clashes with “<bdi>Ann</bdi>” already on the roster — names "
        "must differ by more than capital letters and accents.",
        "Line 5: “<bdi>ben</bdi>” clashes with “<bdi>Ben</bdi>” on line 4 — names must differ "
        "by more than capital letters and accents.",
        "Line 6: “<bdi>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</bdi>” has 41 characters; the "
        "limit is 40.",
        "Line 7: there is no name to add.",
        "Line 8: “<bdi>Ann</bdi>” is already on the roster.",
        "Line 9: “<bdi>Zoë</bdi>” is already on line 1.",
    ):
        assert expected in page
    assert "Zoë\nann\n\nBen\nben\n" in page  # the textarea keeps what was typed
    assert list(event.players.values_list("name", flat=True)) == ["Ann"]


def test_roster_from_a_csv_file(signed_in, event):
    upload = SimpleUploadedFile("people.csv", "Email;Name\na@x;Zoë\nb@x;José\n".encode("cp1252"))
    signed_in.post(url("roster_add", event.pk), {"file": upload})
    assert sorted(event.players.values_list("name", flat=True)) == ["José", "Zoë"]


def test_a_roster_upload_past_the_event_s_player_limit_is_refused_with_the_limit(signed_in, event):
    Player.objects.bulk_create(
        Player(event=event, name=f"Player {n}") for n in range(EVENT_MAX_PLAYERS - 1)
    )
    upload = SimpleUploadedFile("people.csv", "Name\nZoë\nJosé\n".encode())
    response = signed_in.post(url("roster_add", event.pk), {"file": upload})
    assert response.status_code == 400
    assert "An event has at most 2000 players: it has 1999, and these are 2 more." in html.unescape(
        response.content.decode()
    )
    assert event.players.count() == EVENT_MAX_PLAYERS - 1


def test_a_csv_with_problems_names_its_rows_and_fills_the_box(signed_in, event):
    upload = SimpleUploadedFile("people.csv", b"Name\nAnn\nann\n")
    response = signed_in.post(url("roster_add", event.pk), {"file": upload})
    page = response.content.decode()
    assert "Row 3: “<bdi>ann</bdi>” clashes with “<bdi>Ann</bdi>” on line 2" in page
    assert ">Ann\nann</textarea>" in page
    assert not event.players.exists()


def test_a_spreadsheet_is_refused_with_advice(signed_in, event):
    upload = SimpleUploadedFile("people.xlsx", b"PK\x03\x04....")
    response = signed_in.post(url("roster_add", event.pk), {"file": upload})
    assert "This file is not a CSV file" in response.content.decode()


def test_names_with_markup_and_emoji_are_shown_safely(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=THIRTEEN, tables=3)
    for page in (
        signed_in.get(url("event", event.pk)),
        signed_in.get(url("table", event.pk, 1)),
        signed_in.get(url("table", event.pk, 2)),
        signed_in.get(url("table", event.pk, 3)),
    ):
        html = page.content.decode()
        assert "<b>Bold</b>" not in html
    html = signed_in.get(url("event", event.pk)).content.decode()
    assert "&lt;b&gt;Bold&lt;/b&gt;" in html
    assert "Zoë" in html
    assert "Jonas 🎲" in html


def test_mark_absent_and_back_at_a_chosen_table(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    player = Player.objects.get(name="Player 001")
    response = signed_in.post(url("player_status", event.pk, player.pk), {"status": "absent"})
    assert response["Location"].endswith(f"#player-{player.pk}")
    assert "Player 001" not in factories.seats_of(event, 1)
    page = follow(signed_in, response)
    assert "Player 001 is absent: not seated in round 1." in messages_of(page)
    signed_in.post(url("player_status", event.pk, player.pk), {"status": "present", "table": 3})
    assert factories.seats_of(event, 1)["Player 001"] == 3


@pytest.mark.parametrize("table", ["x", "0", "²", "9" * 12, "7"])
def test_back_at_a_table_that_is_not_one_is_refused(signed_in, organizer, table):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    player = Player.objects.get(name="Player 001")
    player.status = PlayerStatus.ABSENT
    player.save()
    response = signed_in.post(
        url("player_status", event.pk, player.pk), {"status": "present", "table": table}
    )
    assert response["Location"].endswith(f"#player-{player.pk}")
    assert messages_of(follow(signed_in, response)) == [
        "Choose one of the tables, or the lowest table."
    ]
    assert Player.objects.get(pk=player.pk).status == PlayerStatus.ABSENT


def test_rename_a_player_and_refuse_a_taken_name(signed_in, event):
    ann, _ = factories.add_players(event, ["Ann", "Ben"])
    response = signed_in.post(url("player_rename", event.pk, ann.pk), {"name": "Anne"})
    assert response.status_code == 302
    response = signed_in.post(url("player_rename", event.pk, ann.pk), {"name": "BEN"})
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "“BEN” clashes with “Ben” already on the roster — names must differ by more than "
        "capital letters and accents."
    ) in page
    assert 'value="BEN"' in page
    response = signed_in.post(url("player_rename", event.pk, ann.pk), {"name": "Ben"})
    assert "Ben is already on the roster." in response.content.decode()
    ann.refresh_from_db()
    assert ann.name == "Anne"
    response = signed_in.post(url("player_rename", event.pk, ann.pk), {"name": "ANNE"})
    assert response.status_code == 302  # their own name in other capitals is fine


def test_remove_a_player(signed_in, event):
    ann = factories.add_players(event, ["Ann"])[0]
    follow(signed_in, signed_in.post(url("player_remove", event.pk, ann.pk)))
    assert not event.players.exists()


def test_player_page_shows_the_rounds_played(signed_in, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    factories.close_current_round(event, organizer)
    player = Player.objects.get(name="Player 001")
    page = signed_in.get(url("player", event.pk, player.pk))
    assert [seat.round.number for seat, _won in page.context["history"]] == [1, 2]


# --- a refused form leaves a URL that reloads ---------------------------------------------
# A boosted form puts the action's URL in the address bar; action URLs take only POST, so
# a reload there used to answer 405. htmx is told to show the page's URL instead, and the
# action URLs send a GET to that page.

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_refused_roster_shows_the_console_url_and_keeps_the_text(signed_in, event):
    factories.add_players(event, ["zoe"])
    response = signed_in.post(url("roster_add", event.pk), {"names": "Ann\nZOE"}, **HTMX)
    assert response.status_code == 200  # htmx swaps only 2xx answers
    assert response["HX-Replace-Url"] == url("event", event.pk) + "#roster"
    assert ">Ann\nZOE</textarea>" in response.content.decode()
    assert signed_in.get(response["HX-Replace-Url"]).status_code == 200
    assert list(event.players.values_list("name", flat=True)) == ["zoe"]


def test_a_refused_move_and_rename_show_their_pages_url(signed_in, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    player = Player.objects.get(name="Player 001")
    response = signed_in.post(url("plan_move", event.pk), {"player": player.pk, "table": 1}, **HTMX)
    assert response["HX-Replace-Url"] == url("event", event.pk) + "#plan"
    response = signed_in.post(
        url("player_rename", event.pk, player.pk), {"name": "player 002"}, **HTMX
    )
    assert response["HX-Replace-Url"] == url("player", event.pk, player.pk)
    assert 'value="player 002"' in response.content.decode()


def test_successful_actions_redirect_to_a_page_without_a_url_header(signed_in, event):
    response = signed_in.post(url("roster_add", event.pk), {"names": "Ann"}, **HTMX)
    assert response.status_code == 302
    assert response["Location"] == url("event", event.pk) + "#roster"
    assert "HX-Replace-Url" not in response


def test_the_action_urls_of_forms_shown_again_lead_to_their_page(signed_in, event):
    ann = factories.add_players(event, ["Ann"])[0]
    for action, page in (
        (url("roster_add", event.pk), url("event", event.pk) + "#roster"),
        (url("plan_move", event.pk), url("event", event.pk) + "#plan"),
        (url("player_rename", event.pk, ann.pk), url("player", event.pk, ann.pk)),
    ):
        response = signed_in.get(action)
        assert (response.status_code, response["Location"]) == (302, page), action
    assert signed_in.put(url("roster_add", event.pk)).status_code == 405


# --- table plan --------------------------------------------------------------------------


def test_the_plan_section_suggests_and_says_why(signed_in, event):
    factories.add_players(event, THIRTEEN)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Suggested for 13 players: <strong>3 tables</strong>" in page
    assert "the game plays best with 4 at a table" in page


def test_the_plans_reason_never_claims_most_tables_of_4_when_another_has_more(signed_in, event):
    # 11 players: 6+5 is suggested, though 4+4+3 has two tables of 4; it avoids a table of 3.
    factories.add_players(event, THIRTEEN[:11])
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "Suggested for 11 players: <strong>2 tables</strong>" in page
    assert "This plan has the most tables of 4" not in page
    assert "tables of 3 come only when nothing else fits" in page


def test_make_the_plan_reshuffle_and_move(signed_in, event):
    factories.add_players(event, THIRTEEN)
    follow(signed_in, signed_in.post(url("plan_tables", event.pk), {"table_count": 3}))
    assert Table.objects.filter(event=event).count() == 3
    seed = Event.objects.get(pk=event.pk).seed
    signed_in.post(url("plan_reshuffle", event.pk))
    assert Event.objects.get(pk=event.pk).seed != seed
    zoe = Player.objects.get(name="Zoë")
    target = 1 if factories.seats_of(event, 1)["Zoë"] != 1 else 2
    response = signed_in.post(url("plan_move", event.pk), {"player": zoe.pk, "table": target})
    assert factories.seats_of(event, 1)["Zoë"] == target
    assert f"Zoë moved to table {target}." in messages_of(follow(signed_in, response))


def test_a_plan_that_does_not_fit_is_refused_with_a_message(signed_in, event):
    factories.add_players(event, THIRTEEN)
    page = follow(signed_in, signed_in.post(url("plan_tables", event.pk), {"table_count": 2}))
    assert "Too few tables: some would have more than 6 players." in messages_of(page)
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        ({}, "Choose a number of tables."),
        ({"table_count": "x"}, "Choose a number of tables."),
        ({"table_count": "-3"}, "Choose a number of tables."),
        ({"table_count": str(10**12)}, "Choose a number of tables."),
        ({"table_count": "999999999"}, "Too many tables: some would have fewer than 3 players."),
    ],
)
def test_a_table_count_that_is_not_an_option_is_refused(signed_in, event, posted, said):
    factories.add_players(event, THIRTEEN)
    response = signed_in.post(url("plan_tables", event.pk), posted)
    assert response["Location"].endswith("#plan")
    assert messages_of(follow(signed_in, response)) == [said]
    assert not Table.objects.exists()


def test_a_move_to_the_table_the_player_sits_at_changes_nothing(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    noah = Player.objects.get(name="Player 001")
    seat = noah.seats.get()
    version = Event.objects.get(pk=event.pk).version
    response = signed_in.post(
        url("plan_move", event.pk), {"player": noah.pk, "table": seat.table.number}
    )
    assert response.context["move_form"].non_field_errors() == [
        f"Player 001 already sits at table {seat.table.number}."
    ]
    assert "moved to table" not in response.content.decode()
    assert noah.seats.get().reason == seat.reason  # not marked as placed by hand
    assert Event.objects.get(pk=event.pk).version == version


def test_the_console_warns_about_tables_outside_3_to_6_after_moves(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert "size-warning" not in page
    for name in factories.seated_names(event, 2, 1)[:2]:
        player = Player.objects.get(name=name)
        signed_in.post(url("plan_move", event.pk), {"player": player.pk, "table": 1})
    response = signed_in.get(url("event", event.pk))
    assert response.context["c"].planned_size_problems == [(2, 2)]
    phase_panel = response.content.decode().split('id="phase"')[1].split("</section>")[0]
    assert "Round 1 has tables outside 3 to 6 players:" in phase_panel
    assert "Table 2: 2 players" in phase_panel
    assert 'href="#plan">Move a player</a>' in phase_panel
    # A warning, not a block: the study phase still starts.
    signed_in.post(url("phase_next", event.pk), {"phase": "setup"})
    assert Event.objects.get(pk=event.pk).phase == Phase.STUDY


def test_a_move_that_is_refused_is_shown_again(signed_in, organizer):
    event = factories.start_rounds(factories.seated_event(owner=organizer, players=8, tables=2))
    player = Player.objects.get(name="Player 001")
    before = factories.seats_of(event, 1)
    target = 2 if before["Player 001"] == 1 else 1
    response = signed_in.post(url("plan_move", event.pk), {"player": player.pk, "table": target})
    assert response.status_code == 400  # round 1 is running: nobody can be moved
    assert response.context["move_form"].non_field_errors() == [
        "Players can only be moved by hand before a round starts."
    ]
    assert "Players can only be moved by hand" in response.content.decode()
    assert factories.seats_of(event, 1) == before


# --- variants ----------------------------------------------------------------------------


def test_variants_redraw_during_setup(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    page = follow(signed_in, signed_in.post(url("variants_redraw", event.pk)))
    assert "Every table has a new variant." in messages_of(page)
    before = factories.table(event, 2).variant
    response = signed_in.post(url("table_variant", event.pk), {"table": 2, "variant": "draw"})
    after = factories.table(event, 2).variant
    assert after != before
    said = messages_of(follow(signed_in, response))
    assert said == [f"Table 2 now plays: {variant_label(after, gettext)}."]


def test_variants_after_study_need_the_confirmation_tick(signed_in, organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=12, tables=3))
    before = factories.table(event, 1).variant
    response = signed_in.post(url("table_variant", event.pk), {"table": 1, "variant": "low-clubs"})
    assert "Confirm to change a variant anyway" in messages_of(follow(signed_in, response))[0]
    assert factories.table(event, 1).variant == before
    signed_in.post(
        url("table_variant", event.pk), {"table": 1, "variant": "low-clubs", "confirmed": "1"}
    )
    assert factories.table(event, 1).variant.code == "low-clubs"
    assert factories.table(event, 1).variant_set_by_hand


@pytest.mark.parametrize("posted", [{"table": "x"}, {"table": "4"}, {}, {"table": "1.5"}])
def test_a_variant_for_a_table_that_is_not_one_is_refused(signed_in, organizer, posted):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    before = [t.variant for t in event.tables.order_by("number")]
    response = signed_in.post(url("table_variant", event.pk), posted | {"variant": "draw"})
    assert response["Location"].endswith("#variants")
    assert messages_of(follow(signed_in, response)) == ["Choose a table."]
    assert [t.variant for t in event.tables.order_by("number")] == before


def test_an_unknown_variant_is_refused(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    response = signed_in.post(url("table_variant", event.pk), {"table": 1, "variant": "x"})
    assert "Choose a variant from the list." in messages_of(follow(signed_in, response))


def test_rotate_a_tables_phone_link(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=8, tables=2)
    token = factories.table(event, 1).token
    version = Event.objects.get(pk=event.pk).version
    signed_in.post(url("table_rotate_link", event.pk, 1))
    assert factories.table(event, 1).token != token
    assert Event.objects.get(pk=event.pk).version == version + 1


# --- cost --------------------------------------------------------------------------------


def big_event(organizer, players: int, tables: int) -> Event:
    """An event in round 1 with a game reported at every table and one absent player."""
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=tables)
    )
    seats = factories.seats_of(event, 1)
    by_table: dict[int, list[str]] = {}
    for name, number in sorted(seats.items()):
        by_table.setdefault(number, []).append(name)
    factories.play_games(event, {n: names[:2] for n, names in by_table.items()})
    Player.objects.filter(event=event, name="Player 002").update(status=PlayerStatus.ABSENT)
    return event


# The observers' notes are one query of the console's read model; during a round the
# radar (tournament.reads.radar) adds its own few, whatever the size.
CONSOLE_QUERIES = 19
# A poll after one report: the session and user, the event, and the console's read model
# (the one version lookup of the ETag included); it renders one card whatever the size.
CONSOLE_POLL_QUERIES = 13
TABLE_QUERIES = 10
CLOSE_QUERIES = 15
# Closing commits one seat per player with one bulk INSERT, which Django splits into
# statements of at most 111 rows on SQLite (999 variables, 9 columns): 5 at 500 players.
# Everything else (the disputed-games check included) costs the same at any size.
CLOSE_POST_QUERIES = 22


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_console_costs_the_same_at_20_and_500_players(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = big_event(organizer, players, tables)
    with django_assert_max_num_queries(CONSOLE_QUERIES):
        response = signed_in.get(url("event", event.pk))
    assert response.status_code == 200
    assert len(response.context["c"].cards) == tables
    with django_assert_max_num_queries(CONSOLE_QUERIES):
        assert signed_in.get(url("event_live", event.pk)).status_code == 200
    with django_assert_max_num_queries(TABLE_QUERIES):
        assert signed_in.get(url("table", event.pk, tables)).status_code == 200
    with django_assert_max_num_queries(CLOSE_QUERIES):
        assert signed_in.get(url("close_round", event.pk, 1)).status_code == 200


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_a_console_poll_after_one_report_costs_the_same_and_sends_one_card(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = big_event(organizer, players, tables)
    page = signed_in.get(url("event", event.pk)).content.decode()
    held = re.search(r'id="live-poll"[^>]*hx-get="([^"]+)"', page)[1].replace("&amp;", "&")
    factories.report(event, tables, factories.seated_players(event, tables)[0])
    with django_assert_max_num_queries(CONSOLE_POLL_QUERIES):
        response = signed_in.get(held)
    html = response.content.decode()
    assert html.count("<article") == 1
    assert f'id="table-{tables}"' in html


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_the_console_between_rounds_costs_the_same(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = big_event(organizer, players, tables)
    factories.close_current_round(event, organizer)
    assert Event.objects.get(pk=event.pk).phase == Phase.BETWEEN_ROUNDS
    with django_assert_max_num_queries(CONSOLE_QUERIES):
        assert signed_in.get(url("event", event.pk)).status_code == 200


@pytest.mark.parametrize(("players", "tables"), [(20, 5), (500, 125)])
def test_closing_a_round_costs_the_same_at_20_and_500_players(
    signed_in, organizer, django_assert_max_num_queries, players, tables
):
    event = big_event(organizer, players, tables)
    preview = preview_close(event.current_round)
    shown = {"moves": preview.fingerprint, "shown": preview.seating_text}
    with django_assert_max_num_queries(CLOSE_POST_QUERIES):
        response = signed_in.post(url("close_round", event.pk, 1), shown)
    assert response["Location"] == url("event", event.pk) + "#tables"
    assert len(factories.seats_of(event, 2)) == players - 1  # Player 002 is absent


def test_the_classic_set_form_gives_the_tables_the_sources_sheets(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    page = signed_in.get(url("event", event.pk)).content.decode()
    assert f'action="{url("variants_classic", event.pk)}"' in page
    assert "Use the classic set" in page

    response = signed_in.post(url("variants_classic", event.pk))
    assert response["Location"].endswith("#variants")
    assert messages_of(follow(signed_in, response)) == [
        "The tables now play the classic set: the source tournament's rule sheets."
    ]
    codes = [t.variant.code for t in event.tables.order_by("number")]
    assert codes == ["low-hearts", "high-diamonds", "low-clubs"]


def test_the_classic_set_after_study_needs_the_confirmation_tick(signed_in, organizer):
    event = advance_phase(event=factories.seated_event(owner=organizer, players=12, tables=3))
    before = [t.variant for t in event.tables.order_by("number")]
    response = signed_in.post(url("variants_classic", event.pk))
    assert "Confirm to change a variant anyway" in messages_of(follow(signed_in, response))[0]
    assert [t.variant for t in event.tables.order_by("number")] == before
    signed_in.post(url("variants_classic", event.pk), {"confirmed": "1"})
    assert factories.table(event, 1).variant.code == "low-hearts"


def test_the_console_says_why_nine_classic_tables_break_the_anytime_limit(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=36, tables=9)
    page = follow(signed_in, signed_in.post(url("variants_classic", event.pk)))
    warnings = page.context["c"].variant_warnings
    assert any("tables 8, 9 allow it" in warning for warning in warnings)
    assert any("reproduces the source's rule sheets as printed" in w for w in warnings)
    assert "trump-any-time sheets" in page.content.decode()


# --- hidden differences beyond the classic three ------------------------------------------

SETTINGS = {
    "name": "Friday workshop",
    "rounds_planned": 4,
    "round_minutes": 5,
    "study_minutes": 5,
    "practice_minutes": 3,
}


def test_the_settings_choose_a_difference_set_and_the_disruptive_share(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    assert event.difference_set == "classic"
    page = signed_in.get(url("event_settings", event.pk)).content.decode()
    assert "Hidden differences" in page
    assert "Fewest tricks wins the game" in page  # a custom set's checklist

    data = SETTINGS | {"difference_set": "disruptive", "disruptive_share": "0.3"}
    signed_in.post(url("event_settings", event.pk), data)
    event.refresh_from_db()
    assert (event.difference_set, event.disruptive_share) == ("disruptive", 0.3)
    assert event.draw_clauses == {"fewest", "overtake"}


@pytest.mark.parametrize("page_name", ["event_new", "event_settings"])
def test_every_help_text_is_linked_to_its_field_and_every_fieldset_named(
    signed_in, organizer, page_name
):
    """A screen reader reads a field's help with the field (aria-describedby names an id
    the page has), and a group of fields by its legend."""
    args = [] if page_name == "event_new" else [factories.make_event(owner=organizer).pk]
    page = signed_in.get(url(page_name, *args)).content.decode()
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    described = re.findall(r'aria-describedby="([^"]+)"', page)
    assert any(name.endswith("_helptext") for name in described)  # help texts exist
    for names in described:
        assert set(names.split()) <= ids, f"aria-describedby points at nothing: {names}"
    for fieldset in re.findall(r"<fieldset\b.*?</fieldset>", page, flags=re.S):
        assert re.search(r"<legend\b", fieldset), f"a fieldset without a legend: {fieldset[:80]}"


def test_a_custom_set_takes_its_checklist_and_needs_one_tick(signed_in, organizer):
    event = factories.make_event(owner=organizer)
    response = signed_in.post(
        url("event_settings", event.pk), SETTINGS | {"difference_set": "custom"}
    )
    assert response.status_code == 400
    assert "Tick at least one clause" in response.content.decode()

    data = SETTINGS | {"difference_set": "custom", "custom_clauses": ["fewest", "notrump"]}
    signed_in.post(url("event_settings", event.pk), data)
    event.refresh_from_db()
    assert event.draw_clauses == {"fewest", "notrump"}


def test_the_redraw_uses_the_events_difference_set_and_the_console_says_where(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=40, tables=10)
    Event.objects.filter(pk=event.pk).update(difference_set="disruptive", disruptive_share=0.2)
    page = follow(signed_in, signed_in.post(url("variants_redraw", event.pk)))
    tables = list(event.tables.order_by("number"))
    fewest = [t.number for t in tables if t.fewest_wins]
    overtake = [t.number for t in tables if t.must_overtake]
    assert len(fewest) == len(overtake) == 1
    html = page.content.decode()
    assert f"Fewest tricks wins the game: table {fewest[0]}." in html
    assert (
        "Disruptive clauses at 2 tables of 10; at most 2 may have one (20% of the tables)" in html
    )


def test_a_variant_with_new_clauses_can_be_set_by_hand(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=12, tables=3)
    signed_in.post(url("table_variant", event.pk), {"table": 2, "variant": "low-notrump-fewest"})
    assert factories.table(event, 2).variant.code == "low-notrump-fewest"
