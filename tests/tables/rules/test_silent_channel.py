"""The silent channel's rules: a stroke is points and an ink inside the pad and nothing
else, a pad shows what follows its last clear, a gesture is one of its pictures, and a
video link is an https address."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import silent_channel as rules


def test_a_stroke_is_read_from_its_points():
    stroke = rules.read_stroke("blue", "0,0 1000,700 5,6")
    assert stroke.kind == "blue"
    assert stroke.points == ((0, 0), (1000, 700), (5, 6))


@pytest.mark.parametrize(
    ("kind", "points"),
    [
        ("black", "Hello"),  # a word typed
        ("black", "<text>trump</text>"),
        ("black", "data:image/png;base64,iVBORw0KGgo="),  # an image pasted
        ("black", "1,1 2,2 ace"),
        ("black", ""),
        ("black", "1001,5"),  # out of the pad
        ("black", "5,701"),
        ("black", "-1,5"),
        ("black", "1,2  3,4"),
        ("black", "1,2\n3,4"),
        ("black", "01,1"),  # read back as "1,1": never quite what was sent
        ("black", "\u0661,\u0661"),  # digits of another script
        ("black", "1,1\n"),
        ("text", "1,2 3,4"),  # no text tool
        ("clear", "1,2"),
    ],
)
def test_anything_but_points_in_the_pad_is_refused_whole(kind, points):
    with pytest.raises(rules.StrokeProblem):
        rules.read_stroke(kind, points)


def test_a_stroke_too_long_for_one_message_is_refused():
    longest = " ".join(["1,1"] * rules.MAX_STROKE_POINTS)
    assert len(rules.read_stroke("red", longest).points) == rules.MAX_STROKE_POINTS
    with pytest.raises(rules.StrokeProblem):
        rules.read_stroke("red", longest + " 1,1")


@given(st.text(max_size=60))
def test_no_text_is_ever_a_stroke_unless_it_is_points(text):
    try:
        stroke = rules.read_stroke("black", text)
    except rules.StrokeProblem:
        return
    assert rules.points_text(stroke.points).split(" ")[: len(stroke.points)] == text.split(" ")


@given(
    st.lists(
        st.tuples(st.integers(0, rules.PAD_WIDTH), st.integers(0, rules.PAD_HEIGHT)),
        min_size=2,
        max_size=rules.MAX_STROKE_POINTS,
    )
)
def test_points_travel_as_text_and_come_back_the_same(points):
    assert rules.read_stroke("green", rules.points_text(points)).points == tuple(points)


def test_one_point_is_drawn_as_a_dot():
    assert rules.points_text([(5, 6)]) == "5,6 5,6"


def test_a_pad_shows_the_strokes_after_its_last_clear():
    strokes = [rules.Stroke(kind, ()) for kind in ("red", "clear", "blue", "eraser")]
    assert [s.kind for s in rules.since_last_clear(strokes)] == ["blue", "eraser"]
    assert rules.since_last_clear([*strokes, rules.Stroke("clear", ())]) == []


def test_a_gesture_is_one_of_its_pictures_and_points_at_a_card_on_the_table():
    assert rules.read_gesture("no", "7H", ["7H"]) == ("no", "")
    assert rules.read_gesture("point", "7H", ["2S", "7H"]) == ("point", "7H")
    with pytest.raises(ValueError):
        rules.read_gesture("point", "AS", ["7H"])
    with pytest.raises(ValueError):
        rules.read_gesture("hello", "", [])


@pytest.mark.parametrize(
    "link",
    [
        "https://meet.jit.si/fivetricks-table-3",
        "https://us02web.zoom.us/j/123456789?pwd=abc",
        "https://teams.microsoft.com/l/meetup-join/19%3ameeting",
    ],
)
def test_a_video_link_is_any_https_address(link):
    assert rules.check_video_link(f"  {link} ") == link


@pytest.mark.parametrize(
    ("link", "reason"),
    [
        ("http://meet.example/room", rules.NOT_HTTPS),
        ("javascript:alert(1)", rules.NOT_HTTPS),
        ("meet.example/room", rules.NOT_HTTPS),
        ("https://meet example/room", rules.NOT_HTTPS),
        ("https:///room", rules.NOT_HTTPS),
        ("https://meet.example/{table}", rules.NOT_HTTPS),  # a pattern is not a table's link
    ],
)
def test_a_video_link_that_is_not_an_https_address_is_refused(link, reason):
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link(link)
    assert refused.value.reason == reason


def test_a_pattern_names_the_table_and_no_other_field():
    pattern = "https://meet.example/fivetricks-{event}-{table}"
    assert rules.check_video_link(pattern, pattern=True) == pattern
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link("https://meet.example/fivetricks-{event}", pattern=True)
    assert refused.value.reason == rules.NO_TABLE_FIELD
    with pytest.raises(rules.VideoProblem) as refused:
        rules.check_video_link("https://meet.example/{table}-{room}", pattern=True)
    assert refused.value.reason == rules.UNKNOWN_FIELD


def test_a_tables_own_link_wins_over_the_pattern():
    pattern = "https://meet.example/ft-{event}-{table}"
    assert rules.video_link(own="", pattern=pattern, event="day-4", table=3) == (
        "https://meet.example/ft-day-4-3"
    )
    assert rules.video_link(own="https://x.example/a", pattern=pattern, event="e", table=3) == (
        "https://x.example/a"
    )
    assert rules.video_link(own="", pattern="", event="e", table=3) == ""
