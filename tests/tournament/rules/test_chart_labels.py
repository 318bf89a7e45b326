"""The paths chart's names: never two on top of each other, at 24 players and at 120."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.browser.test_screenshots import room_names
from tournament.rules.charts import PlayerPath, paths_svg
from tournament.rules.charts.labels import LINE, Label, place_labels
from tournament.rules.charts.paths import LEAST_LABEL, NAME_SIZE
from tournament.rules.charts.svg import HEIGHT, WIDTH
from tournament.rules.name_width import name_width

SVG = "{http://www.w3.org/2000/svg}"


def room(players: int, rounds: int = 4) -> list[PlayerPath]:
    """Players moving between tables of 4 at random, as a long event's would."""
    tables = players // 4
    draw = random.Random(players)
    return [
        PlayerPath(name, tuple(draw.randint(1, tables) for _ in range(rounds)))
        for name in room_names(players)
    ]


def boxes(svg_markup: str) -> list[tuple[str, float, float, float, float]]:
    """(name, left, top, right, bottom) of every name drawn, from the SVG itself."""
    found = []
    for text in ET.fromstring(svg_markup).iter(f"{SVG}text"):
        if text.get("class") != "path-name":
            continue
        size = float(text.attrib["font-size"])
        left, baseline = float(text.attrib["x"]), float(text.attrib["y"])
        top = baseline - size  # an ascender's height above the baseline...
        bottom = baseline + size * 0.25  # ...and a descender's below it
        name = text.text or ""
        found.append((name, left, top, left + name_width(name) * size, bottom))
    return found


def overlapping(found) -> list[tuple[str, str]]:
    return [
        (a[0], b[0])
        for i, a in enumerate(found)
        for b in found[i + 1 :]
        if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    ]


@pytest.mark.parametrize("players", [24, 120])
def test_no_two_names_on_the_paths_chart_overlap(players):
    paths = room(players)
    everyone = {path.name for path in paths}

    found = boxes(
        paths_svg(
            paths, [1, 2, 3, 4], list(range(1, players // 4 + 1)), label="P", highlight=everyone
        )
    )

    # As many names as the chart's height holds (between its top 30 and its bottom 80 units).
    assert len(found) == min(players, int((HEIGHT - 110) // (NAME_SIZE * LINE)))
    assert overlapping(found) == []
    assert all(
        top >= 0 and bottom <= HEIGHT and right <= WIDTH for _, _, top, right, bottom in found
    ), "every name inside the chart"


def test_names_that_crowd_one_table_spread_around_it_in_their_order():
    # Dmitri Volkov and Chloé Dubois end one dot apart, as they did on the projector.
    wanted = [("Dmitri Volkov", 1300, 400), ("Chloé Dubois", 1300, 404), ("Ana Abara", 1300, 398)]

    labels = place_labels(wanted, left=1340, size=NAME_SIZE, top=30, bottom=820)

    assert [label.name for label in labels] == ["Ana Abara", "Dmitri Volkov", "Chloé Dubois"]
    assert not any(a.intersects(b) for i, a in enumerate(labels) for b in labels[i + 1 :])
    assert labels[0].top < 400 < labels[-1].top + labels[-1].height, "around their ends"


def test_names_pushed_past_the_bottom_go_back_up_and_the_extra_ones_are_left_out():
    wanted = [(f"Player {n}", 100, 890) for n in range(40)]

    labels = place_labels(wanted, left=120, size=40, top=30, bottom=820)

    assert len(labels) == int(790 // (40 * 1.3))  # only those that fit
    assert [label.name for label in labels][:2] == ["Player 0", "Player 1"]
    assert max(label.top + label.height for label in labels) <= 820
    assert min(label.top for label in labels) >= 30
    assert not any(a.intersects(b) for i, a in enumerate(labels) for b in labels[i + 1 :])


def test_a_label_knows_when_it_meets_another():
    a = Label("A", 0, 0, 100, 40, 34, (0, 0))
    assert a.intersects(Label("B", 50, 39, 100, 40, 34, (0, 0)))
    assert not a.intersects(Label("B", 50, 40, 100, 40, 34, (0, 0)))
    assert not a.intersects(Label("B", 100, 0, 100, 40, 34, (0, 0)))


@pytest.mark.parametrize("tables", [6, 15, 30, 125])
def test_the_paths_charts_table_labels_stay_readable_however_many_tables(tables):
    paths = [PlayerPath(f"P{n}", (n % tables + 1, (n + 1) % tables + 1)) for n in range(tables)]
    svg = ET.fromstring(paths_svg(paths, [1, 2], list(range(1, tables + 1)), label="P"))

    shown = [t for t in svg.iter(f"{SVG}text") if t.get("class") == "table-label"]

    assert all(float(t.get("font-size")) >= LEAST_LABEL for t in shown)
    assert f"Table {tables}" in {t.text for t in shown}, "the top table is always labelled"
    assert len(shown) >= min(tables, 6)
