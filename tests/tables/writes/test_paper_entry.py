"""Typing in a paper tally sheet (tables.writes.corrections.enter_paper_tally): a table-round in
one transaction, paper and phones confirming or disputing each other, bad rows named
without losing the good ones, and queries that do not grow with the games."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import CorrectionAction, Game, GameCorrection, GameReport, GameStatus
from tables.rules.tally import initials
from tables.writes.corrections import enter_paper_tally
from tests import factories
from tests.factories import report, seated_players
from tournament.common.errors import Refused
from tournament.models import Round

pytestmark = pytest.mark.django_db

NAMES = [
    "Ana Bell", "Bo Chen", "Cy Dow", "Di Egan",
    "Ed Fox", "Flo Gray", "Gus Hale", "Hal Ide",
]  # fmt: skip


@pytest.fixture
def playing(organizer):
    return factories.start_rounds(factories.seated_event(owner=organizer, players=NAMES, tables=2))


def enter(event, table_number, entries, by=None):
    event.refresh_from_db()
    return enter_paper_tally(
        round_=Round.objects.get(event=event, number=event.round_number),
        table=factories.table(event, table_number),
        entries=entries,
        by=by,
    )


def test_a_whole_table_round_is_saved_at_once_and_logged_as_paper(playing, organizer):
    a, b, *_ = seated_players(playing, 1)
    entry = enter(playing, 1, {1: initials(a.name), 2: b.name, 3: "", 4: ""}, by=organizer)

    assert entry.saved
    assert entry.recorded == 2
    games = list(Game.objects.filter(table__number=1).order_by("number"))
    assert [(g.number, g.winner, g.status) for g in games] == [
        (1, a, GameStatus.UNCONFIRMED),
        (2, b, GameStatus.UNCONFIRMED),
    ]
    assert set(GameReport.objects.values_list("source", flat=True)) == {"paper"}
    assert (
        list(GameCorrection.objects.order_by("game_number").values_list("action", "changed_by"))
        == [(CorrectionAction.PAPER, organizer.pk)] * 2
    )


def test_paper_confirms_a_phone_with_the_same_winner_and_disputes_another(playing):
    a, b, *_ = seated_players(playing, 1)
    report(playing, 1, a, game_number=1)
    report(playing, 1, a, game_number=2)

    entry = enter(playing, 1, {1: a.name, 2: b.name})

    assert (entry.confirmed, entry.disputed) == (1, 1)
    statuses = dict(Game.objects.values_list("number", "status"))
    assert statuses == {1: GameStatus.CONFIRMED, 2: GameStatus.DISPUTED}
    sources = list(GameReport.objects.filter(game_number=2).values_list("source", flat=True))
    assert sources == ["phone", "paper"]


def test_a_phone_after_paper_confirms_or_disputes_it_as_a_second_phone_would(playing):
    a, b, *_ = seated_players(playing, 1)
    enter(playing, 1, {1: a.name, 2: a.name})

    assert report(playing, 1, a, game_number=1).outcome == "confirmed"
    assert report(playing, 1, b, game_number=2).outcome == "disputed"
    assert dict(Game.objects.values_list("number", "status")) == {
        1: GameStatus.CONFIRMED,
        2: GameStatus.DISPUTED,
    }


def test_bad_rows_are_named_and_nothing_is_saved_until_they_are_fixed(playing):
    a, b, *_ = seated_players(playing, 1)
    typed = {1: a.name, 2: "Zed", 3: b.name, 5: a.name, 6: f"{a.name} 5 {b.name} 4"}

    entry = enter(playing, 1, typed)

    assert not entry.saved
    errors = {row.number: row.errors for row in entry.rows}
    assert errors[1] == []
    assert errors[3] == []
    assert "Nobody at this table is “Zed”" in errors[2][0]
    assert errors[5] == ["Game 4 is missing: fill in its row, or leave this one empty."]
    assert errors[6] == ["9 tricks entered, but a game at this table has only 7."]
    assert [row.text for row in entry.rows] == [typed[n] for n in sorted(typed)]
    assert not Game.objects.exists()
    assert not GameReport.objects.exists()

    fixed = enter(playing, 1, {1: a.name, 2: b.name, 3: b.name, 4: a.name, 5: a.name})
    assert fixed.recorded == 5


def test_tricks_of_a_game_cut_off_decide_its_winner_and_are_kept(playing):
    a, b, c, d = seated_players(playing, 1)
    enter(playing, 1, {1: f"{initials(a.name)} 1 {initials(c.name)} 3 {initials(d.name)} 2"})

    game = Game.objects.get()
    assert game.winner == c
    assert not game.finished
    assert game.tricks == {str(a.pk): 1, str(b.pk): 0, str(c.pk): 3, str(d.pk): 2}


def test_saving_the_same_sheet_twice_stores_nothing_new(playing):
    a, b, *_ = seated_players(playing, 1)
    enter(playing, 1, {1: a.name, 2: b.name})
    again = enter(playing, 1, {1: a.name, 2: b.name})

    assert again.saved
    assert again.recorded + again.confirmed + again.disputed == 0
    assert GameReport.objects.count() == 2
    assert Game.objects.filter(status=GameStatus.UNCONFIRMED).count() == 2


def test_a_player_seated_elsewhere_is_unknown_here(playing):
    elsewhere = seated_players(playing, 2)[0]
    entry = enter(playing, 1, {1: elsewhere.name})
    assert "Nobody at this table" in entry.rows[0].errors[0]


def test_a_round_that_is_not_open_is_refused(playing, organizer):
    factories.close_current_round(playing, organizer)
    with pytest.raises(Refused, match="only while their round is open"):
        enter_paper_tally(
            round_=Round.objects.get(event=playing, number=1),
            table=factories.table(playing, 1),
            entries={1: "AB"},
            by=organizer,
        )


@pytest.mark.parametrize("games", [2, 20])
def test_the_save_costs_the_same_queries_for_2_or_20_games(
    playing, games, django_assert_max_num_queries
):
    a, b, *_ = seated_players(playing, 1)
    report(playing, 1, a, game_number=1)  # one existing game to confirm
    entries = {n: (a.name if n % 2 else b.name) for n in range(1, games + 1)}
    # The new games are inserted in a savepoint, as a phone's are (tables.writes.recording).
    with django_assert_max_num_queries(19):
        entry = enter(playing, 1, entries)
    assert entry.recorded == games - 1


# --- the console's entry page -------------------------------------------------------------


def entry_url(event, table_number=1, round_number=1):
    return reverse("organizer:paper_entry", args=[event.pk, table_number, round_number])


def save_url(event, table_number=1, round_number=1):
    return reverse("organizer:paper_save", args=[event.pk, table_number, round_number])


def test_the_entry_page_lists_the_names_with_their_shortcuts(signed_in, playing):
    page = signed_in.get(entry_url(playing)).content.decode()
    for player in seated_players(playing, 1):
        assert player.name in page
    assert 'name="game-12"' in page
    assert 'list="paper-names"' in page


def test_a_bad_row_comes_back_with_its_message_and_every_row_as_typed(signed_in, playing):
    a, *_ = seated_players(playing, 1)
    response = signed_in.post(save_url(playing), {"game-1": a.name, "game-2": "Zed"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Nothing was saved" in page
    assert f'value="{a.name}"' in page
    assert 'value="Zed"' in page
    assert not Game.objects.exists()


def test_a_good_sheet_saves_and_goes_back_to_the_table(signed_in, playing):
    a, b, *_ = seated_players(playing, 1)
    response = signed_in.post(save_url(playing), {"game-1": a.name, "game-2": b.name})
    assert response.status_code == 302
    table_page = signed_in.get(response.url).content.decode()
    assert "2 games typed in from paper" in table_page
    assert "Paper tally sheet" in table_page


def test_a_forged_game_number_is_not_found(signed_in, playing):
    assert signed_in.post(save_url(playing), {"game-0": "x"}).status_code == 404


@pytest.mark.parametrize("players", [20, 500])
def test_the_entry_page_costs_the_same_queries_at_any_size(
    signed_in, organizer, players, django_assert_max_num_queries
):
    event = factories.start_rounds(
        factories.seated_event(owner=organizer, players=players, tables=players // 5)
    )
    for number in range(1, 9):
        report(event, 1, seated_players(event, 1)[number % 2], game_number=number)
    with django_assert_max_num_queries(12):
        response = signed_in.get(entry_url(event))
    assert response.status_code == 200


def test_the_tally_sheets_show_each_tables_names_and_a_link_to_its_entry(signed_in, playing):
    page = signed_in.get(
        reverse("kit:tally_sheets", args=[playing.pk]) + "?round=1"
    ).content.decode()
    assert page.count('class="sheet tally-sheet"') == 2
    for player in seated_players(playing, 2):
        assert player.name in page


def test_a_paper_only_kit_has_tally_sheets_and_no_phone_qr(signed_in, organizer):
    event = factories.seated_event(owner=organizer, players=NAMES, tables=2, paper_only=True)
    page = signed_in.get(reverse("kit:event_kit", args=[event.pk])).content.decode()
    assert page.count('class="sheet tally-sheet"') == 2
    assert "tent-scan" not in page


def test_the_settings_paper_only_box_saves_and_the_kit_then_has_tally_sheets_not_qr_codes(
    signed_in, organizer, settings
):
    settings.PUBLIC_URL = "http://cards.example:8000"
    event = factories.seated_event(owner=organizer, players=NAMES, tables=2, name="Paper day")
    kit_url = reverse("kit:event_kit", args=[event.pk])
    before = signed_in.get(kit_url).content.decode()
    assert before.count("tent-scan") == 4  # a phone QR code on both halves of 2 tent cards
    assert "tally-sheet" not in before
    settings_url = reverse("organizer:event_settings", args=[event.pk])
    form = signed_in.get(settings_url).context["form"]
    assert form["paper_only"].value() is False

    response = signed_in.post(
        settings_url, {**{f: form[f].value() for f in form.fields}, "paper_only": "on"}
    )

    assert response.status_code == 302
    event.refresh_from_db()
    assert event.paper_only is True
    assert signed_in.get(settings_url).context["form"]["paper_only"].value() is True
    after = signed_in.get(kit_url).content.decode()
    assert "tent-scan" not in after
    assert after.count('class="sheet tally-sheet"') == 2
    assert "Paper only: the tent cards carry no phone QR code" in after
