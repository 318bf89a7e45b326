"""The polling trigger as htmx parses it, the m:ss clock, and the 304/286 answers."""

from __future__ import annotations

import re

from django.http import HttpResponse

from tournament.common.polling import STOP_POLLING, clock_text, poll_trigger, stop_polling

# htmx's trigger grammar: an event name, then an optional [filter] right after it, then
# modifiers such as "from:document". A filter after a modifier is a syntax error.
TRIGGER_SPEC = re.compile(r"^(every \d+s|[a-z]+)(\[[^\]]+\])?( from:[a-z]+)?$")


def test_every_clause_of_the_trigger_puts_its_filter_right_after_the_event():
    clauses = [clause.strip() for clause in poll_trigger().split(",")]
    assert len(clauses) == 2
    for clause in clauses:
        assert TRIGGER_SPEC.match(clause.replace(" [", "[")), clause
    assert clauses[1].startswith("visibilitychange[")
    assert clauses[1].endswith(" from:document")


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
