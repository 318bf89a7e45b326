"""Who won a game, said by the players: when the claim step opens, and when they agree."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tables.rules.game_claims import agreed_winner, claim_open, claims_disagree, latest_claims

SEATS = ("Ana", "Ben", "Cleo")


def test_the_step_opens_once_the_last_trick_is_taken_in_practice_too():
    assert claim_open(over=True, time_up=False, taken=6, practice=False)
    assert claim_open(over=True, time_up=False, taken=6, practice=True)
    assert not claim_open(over=False, time_up=False, taken=3, practice=False)


def test_time_up_opens_it_for_a_game_cut_off_with_a_trick_taken():
    assert claim_open(over=False, time_up=True, taken=1, practice=False)
    # Nothing taken: the game does not count, so there is nothing to claim.
    assert not claim_open(over=False, time_up=True, taken=0, practice=False)


def test_every_player_pointing_at_one_player_is_an_agreement():
    latest = latest_claims([("Ana", "Ben"), ("Ben", "Ben"), ("Cleo", "Ana"), ("Cleo", "Ben")])
    assert latest == {"Ana": "Ben", "Ben": "Ben", "Cleo": "Ben"}
    assert agreed_winner(latest, SEATS) == "Ben"
    assert not claims_disagree(latest)


def test_a_player_who_has_not_pointed_or_points_elsewhere_holds_the_game_back():
    assert agreed_winner({"Ana": "Ben", "Ben": "Ben"}, SEATS) is None
    split = {"Ana": "Ben", "Ben": "Ben", "Cleo": "Cleo"}
    assert agreed_winner(split, SEATS) is None
    assert claims_disagree(split)
    assert agreed_winner({}, ()) is None


@given(st.lists(st.tuples(st.sampled_from(SEATS), st.sampled_from(SEATS)), max_size=12))
def test_a_game_is_agreed_exactly_when_everyone_last_named_the_same_player(claims):
    latest = latest_claims(claims)
    last_words = {player: winner for player, winner in claims}  # the later replaces
    everyone_alike = set(last_words) == set(SEATS) and len(set(last_words.values())) == 1
    winner = agreed_winner(latest, SEATS)
    assert (winner is not None) == everyone_alike
    if winner is not None:
        assert set(last_words.values()) == {winner}
