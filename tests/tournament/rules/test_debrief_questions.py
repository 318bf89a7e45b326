"""The debrief's default question bank, its stages, and the running order of the talk."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.debrief_questions import (
    DEFAULT_BANK,
    QUESTION_MAX_LENGTH,
    STAGE_AIMS,
    STAGE_TITLES,
    Stage,
    default_bank,
    running_order,
    tidy_question,
)

PROPERTY = settings(database=None, max_examples=examples(100), deadline=None)
# Anything that would name a table's rules (the projector's own test is the same).
VARIANT_WORDS = re.compile(
    r"ace\s*-?\s*high|ace\s*-?\s*low|hearts|diamonds|clubs|spades|trump|[♥♦♣♠]", re.IGNORECASE
)
ORDER = {stage: place for place, stage in enumerate(Stage)}


def test_the_stages_follow_the_arc_of_a_debrief():
    assert list(Stage) == [
        Stage.FEELINGS,
        Stage.HAPPENED,
        Stage.NOTICING,
        Stage.COPING,
        Stage.ADAPTING,
        Stage.REAL_WORLD,
    ]
    assert set(STAGE_TITLES) == set(STAGE_AIMS) == set(Stage)


def test_the_default_bank_has_a_few_questions_for_every_stage_in_the_order_of_the_talk():
    assert 14 <= len(DEFAULT_BANK) <= 18
    per_stage = Counter(question.stage for question in DEFAULT_BANK)
    assert set(per_stage) == set(Stage)
    assert min(per_stage.values()) >= 2
    places = [ORDER[question.stage] for question in DEFAULT_BANK]
    assert places == sorted(places), "the bank reads in the order it is asked"


def test_every_default_question_is_a_tidy_question_that_fits_the_projector():
    texts = [question.text for question in DEFAULT_BANK]
    assert len(set(texts)) == len(texts)
    for text in texts:
        assert tidy_question(text) == text
        assert len(text) <= QUESTION_MAX_LENGTH
        assert text.endswith("?"), text


def test_no_default_question_names_a_tables_rules():
    for question in DEFAULT_BANK:
        assert VARIANT_WORDS.search(question.text) is None, question.text
    assert VARIANT_WORDS.search("Ace-high players met ace low ones") is not None


def test_the_default_bank_comes_in_the_language_it_is_asked_in():
    bank = default_bank(str.upper)
    assert [q.stage for q in bank] == [q.stage for q in DEFAULT_BANK]
    assert bank[0].text == DEFAULT_BANK[0].text.upper()
    assert default_bank() == list(DEFAULT_BANK)


def test_a_question_is_tidied_into_one_line():
    assert tidy_question("  How did\n it  feel?\t") == "How did it feel?"
    assert tidy_question(" \n\t ") == ""


SCREENS = {Stage.FEELINGS: ["ladder"], Stage.NOTICING: ["map"], Stage.REAL_WORLD: ["reveal"]}


def test_the_screens_open_their_stage_and_the_questions_follow_by_stage():
    questions = [
        (Stage.REAL_WORLD, "work?"),
        (Stage.FEELINGS, "feel?"),
        (Stage.NOTICING, "when?"),
        (Stage.FEELINGS, "word?"),
    ]
    assert [item for _stage, item in running_order(questions, SCREENS)] == [
        "ladder",
        "feel?",
        "word?",
        "map",
        "when?",
        "reveal",
        "work?",
    ]


def test_a_stage_without_questions_keeps_its_screens():
    order = running_order([], SCREENS)
    assert order == [
        (Stage.FEELINGS, "ladder"),
        (Stage.NOTICING, "map"),
        (Stage.REAL_WORLD, "reveal"),
    ]


@PROPERTY
@given(st.lists(st.tuples(st.sampled_from(list(Stage)), st.integers()), max_size=40))
def test_the_running_order_has_everything_once_stage_by_stage_in_the_banks_order(questions):
    keyed = [(stage, ("q", place, value)) for place, (stage, value) in enumerate(questions)]
    order = running_order(keyed, SCREENS)
    items = [item for _stage, item in order]
    screens = [item for item in items if isinstance(item, str)]
    assert screens == ["ladder", "map", "reveal"]
    assert sorted(item for item in items if isinstance(item, tuple)) == sorted(
        question for _stage, question in keyed
    )
    places = [ORDER[stage] for stage, _item in order]
    assert places == sorted(places)
    for stage in Stage:
        mine = [item[1] for s, item in order if s == stage and isinstance(item, tuple)]
        assert mine == sorted(mine), "within a stage, the bank's order"
