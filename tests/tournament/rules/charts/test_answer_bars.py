"""The answers as bars: the 1-to-5 scale under its faces, rounds or tables beside the
first disputes; zeros drawn, nothing carried by colour alone, every text readable."""

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
from tournament.rules.charts.answers import ChoiceBar, choice_bars_svg, scale_svg

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(60), deadline=None)
FACES = {1: "very unhappy", 2: "unhappy", 3: "neither", 4: "happy", 5: "very happy"}


def groups(svg: ET.Element, css_class: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if css_class in g.get("class", "").split()]


def bar_height(group: ET.Element, css_class: str = "bar") -> float:
    (rect,) = [r for r in group.iter(f"{SVG}rect") if css_class in r.get("class", "").split()]
    return float(rect.attrib["height"])


def scale(counts, **kwargs) -> ET.Element:
    return ET.fromstring(scale_svg(counts, title="Frustration", face_labels=FACES, **kwargs))


def rounds(bars, **kwargs) -> ET.Element:
    return ET.fromstring(
        choice_bars_svg(
            bars,
            title="Noticed",
            answers_legend="answers",
            disputes_legend="first disputes",
            **kwargs,
        )
    )


def test_the_scale_draws_a_bar_per_step_tallest_for_the_most_and_an_empty_bar_for_zero():
    svg = scale({1: 4, 2: 8, 4: 2, 5: 0})
    steps = groups(svg, "scale-step")

    assert [g.get("data-count") for g in steps] == ["4", "8", "0", "2", "0"]
    heights = [bar_height(g) for g in steps]
    assert heights[1] == max(heights)
    assert heights[0] == pytest.approx(heights[1] / 2)
    assert heights[2] == heights[4] == 0
    counts = [[t.text for t in g.iter(f"{SVG}text")] for g in steps]
    assert counts == [["4"], ["8"], ["0"], ["2"], ["0"]]


def test_each_step_is_named_in_words_and_its_face_differs_by_shape_not_only_colour():
    svg = scale({3: 1})
    steps = groups(svg, "scale-step")

    assert [g.find(f"{SVG}title").text for g in steps] == [
        f"\u2068{FACES[n]}\u2069 ({1 if n == 3 else 0})" for n in range(1, 6)
    ]
    assert "\u2068very unhappy\u2069 (0)" in svg.get("aria-label")
    mouths = {g.find(f"{SVG}path").get("d") for g in groups(svg, "face")}
    assert len(mouths) == 5
    assert all(g.get("aria-hidden") == "true" for g in groups(svg, "face"))


def test_a_scale_nobody_answered_says_so_and_still_shows_its_faces():
    svg = scale({}, empty="Nobody has answered yet")

    shown = [t.text for t in svg.iter(f"{SVG}text")]
    assert "\u2068Nobody has answered yet\u2069" in shown
    assert shown.count("0") == 5
    assert len(groups(svg, "face")) == 5


def test_a_negative_count_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="negative count -1"):
        scale({2: -1})
    with pytest.raises(ValueError, match="negative count"):
        rounds([ChoiceBar("Round 1", 1, -2)])


def test_rounds_draw_answers_solid_and_first_disputes_hatched_each_with_its_count():
    svg = rounds([ChoiceBar("Round 1", 3, 4), ChoiceBar("Round 2", 6, 0)])
    choices = groups(svg, "choice")

    answers = [r for g in choices for r in g.iter(f"{SVG}rect") if "bar-answers" in r.get("class")]
    disputes = [
        r for g in choices for r in g.iter(f"{SVG}rect") if "bar-disputes" in r.get("class")
    ]
    assert {r.get("fill") for r in answers} == {"#1f4e8c"}
    assert {r.get("fill") for r in disputes} == {"url(#answers-hatch)"}
    assert svg.find(f"{SVG}defs/{SVG}pattern").get("id") == "answers-hatch"
    # Each series to its own tallest bar; a zero is an empty bar with its 0.
    assert [float(r.get("height")) for r in disputes][1] == 0
    assert float(answers[1].get("height")) == float(disputes[0].get("height"))
    assert [[t.text for t in g.iter(f"{SVG}text")] for g in choices] == [
        ["3", "4", "\u2068Round 1\u2069"],
        ["6", "0", "\u2068Round 2\u2069"],
    ]


def test_the_legend_names_both_series_beside_their_swatches_and_so_do_the_titles():
    svg = rounds([ChoiceBar("Round 1", 3, 4)])

    legend = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "legend-text"]
    assert legend == ["\u2068answers\u2069", "\u2068first disputes\u2069"]
    (choice,) = groups(svg, "choice")
    assert choice.find(f"{SVG}title").text == "\u2068Round 1\u2069 (answers: 3, first disputes: 4)"
    assert "(answers: 3, first disputes: 4)" in svg.get("aria-label")


def test_tables_without_disputes_draw_one_bar_each_and_no_disputes_legend():
    svg = ET.fromstring(
        choice_bars_svg(
            [ChoiceBar("Table 1", 2), ChoiceBar("Table 2", 0)], title="T", answers_legend="answers"
        )
    )

    assert len([r for r in svg.iter(f"{SVG}rect") if "bar-disputes" in r.get("class", "")]) == 0
    assert [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "legend-text"] == [
        "\u2068answers\u2069"
    ]


def test_a_choice_nobody_answered_says_so_beside_the_disputes():
    svg = rounds([ChoiceBar("Round 1", 0, 2), ChoiceBar("Round 2", 0, 1)], empty="No answer yet")

    shown = [t.text for t in svg.iter(f"{SVG}text")]
    assert "\u2068No answer yet\u2069" in shown
    assert meeting(texts(svg)) == []


def test_many_tables_are_labelled_short_when_the_caller_gives_short_labels():
    bars = [ChoiceBar(f"Table {n}", n % 4, short=str(n)) for n in range(1, 31)]
    svg = ET.fromstring(choice_bars_svg(bars, title="T", answers_legend="answers"))

    labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "choice-label"]
    assert labels[0] == "\u20681\u2069"
    assert all("Table" not in label for label in labels)
    assert meeting(texts(svg)) == []


@pytest.mark.parametrize("count", [1, 4, 10, 30])
def test_rounds_and_the_scale_read_at_1080p_with_no_text_on_another(count):
    for svg in (
        rounds([ChoiceBar(f"Round {n}", n * 7 % 23, n % 5) for n in range(1, count + 1)]),
        scale({step: step * 37 % 11 for step in range(1, 6)}),
    ):
        found = texts(svg)
        assert smallest_px(svg) >= MIN_PX
        assert meeting(found) == []
        assert outside(svg, found) == []


LABELS = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=1, max_size=40
)


@PROPERTY
@given(
    bars=st.lists(
        st.builds(
            ChoiceBar,
            LABELS,
            st.integers(0, 600),
            st.none() | st.integers(0, 200),
            st.sampled_from(["", "7", "12"]),
        ),
        max_size=60,
    ),
    paired=st.booleans(),
    legend=LABELS,
)
def test_any_choice_keeps_every_text_readable_inside_the_chart_none_on_another(
    bars, paired, legend
):
    svg = ET.fromstring(
        choice_bars_svg(
            bars,
            title="T",
            answers_legend=legend,
            disputes_legend=legend if paired else None,
            empty="Nobody has answered yet",
        )
    )
    found = texts(svg)

    assert smallest_px(svg) >= MIN_PX
    assert meeting(found) == []
    assert outside(svg, found) == []
    assert len(groups(svg, "choice")) == len(bars)
