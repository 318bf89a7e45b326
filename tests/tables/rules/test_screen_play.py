"""The rules of a game played on screens: the deal, turns, pointing and taking tricks."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.deal import hand_sizes
from tables.rules.screen_play import (
    DECK,
    PlayProblem,
    agreed_taker,
    card_code,
    card_suit,
    deal_game,
    disagrees,
    play_problem,
    replay,
)
from tests.properties import examples
from tournament.rules.cards import Suit

SEATS = ("Ana", "Ben", "Cleo", "Dev", "Eli")


def test_the_deck_is_28_cards_named_by_rank_and_suit():
    assert len(DECK) == len(set(DECK)) == 28
    assert card_code("7", Suit.HEARTS) == "7H"
    assert card_suit("AS") is Suit.SPADES


def test_the_deal_passes_to_the_left_and_the_dealers_left_leads():
    first = deal_game(SEATS, game_number=1, seed=3)
    second = deal_game(SEATS, game_number=2, seed=3)
    assert (first.dealer, first.leader) == ("Ana", "Ben")
    assert (second.dealer, second.leader) == ("Ben", "Cleo")
    assert deal_game(SEATS, game_number=6, seed=3).dealer == "Ana"


def test_the_dealers_left_gets_the_extra_cards_and_the_whole_deck_is_dealt():
    dealt = deal_game(SEATS, game_number=1, seed=9)
    assert [len(dealt.hands[p]) for p in ("Ben", "Cleo", "Dev", "Eli", "Ana")] == [6, 6, 6, 5, 5]
    assert sorted(c for hand in dealt.hands.values() for c in hand) == sorted(DECK)


@given(players=st.integers(1, 8), game=st.integers(1, 20), seed=st.integers(0, 2**32))
def test_every_deal_is_the_sources(players, game, seed):
    seats = [f"P{i}" for i in range(players)]
    dealt = deal_game(seats, game_number=game, seed=seed)
    cards = [c for hand in dealt.hands.values() for c in hand]
    assert len(cards) == len(set(cards)) == sum(hand_sizes(players))
    assert sorted(map(len, dealt.hands.values()), reverse=True) == sorted(
        hand_sizes(players), reverse=True
    )


def _game(dealt, plays=(), taken=None, pointing=None):
    return replay(
        SEATS,
        hands=dealt.hands,
        leader=dealt.leader,
        plays=list(plays),
        taken=taken or {},
        pointing=pointing,
    )


def test_a_trick_goes_round_from_the_leader_and_any_held_card_may_be_played():
    dealt = deal_game(SEATS, game_number=1, seed=1)
    game = _game(dealt)
    assert game.trick.to_play == "Ben"
    ben_card = dealt.hands["Ben"][0]
    assert play_problem(game, "Cleo", dealt.hands["Cleo"][0]) == PlayProblem.NOT_YOUR_TURN
    assert play_problem(game, "Ben", dealt.hands["Cleo"][0]) == PlayProblem.NOT_HELD
    # Whatever card of the hand: no suit to follow is ever checked.
    for card in dealt.hands["Ben"]:
        assert play_problem(game, "Ben", card) is None
    game = _game(dealt, [(1, "Ben", ben_card)])
    assert game.trick.to_play == "Cleo"


def _play_trick(dealt, number, order, plays):
    game = _game(dealt, plays)
    for player in order:
        held = [c for c in game.hands[player]]
        plays = [*plays, (number, player, held[-1])]
        game = _game(dealt, plays)
    return plays


def test_only_agreement_takes_a_trick_and_the_taker_leads_next():
    dealt = deal_game(SEATS, game_number=1, seed=5)
    plays = _play_trick(dealt, 1, ["Ben", "Cleo", "Dev", "Eli", "Ana"], [])
    game = _game(dealt, plays)
    assert game.trick.complete
    assert play_problem(game, "Ben", game.hands["Ben"][0]) == PlayProblem.POINTING
    dev_card = dict((p, c) for _n, p, c in plays)["Dev"]
    ana_card = dict((p, c) for _n, p, c in plays)["Ana"]
    split = dict.fromkeys(SEATS, dev_card) | {"Eli": ana_card}
    game = _game(dealt, plays, pointing=split)
    assert disagrees(game.trick)
    assert agreed_taker(game.trick, SEATS) is None
    game = _game(dealt, plays, pointing=dict.fromkeys(SEATS, dev_card))
    assert agreed_taker(game.trick, SEATS) == "Dev"
    game = _game(dealt, plays, taken={1: "Dev"})
    assert game.tricks["Dev"] == 1
    assert game.trick.number == 2
    assert game.trick.to_play == "Dev"


@settings(max_examples=examples(50))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7), takers=st.data())
def test_a_whole_game_ends_with_every_card_played(seed, players, takers):
    seats = [f"P{i}" for i in range(players)]
    dealt = deal_game(seats, game_number=1, seed=seed)
    plays, taken = [], {}
    while True:
        game = replay(seats, hands=dealt.hands, leader=dealt.leader, plays=plays, taken=taken)
        if game.over:
            break
        trick = game.trick
        if trick.complete:
            taken[trick.number] = takers.draw(st.sampled_from(trick.players))
            continue
        player = trick.to_play
        plays.append((trick.number, player, game.hands[player][0]))
    assert not any(game.hands.values())
    assert sum(game.tricks.values()) == max(hand_sizes(players))
    assert Counter(c for _n, _p, c in plays) == Counter(
        c for hand in dealt.hands.values() for c in hand
    )
    assert play_problem(game, seats[0], "7H") == PlayProblem.OVER


def test_a_leader_without_cards_passes_the_lead_left():
    seats = ("A", "B")
    hands = {"A": ("7H",), "B": ("6H", "5H")}
    game = replay(
        seats, hands=hands, leader="A", plays=[(1, "A", "7H"), (1, "B", "6H")], taken={1: "A"}
    )
    assert game.trick.leader == "B"
    assert game.trick.players == ("B",)


def test_a_history_that_the_writes_could_not_have_stored_is_refused():
    dealt = deal_game(SEATS, game_number=1, seed=1)
    with pytest.raises(ValueError):
        _game(dealt, [(1, "Cleo", dealt.hands["Cleo"][0])])
    with pytest.raises(ValueError):
        _game(dealt, [(1, "Ben", dealt.hands["Cleo"][0])])


def test_one_player_changing_their_mind_alone_is_not_a_disagreement():
    from tables.rules.screen_play import ever_disagreed

    assert not ever_disagreed([("Ana", "7H"), ("Ana", "5H"), ("Ben", "5H")])
    assert ever_disagreed([("Ana", "7H"), ("Ben", "5H"), ("Ben", "7H")])
    assert not ever_disagreed([])
