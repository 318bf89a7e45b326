"""The clauses beyond the classic three: combinations, codes, difference sets and the draw."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.variants import (
    ALL_VARIANTS,
    DISRUPTIVE_CLAUSES,
    EVERY_VARIANT,
    GENTLE_CLAUSES,
    NEW_CLAUSES,
    Clause,
    DifferenceSet,
    Suit,
    Variant,
    check_variants,
    clause_summary,
    clause_targets,
    difference_clauses,
    draw_variants,
    max_anytime_tables,
    max_disruptive_tables,
    rule_lines,
    variant_label,
)
from tests.properties import examples

PROPERTY = settings(database=None, max_examples=examples(150), deadline=None)
seeds = st.integers(min_value=-(2**63), max_value=2**63)
shares = st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.5, 1.0])
# Every difference set, the custom one with any checklist.
clause_sets = st.one_of(
    st.sampled_from(
        [difference_clauses(s) for s in (DifferenceSet.CLASSIC, "gentle", "disruptive")]
    ),
    st.frozensets(st.sampled_from(NEW_CLAUSES)),
)


# --- combinations and codes -------------------------------------------------------------


@pytest.mark.parametrize(
    "flags",
    [
        {"no_trump": True, "trump_anytime": True},
        {"no_trump": True, "trumps_broken": True},
        {"trump_anytime": True, "trumps_broken": True},
    ],
)
def test_clauses_that_make_no_playable_sheet_are_refused(flags):
    with pytest.raises(ValueError, match="cannot combine"):
        Variant(ace_high=True, trump=Suit.CLUBS, **flags)


def test_the_remaining_combinations_are_allowed():
    Variant(ace_high=True, trump=Suit.CLUBS, no_trump=True, must_overtake=True, fewest_wins=True)
    Variant(ace_high=False, trump=Suit.CLUBS, trump_anytime=True, must_overtake=True)
    Variant(ace_high=False, trump=Suit.CLUBS, trumps_broken=True, fewest_wins=True)


def test_every_playable_variant_is_listed_once_with_the_classic_ones_first():
    # 2 directions x (4 trumps x {plain, anytime, broken} + no trump) x overtake x fewest.
    assert len(EVERY_VARIANT) == len(set(EVERY_VARIANT)) == 2 * 13 * 4
    assert EVERY_VARIANT[: len(ALL_VARIANTS)] == ALL_VARIANTS


def test_every_code_names_its_variant():
    for variant in EVERY_VARIANT:
        assert Variant.from_code(variant.code) == variant, variant.code


def test_classic_codes_are_unchanged_and_new_clauses_are_suffixes():
    assert Variant(ace_high=True, trump=Suit.HEARTS).code == "high-hearts"
    assert Variant(ace_high=False, trump=Suit.CLUBS, trump_anytime=True).code == "low-clubs-anytime"
    no_trump = Variant(ace_high=False, trump=Suit.SPADES, no_trump=True, fewest_wins=True)
    assert no_trump.code == "low-notrump-fewest"
    # No trump has no suit: whatever was stored, two such variants are the same.
    assert no_trump == Variant(ace_high=False, trump=Suit.CLUBS, no_trump=True, fewest_wins=True)


@pytest.mark.parametrize(
    "code",
    [
        "high-notrump-anytime",
        "high-notrump-broken",
        "high-hearts-anytime-broken",
        "high-hearts-fewest-overtake",  # out of order
        "high-hearts-fewest-fewest",
        "high-hearts-misere",
        "high-notrump-notrump",
    ],
)
def test_codes_never_produced_are_refused(code):
    with pytest.raises(ValueError, match="not a variant code"):
        Variant.from_code(code)


def test_labels_and_reveal_lines_name_every_clause():
    variant = Variant.from_code("low-notrump-overtake-fewest")
    assert variant_label(variant) == (
        "Ace low · no trump · must beat the best card · fewest tricks wins"
    )
    assert rule_lines(variant) == [
        "Ace low: the lowest card wins (the ace beats the 2)",
        "Trump: none",
        "No trump: only the suit that was led can win a trick",
        "Must beat the best card of the suit so far, if you can",
        "Fewest tricks wins the game",
    ]
    broken = Variant.from_code("high-spades-broken")
    assert rule_lines(broken)[1:] == [
        "Trump: spades",
        "Trumps may not be led until someone has trumped a trick",
    ]


# --- difference sets --------------------------------------------------------------------


def test_difference_sets_name_their_clauses():
    assert difference_clauses("classic") == frozenset()
    assert difference_clauses("gentle") == {Clause.NO_TRUMP, Clause.TRUMPS_BROKEN}
    assert difference_clauses("disruptive") == {Clause.FEWEST_WINS, Clause.MUST_OVERTAKE}
    assert difference_clauses("custom", ["fewest", "notrump"]) == {
        Clause.FEWEST_WINS,
        Clause.NO_TRUMP,
    }
    assert difference_clauses("custom") == frozenset()


def test_the_custom_checklist_takes_only_new_clauses():
    with pytest.raises(ValueError):
        difference_clauses("custom", ["anytime"])
    with pytest.raises(ValueError):
        difference_clauses("strange")


def test_gentle_and_disruptive_clauses_split_the_new_ones():
    assert set(NEW_CLAUSES) == GENTLE_CLAUSES | DISRUPTIVE_CLAUSES
    assert not GENTLE_CLAUSES & DISRUPTIVE_CLAUSES


def test_clause_targets():
    assert clause_targets(10, NEW_CLAUSES, 0.2) == {
        Clause.NO_TRUMP: 2,
        Clause.TRUMPS_BROKEN: 2,
        Clause.FEWEST_WINS: 1,
        Clause.MUST_OVERTAKE: 1,
    }
    assert clause_targets(10, [Clause.FEWEST_WINS], 0.3) == {Clause.FEWEST_WINS: 3}
    assert clause_targets(1, NEW_CLAUSES) == dict.fromkeys(NEW_CLAUSES, 0)


# --- the draw ---------------------------------------------------------------------------


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares)
def test_the_classic_set_draws_exactly_as_before(tables, seed, share):
    assert draw_variants(tables, seed, share, clauses=()) == draw_variants(tables, seed, share)


@PROPERTY
@given(st.integers(min_value=0, max_value=60), seeds, shares, shares, clause_sets)
def test_the_draw_keeps_its_guarantees_for_every_difference_set(
    tables, seed, share, disruptive, clauses
):
    plan = draw_variants(tables, seed, share, clauses=clauses, disruptive_share=disruptive)
    # Seeded.
    assert plan == draw_variants(tables, seed, share, clauses=clauses, disruptive_share=disruptive)
    assert len(plan) == tables
    # Neighbours differ in direction and trump ("no trump" counting as a trump).
    for first, second in itertools.pairwise(plan):
        assert first.ace_high != second.ace_high
        assert first.trump_key != second.trump_key
        # ... and never share a new clause.
        assert not (first.clauses & second.clauses & set(NEW_CLAUSES))
    # Only the chosen clauses, at most one new one per table.
    for variant in plan:
        new = variant.clauses & set(NEW_CLAUSES)
        assert new <= clauses
        assert len(new) <= 1
    # Caps.
    assert sum(v.disruptive for v in plan) <= max_disruptive_tables(tables, disruptive)
    assert sum(v.trump_anytime for v in plan) <= max_anytime_tables(tables, share)
    # The classic draw stays underneath: same directions, and every table's classic
    # clauses and trump unless the table went without a trump.
    classic = draw_variants(tables, seed, share)
    for drawn, base in zip(plan, classic, strict=True):
        assert drawn.ace_high == base.ace_high
        assert drawn.trump_anytime == base.trump_anytime
        assert drawn.no_trump or drawn.trump == base.trump
    assert check_variants(plan, share, disruptive_share=disruptive) == []


@PROPERTY
@given(st.integers(min_value=4, max_value=60), seeds, clause_sets)
def test_each_chosen_clause_reaches_tables(tables, seed, clauses):
    plan = draw_variants(tables, seed, 0.2, clauses=clauses, disruptive_share=0.25)
    targets = clause_targets(tables, clauses, 0.25)
    for clause in clauses:
        if targets[clause]:
            assert any(clause in variant.clauses for variant in plan)


def test_a_ten_table_disruptive_event():
    plan = draw_variants(10, 5, clauses=difference_clauses("disruptive"), disruptive_share=0.2)
    assert sum(v.fewest_wins for v in plan) == 1
    assert sum(v.must_overtake for v in plan) == 1
    assert sum(v.trump_anytime for v in plan) == 2


# --- the console's account --------------------------------------------------------------


def test_clause_summary_names_the_tables_and_the_quota():
    plan = [
        Variant.from_code("high-hearts-fewest"),
        Variant.from_code("low-clubs"),
        Variant.from_code("high-notrump"),
        Variant.from_code("low-spades"),
        Variant.from_code("high-diamonds"),
    ]
    assert clause_summary(plan, ["fewest", "overtake", "notrump"], 0.2) == [
        "No trump: only the suit that was led can win a trick: table 3.",
        "Must beat the best card of the suit so far, if you can: no table yet.",
        "Fewest tricks wins the game: table 1.",
        "Disruptive clauses at 1 table of 5; at most 1 may have one (20% of the tables). "
        "Gentle ones at one table in four, never at two neighbours.",
    ]
    plan[1] = Variant.from_code("low-notrump")
    assert clause_summary(plan, ["notrump"], 0.2)[0] == (
        "No trump: only the suit that was led can win a trick: tables 2, 3."
    )


def test_clause_summary_says_why_a_disruptive_clause_has_no_table():
    plan = draw_variants(4, 1, clauses=["fewest"], disruptive_share=0.2)
    assert clause_summary(plan, ["fewest"], 0.2)[0] == (
        "Fewest tricks wins the game: no table, since the disruptive share (20%) of 4 "
        "tables rounds down to none."
    )


def test_a_classic_plan_has_no_summary():
    assert clause_summary(draw_variants(10, 3), []) == []


def test_clause_summary_strings_are_marked():
    from tests.tables.rules.test_rule_sheets import recorder

    seen, record = recorder()
    plan = draw_variants(10, 3, clauses=NEW_CLAUSES)
    clause_summary(plan, NEW_CLAUSES, 0.2, record)
    clause_summary(plan, ["notrump"], 0.2, record)
    clause_summary(draw_variants(3, 1), ["fewest"], 0.2, record)
    clause_summary(draw_variants(10, 3), ["fewest"], 0.2, record)
    assert {
        "%(clause)s: no table yet.",
        "Gentle clauses at one table in four, never at two neighbours.",
    } <= seen
