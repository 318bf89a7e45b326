"""The polling trigger as htmx parses it, the m:ss clock, and the 304/286 answers."""

from __future__ import annotations

import re
from pathlib import Path

from django.http import HttpResponse

from tournament.common.polling import (
    POLL_EVENT,
    POLL_INTERVAL_SECONDS,
    STOP_POLLING,
    clock_text,
    poll_trigger,
    stop_polling,
)

POLL_JS = Path(__file__).resolve().parents[3] / "static" / "js" / "poll.js"


def test_the_trigger_is_poll_js_event_with_no_filter_to_evaluate():
    # A [filter] is JavaScript that htmx evaluates: the Content-Security-Policy forbids it.
    assert poll_trigger() == "poll from:body"
    assert "[" not in poll_trigger()


def test_poll_js_ticks_at_the_interval_and_sends_the_event_the_trigger_waits_for():
    script = POLL_JS.read_text(encoding="utf-8")
    assert float(re.search(r"var POLL_SECONDS = ([\d.]+);", script)[1]) == POLL_INTERVAL_SECONDS

    assert re.search(r'var POLL_EVENT = "([^"]+)";', script)[1] == POLL_EVENT


def test_the_room_polls_often_enough_to_see_a_report_within_a_second():
    # A report is seen at the next poll: within one interval plus the poll's answer.
    assert POLL_INTERVAL_SECONDS <= 0.5


def test_the_clock_reads_minutes_and_seconds():
    assert [clock_text(s) for s in (None, -5, 0, 59, 60, 3599)] == [
        "",
        "0:00",
        "0:00",
        "0:59",
        "1:00",
        "59:59",
    ]


def test_stop_polling_answers_286():
    assert stop_polling(HttpResponse()).status_code == STOP_POLLING == 286
