"""A switch that makes the phones' report POST fail on purpose, for tests only.

Terms:
    fault switch  a count of report POSTs still to answer "500 Server Error" before the
                  server answers normally again.

Why it exists: a phone must keep a report that the server answered with an error and send
it again by itself (issue 23: a full disk, a locked database or a proxy's 502 lost taps in
silence). A browser test proves it against the real server, which therefore has to fail on
demand, a given number of times, then recover.

Why it is safe: nothing in the product arms it. It is armed from Python (``fail_next_reports``,
called by a test in the live server's own process) or by the FIVETRICKS_FAIL_REPORTS
environment variable, and it is honoured only while DEBUG is on or under pytest: a
production server, with DEBUG off, never looks at the count. When unarmed it costs one
integer comparison per report.
"""

from __future__ import annotations

import os
import sys
import threading

from django.conf import settings

ENVIRONMENT_VARIABLE = "FIVETRICKS_FAIL_REPORTS"

_lock = threading.Lock()
_left = 0
_environment_read = False


def _honoured() -> bool:
    """Only in development (DEBUG) or under tests: never on a production server."""
    return bool(settings.DEBUG) or "pytest" in sys.modules


def fail_next_reports(count: int) -> None:
    """Make the next ``count`` report POSTs answer 500 (0 disarms the switch)."""
    global _left
    with _lock:
        _left = max(0, count)


def report_should_fail() -> bool:
    """Whether this report POST is one the switch makes fail; counts it down if so."""
    global _left, _environment_read
    if not _left and _environment_read:
        return False
    if not _honoured():
        return False
    with _lock:
        if not _environment_read:
            # Read once, on the first report after start: `DJANGO_DEBUG=1
            # FIVETRICKS_FAIL_REPORTS=3 make run` fails the first three reports.
            _environment_read = True
            value = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
            _left += int(value) if value.isdecimal() else 0
        if _left <= 0:
            return False
        _left -= 1
        return True
