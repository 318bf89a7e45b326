"""The debrief's SVG charts: well-formed, one path per player, names as text only."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.properties import examples
from tournament.rules.charts import (
    GLYPH_WIDTH,
    GridCell,
    PlayerPath,
    biggest_moves,
    flow_svg,
    grid_svg,
    paths_svg,
)
from tournament.rules.clash import ClashKind

# No example database: it would leave a .hypothesis directory in the work tree.
PROPERTY = settings(database=None, max_examples=examples(100), deadline=None)

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def paths_in(svg: ET.Element) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if "path" in g.get("class", "").split()]


def test_a_name_that_looks_like_markup_stays_text():
    markup = paths_svg(
        [PlayerPath("<b>Bold</b> & co", (1, 2))], [1, 2], [1, 2], label="Paths <of> players"
    )
    assert "<b>" not in markup
    svg = parse(markup)
    (path,) = paths_in(svg)
    assert path.find(f"{SVG}title").text == "\u2068<b>Bold</b> & co\u2069"
    assert svg.get("aria-label") == "Paths <of> players"


def test_every_path_has_a_point_per_round_played():
    paths = [PlayerPath("Ann", (1, 2, 3)), PlayerPath("Bob", (2, None, 1))]
    svg = parse(paths_svg(paths, [1, 2, 3], [1, 2, 3], label="Paths"))
    points = [g.find(f"{SVG}polyline").get("points").split() for g in paths_in(svg)]
    assert sorted(len(p) for p in points) == [2, 3]
    assert len([t for t in svg.iter(f"{SVG}text") if t.get("class") == "round-label"]) == 3


def test_a_highlight_draws_the_others_thin_and_grey_and_names_only_the_highlighted():
    paths = [PlayerPath(f"P{i}", (1, 1 + i % 3)) for i in range(30)]
    chosen = biggest_moves(paths, 3)
    svg = parse(paths_svg(paths, [1, 2], [1, 2, 3], label="Paths", highlight=chosen))
    bold = [g for g in paths_in(svg) if "is-highlighted" in g.get("class")]
    assert {g.get("data-player") for g in bold} == chosen
    thin = [g for g in paths_in(svg) if "is-highlighted" not in g.get("class")]
    assert {g.find(f"{SVG}polyline").get("stroke") for g in thin} == {"#9a9a9a"}
    names = {t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "path-name"}
    assert names == {f"\u2068{name}\u2069" for name in chosen}  # each isolated


def test_the_biggest_moves_are_the_furthest_climbs_and_falls():
    paths = [PlayerPath("Up", (1, 4)), PlayerPath("Down", (5, 1)), PlayerPath("Still", (2, 2))]
    assert biggest_moves(paths, 2) == {"Up", "Down"}
    assert biggest_moves(paths, 5) == {"Up", "Down"}, "no one is highlighted for staying"


def test_a_right_to_left_name_is_isolated_from_what_is_drawn_beside_it():
    # FSI ... PDI: "محمد 2" could otherwise read as "2 محمد" beside the path's dot.
    svg = parse(paths_svg([PlayerPath("محمد 2", (1, 2))], [1, 2], [1, 2], label="Paths"))
    (text,) = [t for t in svg.iter(f"{SVG}text") if t.get("class") == "path-name"]
    assert text.text == "\u2068محمد 2\u2069"
    assert svg.find(f"{SVG}g/{SVG}title").text == "\u2068محمد 2\u2069"


def test_equal_moves_are_chosen_in_the_one_alphabetical_order():
    paths = [PlayerPath("Marie-Claire Fontaine", (1, 3)), PlayerPath("Łukasz Wróbel", (1, 3))]
    assert biggest_moves(paths, 1) == {"Łukasz Wróbel"}


def test_the_grid_marks_disputes_with_a_pattern_and_a_number_and_kinds_with_a_symbol():
    cells = {(1, 1): GridCell(2, ClashKind.DIRECTION), (2, 1): GridCell(0, ClashKind.TRUMP)}
    svg = parse(grid_svg([1, 2], [1], cells, label="Grid", show_kinds=True))
    by_table = {g.get("data-table"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "cell"}
    assert by_table["1"].find(f"{SVG}rect").get("fill") == "url(#hatch)"
    assert [t.text for t in by_table["1"].iter(f"{SVG}text")] == ["⇅", "2"]
    assert [t.text for t in by_table["2"].iter(f"{SVG}text")] == ["✦"]
    plain = parse(grid_svg([1, 2], [1], cells, label="Grid", show_kinds=False))
    assert "⇅" not in ET.tostring(plain, encoding="unicode")
    # The count stands alone: no word agrees with it, in any language.
    assert by_table["1"].find(f"{SVG}title").text.startswith("Table 1, round 1 · disputed games: 2")


def _table_labels(svg: ET.Element) -> list[ET.Element]:
    return [t for t in svg.iter(f"{SVG}text") if t.get("class") == "table-label"]


def test_table_labels_fit_inside_the_chart_at_any_number_of_tables():
    for tables in (2, 6, 12, 40, 125):
        numbers = list(range(1, tables + 1))
        cells = {(t, 1): GridCell(0) for t in numbers}
        grid = parse(grid_svg(numbers, [1, 2], cells, label="G", show_kinds=False))
        paths = parse(paths_svg([PlayerPath("A", (1, tables))], [1, 2], numbers, label="P"))
        for svg in (grid, paths):
            for text in _table_labels(svg):
                # Right-aligned at x: its left edge must stay in the chart.
                width = len(text.text) * float(text.get("font-size")) * GLYPH_WIDTH
                assert float(text.get("x")) - width >= 0, (tables, text.text)


def test_two_grids_in_one_page_can_name_their_hatching_apart():
    cells = {(1, 1): GridCell(1)}
    svg = parse(grid_svg([1], [1], cells, label="G", show_kinds=False, pattern_id="hatch-b"))
    assert svg.find(f"{SVG}defs/{SVG}pattern").get("id") == "hatch-b"
    cell = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "cell")
    assert cell.find(f"{SVG}rect").get("fill") == "url(#hatch-b)"


def test_neighbouring_paths_differ_in_dashes_too_for_a_black_and_white_print():
    paths = [PlayerPath(f"P{i:02d}", (1 + i % 3, 1 + (i + 1) % 3)) for i in range(32)]
    svg = parse(paths_svg(paths, [1, 2], [1, 2, 3], label="Paths"))
    styles = [
        (line.get("stroke"), line.get("stroke-dasharray", ""))
        for line in (g.find(f"{SVG}polyline") for g in paths_in(svg))
    ]
    assert len(set(styles)) == 32, "colour and dash repeat together only after 32 paths"
    dashes = [dash for _colour, dash in styles]
    assert all(a != b for a, b in itertools.pairwise(dashes))


def test_the_flow_writes_each_count_on_its_arrow():
    svg = parse(flow_svg({(1, 1, 2): 3, (1, 2, 2): 1}, [1, 2], [1, 2], label="Flow"))
    flows = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "flow"]
    assert sorted(g.get("data-count") for g in flows) == ["1", "3"]


names = st.text(min_size=1, max_size=12)  # control characters and markup included


@PROPERTY
@given(
    rounds=st.integers(1, 6),
    tables=st.integers(1, 10),
    players=st.lists(names, min_size=1, max_size=25, unique=True),
    data=st.data(),
)
def test_any_event_draws_well_formed_charts_with_one_path_per_player(rounds, tables, players, data):
    table = st.one_of(st.none(), st.integers(1, tables))
    paths = [PlayerPath(name, tuple(data.draw(table) for _ in range(rounds))) for name in players]
    round_numbers = list(range(1, rounds + 1))
    table_numbers = list(range(1, tables + 1))
    svg = parse(paths_svg(paths, round_numbers, table_numbers, label="Paths"))
    drawn = paths_in(svg)
    assert len(drawn) == len(players)
    assert len({g.find(f"{SVG}title").text for g in drawn}) <= len(players)
    cells = {
        (t, r): GridCell(data.draw(st.integers(0, 3)), data.draw(st.sampled_from(list(ClashKind))))
        for t in table_numbers
        for r in round_numbers
    }
    grid = parse(grid_svg(table_numbers, round_numbers, cells, label="G", show_kinds=True))
    assert len([g for g in grid.iter(f"{SVG}g") if g.get("class") == "cell"]) == rounds * tables
    parse(flow_svg({(1, 1, tables): len(players)}, round_numbers, table_numbers, label="F"))
