"""Hidden table variants: codes, the draw, redraws, plan checks and dealing."""

import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.variants import (
    ALL_VARIANTS,
    Suit,
    Variant,
    cards_per_player,
    check_variants,
    direction_label,
    draw_variants,
    max_anytime_tables,
    redraw_variant,
    suit_name,
    variant_label,
)
from tests.tables.test_rule_sheets import code_of, marked_messages, recorder, shout, v

ROOT = Path(__file__).resolve().parents[2]
MODULE_PATH = ROOT / "tables" / "variants.py"

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=200, deadline=None)

SHARES = [0.0, 0.2, 0.5, 1.0]
seeds = st.integers(min_value=-(2**63), max_value=2**63)
shares = st.one_of(st.sampled_from(SHARES), st.floats(min_value=0.0, max_value=1.0))


def distinct_available(table_count: int, share: float) -> int:
    # Stated independently of the module: 8 plain variants plus the allowed anytime ones.
    return 8 + min(8, max_anytime_tables(table_count, share))


def anytime_count(plan: list[Variant]) -> int:
    return sum(variant.trump_anytime for variant in plan)


# --- Suit and Variant -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suit", "value", "symbol"),
    [
        (Suit.HEARTS, "hearts", "♥"),
        (Suit.DIAMONDS, "diamonds", "♦"),
        (Suit.CLUBS, "clubs", "♣"),
        (Suit.SPADES, "spades", "♠"),
    ],
)
def test_suit_values_and_symbols(suit, value, symbol):
    assert suit == value
    assert str(suit) == value
    assert suit.symbol == symbol


def test_all_variants_are_the_16_combinations():
    assert len(ALL_VARIANTS) == 16
    assert set(ALL_VARIANTS) == {
        Variant(ace_high=high, trump=suit, trump_anytime=anytime)
        for high in (True, False)
        for suit in Suit
        for anytime in (True, False)
    }


@pytest.mark.parametrize(
    ("variant", "code"),
    [
        (Variant(ace_high=True, trump=Suit.HEARTS, trump_anytime=False), "high-hearts"),
        (Variant(ace_high=False, trump=Suit.CLUBS, trump_anytime=True), "low-clubs-anytime"),
        (Variant(ace_high=False, trump=Suit.SPADES, trump_anytime=False), "low-spades"),
        (Variant(ace_high=True, trump=Suit.DIAMONDS, trump_anytime=True), "high-diamonds-anytime"),
    ],
)
def test_code_examples(variant, code):
    assert variant.code == code


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=code_of)
def test_from_code_round_trips(variant):
    assert Variant.from_code(variant.code) == variant


def test_codes_are_unique():
    assert len({variant.code for variant in ALL_VARIANTS}) == 16


@pytest.mark.parametrize(
    "code",
    [
        "",
        "high",
        "hearts",
        "mid-hearts",
        "high-moons",
        "high-hearts-",
        "high-hearts-always",
        "high-hearts-anytime-anytime",
        "HIGH-HEARTS",
        " high-hearts",
        "high_hearts",
        "anytime-high-hearts",
        None,
        3,
    ],
)
def test_from_code_rejects_anything_else(code):
    with pytest.raises(ValueError):
        Variant.from_code(code)


def test_variant_accepts_a_stored_suit_string():
    variant = Variant(ace_high=True, trump="clubs", trump_anytime=False)
    assert variant.trump is Suit.CLUBS
    assert variant == v("high-clubs")


def test_variant_rejects_a_bad_suit_or_non_bool_flags():
    with pytest.raises(ValueError):
        Variant(ace_high=True, trump="moons", trump_anytime=False)
    with pytest.raises(TypeError):
        Variant(ace_high=1, trump=Suit.HEARTS, trump_anytime=False)
    with pytest.raises(TypeError):
        Variant(ace_high=True, trump=Suit.HEARTS, trump_anytime="no")


def test_variants_sort():
    assert sorted([v("high-spades"), v("low-hearts"), v("high-clubs")]) == [
        v("low-hearts"),
        v("high-clubs"),
        v("high-spades"),
    ]


def test_winning_card_order_ace_high():
    assert v("high-hearts").winning_card_order == ["A", "7", "6", "5", "4", "3", "2"]


def test_winning_card_order_ace_low():
    assert v("low-hearts-anytime").winning_card_order == ["A", "2", "3", "4", "5", "6", "7"]


def test_winning_card_order_is_a_fresh_list():
    variant = v("high-hearts")
    variant.winning_card_order.clear()
    assert len(variant.winning_card_order) == 7


# --- labels -----------------------------------------------------------------------------


def test_labels():
    assert suit_name(Suit.DIAMONDS) == "diamonds"
    assert direction_label(v("high-clubs")) == "Ace high"
    assert direction_label(v("low-clubs")) == "Ace low"
    assert variant_label(v("high-hearts-anytime")) == "Ace high · ♥ hearts trump · trump any time"
    assert variant_label(v("low-spades")) == "Ace low · ♠ spades trump"


def test_labels_are_translated():
    assert suit_name(Suit.CLUBS, shout) == "CLUBS"
    assert direction_label(v("low-clubs"), shout) == "ACE LOW"
    assert (
        variant_label(v("low-clubs-anytime"), shout) == "ACE LOW · ♣ CLUBS TRUMP · TRUMP ANY TIME"
    )


# --- max_anytime_tables -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "share", "expected"),
    [
        (0, 0.2, 0),
        (4, 0.2, 0),
        (5, 0.2, 1),
        (9, 0.2, 1),
        (10, 0.2, 2),
        (10, 0.0, 0),
        (10, 1.0, 10),
        (7, 0.5, 3),
        (10, 0.3, 3),
        (100, 0.29, 29),
    ],
)
def test_max_anytime_tables(tables, share, expected):
    assert max_anytime_tables(tables, share) == expected


def test_max_anytime_tables_defaults_to_one_in_five():
    assert [max_anytime_tables(n) for n in range(11)] == [0] * 5 + [1] * 5 + [2]


@pytest.mark.parametrize(("tables", "share"), [(-1, 0.2), (5, -0.1), (5, 1.01), (5, float("nan"))])
def test_max_anytime_tables_rejects_bad_input(tables, share):
    with pytest.raises(ValueError):
        max_anytime_tables(tables, share)


# --- draw_variants: worked examples -----------------------------------------------------


def test_no_tables_no_variants():
    assert draw_variants(0, seed=1) == []


@pytest.mark.parametrize(("tables", "share"), [(-1, 0.2), (3, -0.5), (3, 1.5), (3, float("nan"))])
def test_draw_rejects_bad_input(tables, share):
    with pytest.raises(ValueError):
        draw_variants(tables, seed=1, anytime_share=share)


def test_one_table_gets_a_plain_variant():
    (variant,) = draw_variants(1, seed=5)
    assert not variant.trump_anytime


def test_eight_tables_without_anytime_use_each_plain_variant_once():
    plan = draw_variants(8, seed=3, anytime_share=0)
    assert sorted(plan) == sorted(variant for variant in ALL_VARIANTS if not variant.trump_anytime)


def test_ten_tables_get_two_anytime_tables_and_all_differ():
    plan = draw_variants(10, seed=11)
    assert len(set(plan)) == 10
    assert anytime_count(plan) == 2


def test_sixteen_tables_at_half_share_use_every_variant():
    assert sorted(draw_variants(16, seed=9, anytime_share=0.5)) == sorted(ALL_VARIANTS)


def test_draw_does_not_touch_the_global_random_generator():
    state = random.getstate()
    draw_variants(30, seed=1)
    redraw_variant(draw_variants(10, seed=1), 3, seed=2)
    assert random.getstate() == state


def test_draw_is_pinned_for_a_seed():
    # The organizer's seed must give the same plan on every machine and Python run; a
    # change here means an event re-drawn with its old seed would get different tables.
    assert [variant.code for variant in draw_variants(10, seed=2024)] == [
        "high-hearts",
        "low-hearts-anytime",
        "high-diamonds",
        "low-spades",
        "high-clubs",
        "low-hearts",
        "high-hearts-anytime",
        "low-diamonds",
        "high-spades",
        "low-clubs",
    ]


def test_draw_does_not_depend_on_hash_randomisation():
    code = (
        "from tables.variants import draw_variants; print([x.code for x in draw_variants(25, 7)])"
    )
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        result = subprocess.run(
            [sys.executable, "-B", "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(result.stdout)
    assert outputs == {f"{[variant.code for variant in draw_variants(25, 7)]}\n"}


def test_different_seeds_usually_give_different_plans():
    plans = {tuple(draw_variants(8, seed=seed)) for seed in range(100)}
    assert len(plans) >= 90


# --- draw_variants: properties ----------------------------------------------------------


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares)
def test_draw_is_deterministic_for_a_seed(tables, seed, share):
    assert draw_variants(tables, seed, share) == draw_variants(tables, seed, share)


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares)
def test_draw_gives_one_variant_per_table(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    assert len(plan) == tables
    assert all(variant in ALL_VARIANTS for variant in plan)


@PROPERTY
@given(st.integers(min_value=1, max_value=60), seeds, shares)
def test_neighbours_never_share_a_variant(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    assert all(plan[i] != plan[i + 1] for i in range(tables - 1))


@PROPERTY
@given(st.integers(min_value=1, max_value=16), seeds, shares)
def test_every_table_differs_when_there_are_enough_variants(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    if tables <= distinct_available(tables, share):
        assert len(set(plan)) == tables


@pytest.mark.parametrize("share", SHARES)
@PROPERTY
@given(tables=st.integers(min_value=0, max_value=60), seed=seeds)
def test_anytime_tables_never_exceed_the_limit(share, tables, seed):
    assert anytime_count(draw_variants(tables, seed, share)) <= max_anytime_tables(tables, share)


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares)
def test_draw_fills_the_anytime_quota_up_to_half_the_tables(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    assert anytime_count(plan) == min(max_anytime_tables(tables, share), tables // 2)


@PROPERTY
@given(st.integers(min_value=1, max_value=60), seeds, shares)
def test_repeats_come_back_no_sooner_than_eight_tables(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    for i in range(tables):
        for j in range(i + 1, min(i + 8, tables)):
            assert plan[i] != plan[j], (i + 1, j + 1, plan[i].code)


@PROPERTY
@given(st.integers(min_value=1, max_value=60), seeds, shares)
def test_repeats_are_spread_evenly_over_the_variants(tables, seed, share):
    plan = draw_variants(tables, seed, share)
    uses = Counter(plan)
    for anytime in (False, True):
        counts = [uses[variant] for variant in ALL_VARIANTS if variant.trump_anytime == anytime]
        if any(counts):
            assert max(counts) - min(counts) <= 1


@PROPERTY
@given(st.integers(min_value=1, max_value=60), seeds, shares)
def test_draw_alternates_direction(tables, seed, share):
    # The documented preference; the draw itself always manages it.
    plan = draw_variants(tables, seed, share)
    assert all(plan[i].ace_high != plan[i + 1].ace_high for i in range(tables - 1))


# --- redraw_variant ---------------------------------------------------------------------


@st.composite
def plan_and_index(draw):
    tables = draw(st.integers(min_value=1, max_value=40))
    share = draw(shares)
    plan = draw_variants(tables, draw(seeds), share)
    index = draw(st.integers(min_value=0, max_value=tables - 1))
    return plan, index, share


@PROPERTY
@given(plan_and_index(), seeds)
def test_redraw_differs_from_the_old_variant_and_the_neighbours(case, seed):
    plan, index, share = case
    new = redraw_variant(plan, index, seed, share)
    assert new != plan[index]
    if index > 0:
        assert new != plan[index - 1]
    if index < len(plan) - 1:
        assert new != plan[index + 1]


@PROPERTY
@given(plan_and_index(), seeds)
def test_redraw_keeps_the_anytime_limit(case, seed):
    plan, index, share = case
    new_plan = [*plan]
    new_plan[index] = redraw_variant(plan, index, seed, share)
    assert anytime_count(new_plan) <= max_anytime_tables(len(plan), share)


@PROPERTY
@given(plan_and_index(), seeds)
def test_redraw_avoids_every_other_table_when_it_can(case, seed):
    plan, index, share = case
    others = plan[:index] + plan[index + 1 :]
    anytime_left = max_anytime_tables(len(plan), share) - anytime_count(others)
    unused = [
        variant
        for variant in ALL_VARIANTS
        if variant not in plan and (anytime_left > 0 or not variant.trump_anytime)
    ]
    new = redraw_variant(plan, index, seed, share)
    if unused:
        assert new not in others
    else:
        neighbours = plan[max(index - 1, 0) : index + 2]
        allowed = [
            variant
            for variant in ALL_VARIANTS
            if variant not in neighbours and (anytime_left > 0 or not variant.trump_anytime)
        ]
        assert others.count(new) == min(others.count(variant) for variant in allowed)


@PROPERTY
@given(plan_and_index(), seeds)
def test_redraw_is_deterministic_for_a_seed(case, seed):
    plan, index, share = case
    assert redraw_variant(plan, index, seed, share) == redraw_variant(plan, index, seed, share)


def test_redraw_prefers_an_unused_variant_of_the_other_direction():
    plan = [v("high-hearts"), v("low-hearts"), v("high-spades")]
    for seed in range(20):
        new = redraw_variant(plan, 1, seed, anytime_share=0)
        assert new in {v("low-diamonds"), v("low-clubs"), v("low-spades")}


def test_redraw_ties_are_broken_by_the_seed():
    plan = [v("high-hearts"), v("low-hearts"), v("high-spades")]
    assert len({redraw_variant(plan, 1, seed, anytime_share=0) for seed in range(30)}) == 3


def test_redraw_picks_the_farthest_repeat_when_every_variant_is_in_use():
    codes = ["high-hearts", "low-hearts", "high-diamonds", "low-diamonds", "high-clubs"]
    codes += ["low-clubs", "high-spades", "low-spades", "high-hearts"]
    plan = [v(code) for code in codes]
    # Every plain variant is used once elsewhere; low-hearts (table 2) is the farthest.
    assert redraw_variant(plan, 8, seed=1, anytime_share=0) == v("low-hearts")


def test_redraw_replaces_anytime_when_the_plan_is_over_the_limit():
    plan = [v("high-hearts-anytime"), v("low-hearts-anytime"), v("high-clubs-anytime")]
    new = redraw_variant(plan, 1, seed=4, anytime_share=0.2)
    assert not new.trump_anytime


def test_redraw_may_use_anytime_within_the_limit():
    plan = [v(code) for code in ["high-hearts", "low-hearts", "high-diamonds", "low-diamonds"]]
    plan += [v("high-clubs")]
    results = {redraw_variant(plan, 2, seed, anytime_share=0.2) for seed in range(50)}
    assert any(variant.trump_anytime for variant in results)


@pytest.mark.parametrize("index", [-1, 3, 10])
def test_redraw_rejects_an_index_outside_the_plan(index):
    with pytest.raises(ValueError):
        redraw_variant(draw_variants(3, seed=1), index, seed=1)


def test_redraw_rejects_a_bad_share():
    with pytest.raises(ValueError):
        redraw_variant(draw_variants(3, seed=1), 0, seed=1, anytime_share=2)


# --- check_variants ---------------------------------------------------------------------


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares)
def test_drawn_plans_have_no_problems(tables, seed, share):
    assert check_variants(draw_variants(tables, seed, share), share) == []


def test_empty_plan_has_no_problems():
    assert check_variants([]) == []


def test_a_good_hand_made_plan_has_no_problems():
    assert check_variants([v("high-hearts"), v("high-spades"), v("low-hearts")]) == []


def test_check_flags_equal_neighbours():
    problems = check_variants([v("high-hearts"), v("low-clubs"), v("low-clubs")], 0)
    assert (
        "Tables 2 and 3 are neighbours with the same variant (Ace low · ♣ clubs trump)." in problems
    )


def test_check_flags_too_many_anytime_tables():
    plan = [v(code) for code in ["high-hearts-anytime", "low-hearts", "high-spades"]]
    plan += [v("low-spades-anytime"), v("high-clubs")]
    assert check_variants(plan, 0.2) == [
        "The limit for tables where a trump may be played at any time is 1, "
        "but tables 1, 4 allow it."
    ]
    assert check_variants(plan, 0.4) == []


def test_check_flags_any_anytime_table_when_none_is_allowed():
    problems = check_variants([v("high-hearts"), v("low-hearts-anytime")], 0.2)
    assert problems == [
        "No table of this event should let a trump be played at any time (share 20% of 2 "
        "tables rounds down to none), but tables 2 do."
    ]


def test_check_flags_an_avoidable_repeat():
    plan = [v("high-hearts"), v("low-hearts"), v("high-hearts")]
    assert check_variants(plan, 0) == [
        "Tables 1, 3 share one variant (Ace high · ♥ hearts trump), "
        "though every table could have its own."
    ]


def test_check_counts_allowed_anytime_variants_as_available():
    # 9 tables, one anytime allowed: 9 distinct variants exist, so a plain repeat is avoidable.
    plain = [variant for variant in ALL_VARIANTS if not variant.trump_anytime]
    plan = [*plain, plain[1]]
    assert len(check_variants(plan, 0)) == 0
    assert len(check_variants(plan, 0.2)) == 1


def test_check_accepts_unavoidable_repeats():
    plain = [variant for variant in ALL_VARIANTS if not variant.trump_anytime]
    plan = plain + plain[:3]
    assert check_variants(plan, 0) == []


def test_check_flags_too_few_distinct_variants_when_repeats_are_needed():
    plan = [v("high-hearts"), v("low-hearts")] * 5
    assert check_variants(plan, 0) == [
        "Different variants in use: 2 of 8 possible; some repeats could be avoided."
    ]


def test_check_messages_are_translated():
    problems = check_variants([v("high-hearts"), v("high-hearts")], 0, translate=shout)
    assert problems
    assert all(not any(char.islower() for char in problem) for problem in problems)


# --- cards_per_player -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards"),
    [(1, 7), (2, 7), (3, 7), (4, 7), (5, 5), (6, 4), (7, 4), (8, 3), (9, 3), (10, 2)],
)
def test_cards_per_player(players, cards):
    assert cards_per_player(players) == cards


@pytest.mark.parametrize("players", range(1, 29))
def test_cards_per_player_fits_the_deck_and_goes_round_evenly(players):
    cards = cards_per_player(players)
    assert 1 <= cards <= 7
    assert cards * players <= 28
    # Nobody could get one more card each without running out or passing 7.
    assert cards == 7 or (cards + 1) * players > 28


@pytest.mark.parametrize("players", [0, -1, 29])
def test_cards_per_player_rejects_impossible_tables(players):
    with pytest.raises(ValueError):
        cards_per_player(players)


# --- translation ------------------------------------------------------------------------


def test_translated_strings_are_exactly_the_marked_ones():
    seen, record = recorder()
    for variant in ALL_VARIANTS:
        variant_label(variant, record)
    bad_plain = [v("high-hearts"), v("high-hearts"), v("low-hearts-anytime")]
    check_variants(bad_plain, 0, translate=record)
    check_variants([v("high-hearts"), v("low-hearts")] * 5, 0, translate=record)
    too_many = [v("high-hearts-anytime"), v("low-hearts-anytime")] + [v("high-clubs")] * 3
    check_variants(too_many, 0.2, translate=record)
    for suit in Suit:
        suit_name(suit, record)

    # Every message passed to translate is marked for makemessages, and nothing marked is dead.
    assert seen == marked_messages(MODULE_PATH)
