"""What screen tables show: a player's view keeps other hands secret, the radar's alerts
(stalls, disagreements, players gone), in the same number of queries at 20 and 500
players."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.reads.screen_play import card_view, console_table, table_alerts, table_view
from tables.views.screen_pushed import pushed_table_state
from tables.writes.screen_play import point_at_card
from tables.writes.screen_seats import hold_seat
from tests import factories
from tests.screen_factories import (
    deal_at,
    device_of,
    draw_and_gesture,
    everyone_points,
    key,
    play_trick,
    screen_event,
    short_hands,
)
from tournament.models import Player
from tournament.reads.radar import build_radar

pytestmark = pytest.mark.django_db


def test_a_players_view_holds_their_own_hand_and_the_consoles_none(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    deal = deal_at(event, 1)
    me = deal.seats[0]
    mine = table_view(deal, event=event, me=me)
    assert [card.code for card in mine.hand] == list(deal.hands_by_player[me])
    assert table_view(deal, event=event, me=None).hand == []


def test_the_next_games_view_names_who_took_the_last_trick_of_the_one_before(
    organizer, monkeypatch, django_assert_num_queries
):
    short_hands(monkeypatch, cards=2)
    event = factories.start_rounds(screen_event(owner=organizer))
    first = deal_at(event, 1)
    assert table_view(first, event=event, me=None).trick_before is None
    for number in (1, 2):
        deal, cards = play_trick(event, 1)
        taker = deal.seats[number % len(deal.seats)]
        everyone_points(deal, cards[taker])
    after = deal_at(event, 1)
    assert after.pk != first.pk
    with django_assert_num_queries(7):  # as many as any game's view
        view = table_view(after, event=event, me=after.seats[0])
    assert view.trick_before is not None
    assert (view.trick_before.deal_id, view.trick_before.number) == (first.pk, 2)
    assert view.trick_before.taker == Player.objects.get(pk=taker).name
    # The table's state says whose it was, never by which card.
    state = pushed_table_state(after.table_id, "en")
    assert state is not None
    assert f'data-before-deal="{first.pk}" data-before-trick="2"' in state[1]
    assert f'data-before-taker="{view.trick_before.taker}"' in state[1]
    assert card_view(cards[taker]).label not in state[1]
    # Once the new game takes a trick, the one before still names the last game's.
    deal, cards = play_trick(event, 1)
    everyone_points(deal, cards[deal.seats[0]])
    assert table_view(after, event=event, me=None).trick_before == view.trick_before


def _split_pointing(event, table_number):
    deal, cards = play_trick(event, table_number)
    seats = [Player.objects.get(pk=pk) for pk in deal.seats]
    for number, player in enumerate(seats):
        card = cards[deal.seats[0]] if number else cards[deal.seats[1]]
        point_at_card(player=player, trick=1, card=card, client_key=key(), device=device_of(player))
    return deal


def test_the_radar_flags_a_stalled_trick_above_a_disagreement(organizer):
    event = factories.start_rounds(screen_event(owner=organizer, screen_stall_seconds=30))
    _split_pointing(event, 1)
    _split_pointing(event, 2)
    for player in event.players.all():
        hold_seat(player=player, device=device_of(player))
    later = timezone.now() + timedelta(seconds=event.screen_stall_seconds + 5)
    lines = build_radar(event, now=later)
    assert [flag.kind for flag in lines[0].flags] == ["stall"]
    soon = build_radar(event, now=timezone.now())
    assert {flag.kind for line in soon for flag in line.flags} == {"disagree"}


def test_the_radar_names_players_who_are_gone(organizer):
    event = factories.start_rounds(screen_event(owner=organizer))
    lines = build_radar(event)
    assert {flag.kind for line in lines for flag in line.flags} == {"gone"}
    assert "Player 001" in str(lines[-1].flags[0].text) or "Player 001" in str(
        lines[0].flags[0].text
    )


@pytest.mark.parametrize(("players", "tables"), [(20, 4), (500, 100)])
def test_the_screen_reads_cost_the_same_at_20_and_500_players(
    organizer, signed_in, django_assert_num_queries, players, tables
):
    event = factories.start_rounds(screen_event(owner=organizer, players=players, tables=tables))
    for number in (1, tables):
        _split_pointing(event, number)
    deal = deal_at(event, 1)
    draw_and_gesture(deal)
    with django_assert_num_queries(7):  # five for the game, the pad and the gestures
        view = table_view(deal, event=event, me=deal.seats[0])
    assert view.pad is not None
    assert view.pad.drawings == 2
    assert [seat.gesture.kind for seat in view.seats if seat.gesture] == ["yes"]
    round_id = deal.round_id
    with django_assert_num_queries(7):
        alerts = table_alerts(event, round_id, timezone.now())
    assert len(alerts) == tables
    me = Player.objects.get(pk=deal.seats[0])
    signed_in.get(reverse("phone:screen", args=[me.token]))
    with django_assert_num_queries(8):
        assert console_table(event, round_id, deal.table_id) is not None
    with django_assert_num_queries(9):  # the live channel's push, once per table and language
        assert pushed_table_state(deal.table_id, "fr") is not None
    live = reverse("phone:screen_live", args=[me.token])
    signed_in.get(live)  # the first with the device's cookie sights the player (a write)
    with django_assert_num_queries(15):  # the version read once a request
        signed_in.get(live)
