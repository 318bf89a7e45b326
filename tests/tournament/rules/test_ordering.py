"""The one table order: more games first, then accent- and case-blind names, then spelling."""

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.ordering import name_key, rank_players

REPO_ROOT = Path(__file__).resolve().parents[3]
# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(200))

NAME_ALPHABET = "aAáÁeEéÉëËoOöÖzZ"
names = st.text(alphabet=NAME_ALPHABET, min_size=1, max_size=4)


# --- name_key -------------------------------------------------------------------------


def test_name_key_folds_accents_and_case_but_keeps_exact_spelling():
    assert name_key("Émile") == ("emile", "Émile")
    assert name_key("zoë") == ("zoe", "zoë")
    assert name_key("Zoe") == ("zoe", "Zoe")


def test_name_key_puts_emile_before_eva_before_eve():
    assert sorted(["eve", "Eva", "émile"], key=name_key) == ["émile", "Eva", "eve"]
    assert sorted(["Eva", "Émile"], key=name_key) == ["Émile", "Eva"]


def test_name_key_exact_spelling_is_the_last_resort():
    # Same folded form, so plain str comparison decides: "Z" (U+005A) < "z" (U+007A).
    assert name_key("zoë")[0] == name_key("Zoe")[0]
    assert sorted(["zoë", "Zoe"], key=name_key) == ["Zoe", "zoë"]


def test_name_key_handles_decomposed_input_like_precomposed():
    decomposed = "E\u0301mile"
    assert name_key(decomposed)[0] == name_key("Émile")[0] == "emile"


# --- rank_players ---------------------------------------------------------------------


def test_rank_players_more_games_first():
    assert rank_players({"Ann": 1, "Bob": 3, "Cy": 2}) == ["Bob", "Cy", "Ann"]


def test_rank_players_ties_go_alphabetically_ignoring_accents_and_case():
    assert rank_players({"eve": 2, "Eva": 2, "émile": 2, "Zed": 3}) == [
        "Zed",
        "émile",
        "Eva",
        "eve",
    ]


def test_rank_players_games_beat_the_alphabet():
    assert rank_players({"Aaron": 0, "Zora": 1}) == ["Zora", "Aaron"]


def test_rank_players_empty_table():
    assert rank_players({}) == []


def test_rank_players_rejects_negative_counts():
    with pytest.raises(ValueError, match="Bob"):
        rank_players({"Ann": 1, "Bob": -1})


@PROPERTY
@given(st.dictionaries(names, st.integers(0, 6), max_size=8), st.randoms())
def test_rank_players_is_a_total_order_independent_of_insertion_order(games, rnd):
    ranked = rank_players(games)
    assert sorted(ranked) == sorted(games)
    shuffled_items = list(games.items())
    rnd.shuffle(shuffled_items)
    assert rank_players(dict(shuffled_items)) == ranked
    for earlier, later in itertools.pairwise(ranked):
        assert games[earlier] >= games[later]
        if games[earlier] == games[later]:
            assert name_key(earlier) < name_key(later)


@PROPERTY
@given(names)
def test_name_key_ignores_case_and_accents(name):
    plain = "".join({"á": "a", "é": "e", "ë": "e", "ö": "o"}.get(c, c) for c in name.lower())
    assert name_key(name)[0] == name_key(plain.upper())[0] == plain
