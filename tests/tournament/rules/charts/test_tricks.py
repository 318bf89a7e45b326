"""The tricks' story chart: a bar per trick in the order taken, disagreements hatched and
outlined, the organizer's settling dotted, the time to settle as the bar's height, a
summary per table-round for screen readers, and text the back row reads."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tests.tournament.rules.charts.helpers import SVG, meeting, outside, texts
from tournament.rules.charts import TableTricks, TrickMark, table_summary, tricks_svg
from tournament.rules.charts.tricks import LEAST
from tournament.rules.clash import ClashKind

PROPERTY = settings(database=None, max_examples=examples(60), deadline=None)
# The tricks' screen at 1080p draws its chart in this box or a larger one, in CSS pixels
# (tests/browser/test_debrief_tricks.py measures it; a key of many kinds takes a line).
TRICKS_BOX = (1830, 640)


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def px_at_1080p(svg: ET.Element) -> float:
    _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())
    scale = min(TRICKS_BOX[0] / width, TRICKS_BOX[1] / height)
    return min(size for _, size, _ in texts(svg)) * scale


def strip_of(table: int, round_: int, *tricks: TrickMark, kind=ClashKind.NONE) -> TableTricks:
    return TableTricks(table, round_, tricks, kind)


def bars(svg: ET.Element) -> list[ET.Element]:
    return [r for r in svg.iter(f"{SVG}rect") if "trick" in r.get("class", "").split()]


def story() -> list[TableTricks]:
    return [
        strip_of(
            2,
            1,
            TrickMark(1, 1, 3),
            TrickMark(1, 2, 48, disagreed=True),
            TrickMark(2, 1, 130, disagreed=True, settled=True),
            kind=ClashKind.DIRECTION,
        ),
        strip_of(1, 1, TrickMark(1, 1, 5), TrickMark(1, 2, 7)),
    ]


def test_every_trick_is_a_bar_in_the_order_taken_and_a_table_round_nobody_played_is_blank():
    svg = parse(tricks_svg(story(), [1, 2, 3], [1, 2], label="Tricks"))
    strips = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "strip"]
    assert [(g.get("data-table"), g.get("data-round")) for g in strips] == [("2", "1"), ("1", "1")]
    top = strips[0].findall(f"{SVG}rect")
    assert [float(r.get("x")) for r in top] == sorted(float(r.get("x")) for r in top)
    assert [r.get("data-seconds") for r in top] == ["3", "48", "130"]
    assert len(bars(svg)) == 5


def test_a_disagreement_is_hatched_and_outlined_not_coloured_alone():
    svg = parse(tricks_svg(story(), [1, 2], [1], label="Tricks", pattern_id="hatch-r1"))
    disagreed = [r for r in bars(svg) if "is-disagreed" in r.get("class")]
    agreed = [r for r in bars(svg) if "is-disagreed" not in r.get("class")]
    assert len(disagreed) == 2
    assert all(r.get("fill") == "url(#hatch-r1)" for r in disagreed)
    assert all(r.get("stroke") != "none" for r in disagreed)
    assert all(not r.get("fill").startswith("url(") for r in agreed)
    assert svg.find(f"{SVG}defs/{SVG}pattern").get("id") == "hatch-r1"


def test_a_trick_the_organizer_settled_wears_a_dot_and_says_so():
    svg = parse(tricks_svg(story(), [1, 2], [1], label="Tricks"))
    assert len([c for c in svg.iter(f"{SVG}circle") if c.get("class") == "settled"]) == 1
    titles = [r.find(f"{SVG}title").text for r in bars(svg)]
    assert titles[2] == (
        "Game 2, trick 1: 130 s to settle · pointed at different cards · settled by the organizer"
    )


def test_the_longer_a_trick_took_to_settle_the_taller_its_bar():
    tricks = [TrickMark(1, n, seconds) for n, seconds in enumerate((0, 4, 30, 90, 300), 1)]
    svg = parse(tricks_svg([strip_of(1, 1, *tricks)], [1], [1], label="Tricks"))
    heights = [float(r.get("height")) for r in bars(svg)]
    assert heights == sorted(heights)
    assert len(set(heights)) == len(heights)
    assert heights[0] > 0, "a trick agreed at once still shows"


def test_games_stand_apart_and_each_strip_ends_with_its_longest_time():
    svg = parse(tricks_svg(story(), [1, 2], [1], label="Tricks"))
    assert len([g for g in svg.iter(f"{SVG}line") if g.get("class") == "game-line"]) == 1
    longest = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "longest"]
    assert longest == ["130 s", "7 s"]


def test_each_table_rounds_clash_shows_beside_its_strip():
    svg = parse(tricks_svg(story(), [1, 2], [1], label="Tricks"))
    kinds = [t.text for t in svg.iter(f"{SVG}text") if "kind" in t.get("class", "").split()]
    assert kinds == ["⇅"]


def test_the_chart_in_words_a_summary_per_table_round():
    svg = parse(tricks_svg(story(), [1, 2], [1], label="The tricks' story"))
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "The tricks' story"
    assert svg.find(f"{SVG}desc").text.splitlines() == [
        "Table 2, round 1: 3 tricks taken in 2 games, 2 with the players pointing at "
        "different cards first, 1 settled by the organizer; the longest took 130 s to settle",
        "Table 1, round 1: 2 tricks taken in 1 game, the players never pointed at different "
        "cards; the longest took 7 s to settle",
    ]


def test_a_table_that_took_no_trick_and_a_round_without_any_say_so():
    assert table_summary(strip_of(4, 2)) == "Table 4, round 2: no trick taken"
    svg = parse(tricks_svg([strip_of(4, 2)], [4], [2], label="Tricks"))
    said = [t.text for t in svg.iter(f"{SVG}text")]
    assert "No trick was taken at a screen table." in said
    assert svg.find(f"{SVG}desc").text.startswith("No trick was taken")
    assert not bars(svg)


def test_words_are_translated_through_the_callables():
    def marked(message: str) -> str:
        return "¡" + message

    def plural(singular: str, plural_: str, count: int) -> str:
        return "¡" + (singular if count == 1 else plural_)

    markup = tricks_svg(story(), [1, 2], [1], label="x", translate=marked, ngettext=plural)
    assert "¡Table 2, round 1: ¡3 tricks taken ¡in 2 games" in markup
    assert "¡Round 1" in markup


@PROPERTY
@given(
    tables=st.integers(1, 13),
    rounds=st.integers(1, 4),
    games=st.integers(0, 9),
    seconds=st.integers(0, 4000),
    fill=st.booleans(),
)
def test_every_text_reads_from_the_back_row_and_none_overlaps_or_leaves_the_chart(
    tables, rounds, games, seconds, fill
):
    """Up to 13 tables, the projector's chart of every round keeps its text at 28 px or
    more at 1080p; texts never meet nor leave the canvas, whatever the tricks."""
    strips = [
        strip_of(
            table,
            number,
            *(
                TrickMark(game, trick, seconds, disagreed=trick == 2, settled=trick == 3)
                for game in range(1, games + 1)
                for trick in range(1, 8)
            ),
            kind=ClashKind.WINNING,
        )
        for table in range(1, tables + 1)
        for number in range(1, rounds + 1)
    ]
    svg = parse(
        tricks_svg(
            strips, range(1, tables + 1), range(1, rounds + 1), label="T", width=2400, fill=fill
        )
    )
    found = texts(svg)
    assert meeting(found) == []
    assert outside(svg, found) == []
    assert px_at_1080p(svg) >= 28
    assert min(size for _, size, _ in found) >= LEAST


def test_many_tables_grow_the_chart_instead_of_shrinking_its_text():
    strips = [strip_of(t, 1, TrickMark(1, 1, 9)) for t in range(1, 126)]
    svg = parse(tricks_svg(strips, range(1, 126), [1], label="Tricks"))
    assert float(svg.get("viewBox").split()[3]) > 125 * LEAST
    assert min(size for _, size, _ in texts(svg)) >= LEAST
    assert meeting(texts(svg)) == []


def test_a_chart_shown_alone_draws_its_key_under_it_within_the_canvas():
    plain = parse(tricks_svg(story(), [1, 2], [1], label="Tricks"))
    keyed = parse(tricks_svg(story(), [1, 2], [1], label="Tricks", key=True))
    said = [t.text for t in keyed.iter(f"{SVG}text")]
    assert "Hatched: the players pointed at different cards first" in said
    assert "Dot: settled by the organizer" in said
    assert float(keyed.get("viewBox").split()[3]) > float(plain.get("viewBox").split()[3])
    assert outside(keyed, texts(keyed)) == []
    assert meeting(texts(keyed)) == []

    def longer(message: str) -> str:
        return message + " — " + message  # a translation twice as long

    long_key = parse(tricks_svg(story(), [1, 2], [1], label="T", key=True, translate=longer))
    assert outside(long_key, texts(long_key)) == []
