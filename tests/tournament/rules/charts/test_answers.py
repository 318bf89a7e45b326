"""The word cloud of the room's answers: words folded as names are, sized by count, none
on another nor off the chart, every text readable from the back of the room."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tests.tournament.rules.charts.helpers import (
    MIN_PX,
    SVG,
    meeting,
    outside,
    smallest_px,
    texts,
)
from tournament.rules.charts.answers import WordCount, count_words, word_cloud_svg, word_key

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(60), deadline=None)


def words_in(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == "cloud-word"]


def size_of(group: ET.Element) -> float:
    text = group.find(f"{SVG}text")
    assert text is not None
    return float(text.attrib["font-size"])


def cloud(words, **kwargs) -> ET.Element:
    return ET.fromstring(word_cloud_svg(words, title="How did you feel?", **kwargs))


def test_a_word_folds_as_a_name_does_with_its_spaces_collapsed():
    assert word_key("  Łódź   ZOO ") == "lodz zoo"
    assert word_key("Émile") == word_key("emile") == "emile"
    assert word_key("Straße") == "strasse"
    assert word_key("lost") != word_key("lots")


def test_answers_that_fold_alike_are_one_word_shown_in_its_most_common_spelling():
    words = count_words(["Lost", "lost", "lost ", "LÔST", "angry", "Angry", "calm"])

    assert words == [
        WordCount("lost", "lost", 4),
        WordCount("Angry", "angry", 2),  # a tie of spellings: the first by name_key
        WordCount("calm", "calm", 1),
    ]


def test_words_come_most_answered_first_then_by_key_and_blank_answers_count_for_nothing():
    words = count_words(["zebra", "apple", "  ", "", "mango", "mango", "\u200b"])

    assert [(w.key, w.count) for w in words] == [("mango", 2), ("apple", 1), ("zebra", 1)]


def test_the_most_answered_word_is_drawn_largest_and_more_answers_never_draw_smaller():
    words = count_words(["lost"] * 9 + ["angry"] * 4 + ["calm"] * 4 + ["curious"])
    svg = cloud(words)

    sizes = {g.get("data-key"): size_of(g) for g in words_in(svg)}

    assert sizes["lost"] > sizes["angry"] == sizes["calm"] > sizes["curious"]


def test_the_cloud_shows_at_most_the_limit_the_most_answered():
    words = [WordCount(f"word{i}", f"word{i}", 100 - i) for i in range(60)]

    drawn = {g.get("data-key") for g in words_in(cloud(words, limit=40))}

    assert drawn == {f"word{i}" for i in range(40)}
    assert len(words_in(cloud(words, limit=5))) == 5


def test_the_text_alternative_lists_every_word_with_its_count():
    svg = cloud(count_words(["lost", "lost", "angry"]))

    label = svg.get("aria-label")
    assert svg.get("role") == "img"
    assert label == svg.find(f"{SVG}title").text
    assert label == "How did you feel?: \u2068lost\u2069 (2), \u2068angry\u2069 (1)"


def test_a_word_that_looks_like_markup_stays_text_and_keeps_its_direction_to_itself():
    markup = word_cloud_svg(count_words(["<b>bold</b> & co", "غاضب"]), title="T")

    assert "<b>" not in markup
    shown = [t.text for t in ET.fromstring(markup).iter(f"{SVG}text")]
    assert "\u2068<b>bold</b> & co\u2069" in shown
    assert "\u2068غاضب\u2069" in shown


def test_a_word_wider_than_the_chart_is_cut_and_keeps_its_whole_spelling_in_its_title():
    long = "misunderstood " * 20
    svg = cloud(count_words([long, "calm"]))

    (group,) = [g for g in words_in(svg) if g.get("data-key") == word_key(long)]
    assert group.find(f"{SVG}text").text.endswith("…\u2069")
    assert long.strip() in group.find(f"{SVG}title").text
    assert outside(svg, texts(svg)) == []


def test_nothing_answered_says_so_in_the_callers_words():
    svg = cloud([], empty="Nobody has answered yet")

    assert [t.text for t in svg.iter(f"{SVG}text")] == ["\u2068Nobody has answered yet\u2069"]
    assert svg.get("aria-label") == "How did you feel?"


@pytest.mark.parametrize("distinct", [1, 2, 5, 40, 60, 300])
def test_a_cloud_of_any_size_is_readable_at_1080p_with_no_word_on_another(distinct):
    answers = [f"feeling{i}" for i in range(distinct) for _ in range(1 + (distinct - i) % 7)]
    svg = cloud(count_words(answers))
    found = texts(svg)

    assert len(found) == min(distinct, 40)
    assert smallest_px(svg) >= MIN_PX
    assert meeting(found) == []
    assert outside(svg, found) == []


WORDS = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "M", "N", "P", "Zs", "So")),
    min_size=1,
    max_size=120,
).filter(lambda text: word_key(text))


@PROPERTY
@given(
    distinct=st.sampled_from([1, 2, 40, 300]) | st.integers(1, 80),
    data=st.data(),
)
def test_any_words_lay_out_inside_the_chart_none_on_another(distinct, data):
    spellings = data.draw(st.lists(WORDS, min_size=distinct, max_size=distinct))
    counts = data.draw(st.lists(st.integers(1, 60), min_size=distinct, max_size=distinct))
    words = count_words(text for text, n in zip(spellings, counts, strict=True) for _ in range(n))
    limit = data.draw(st.sampled_from([40, 5, 300]))

    svg = cloud(words, limit=limit)
    found = texts(svg)

    assert 1 <= len(found) <= min(limit, len(words))
    assert meeting(found) == []
    assert outside(svg, found) == []
    assert smallest_px(svg) >= MIN_PX
    drawn = [(int(g.get("data-count")), size_of(g)) for g in words_in(svg)]
    assert all(
        size_a >= size_b
        for count_a, size_a in drawn
        for count_b, size_b in drawn
        if count_a > count_b
    )
