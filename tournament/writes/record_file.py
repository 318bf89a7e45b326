"""The file an import reads (tournament.writes.record_import), turned into JSON safely:
anything too big, too deep or not text is refused in one line before any check of the
record's content, and long before anything is written.

Terms:
    size limit     MAX_RECORD_BYTES. A record takes about 1.3 KB per player and round
                   (measured: the rehearsal event of 200 players over 4 rounds exports
                   1.03 MB), so the largest event the limits allow to play, 2,000 players
                   over the 20 rounds an event may plan, is about 50 MB. A bigger file is
                   not a record of ours, and reading it would only fill the memory.
    count limits   MAX_PLAYERS and MAX_ROUNDS: far above any room (the app is made for 10
                   to 500 players, and an event plans at most 20 rounds), they keep a
                   crafted record from making an event whose console would take minutes
                   to draw. Checked on the lists' lengths, before any row is read
                   (tournament.writes.record_checks).
    depth          how many objects and lists sit inside one another. The format nests 7
                   deep (the record, its rounds, a round, its corrections, a correction,
                   its snapshot, the snapshot's tricks); MAX_DEPTH leaves room for a later
                   version and refuses anything built to be deep. Python's JSON reader
                   stops with RecursionError near a thousand levels, which is caught too.
    valid Unicode  UTF-8 bytes (a byte order mark allowed), and text without a lone half of
                   a surrogate pair: JSON can write one as an escape ("\\ud800"), which reads
                   into Python but can be neither stored nor shown.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from tournament.models import EVENT_MAX_PLAYERS
from tournament.writes.record_fields import RecordProblem, problem

MAX_RECORD_BYTES = 64 * 1024 * 1024
MAX_PLAYERS = EVENT_MAX_PLAYERS  # as the roster (tournament.writes.seating.roster)
MAX_ROUNDS = 500
MAX_DEPTH = 10
MEGABYTE = 1024 * 1024


def _refused(why: str) -> RecordProblem:
    return RecordProblem(_("This file cannot be imported: %(problem)s") % {"problem": why})


def too_big(size: int) -> RecordProblem:
    """The refusal of a file over the size limit (see Terms)."""
    return _refused(
        _("it is %(size)s MB, and an event record is at most %(max)s MB.")
        % {"size": -(-size // MEGABYTE), "max": MAX_RECORD_BYTES // MEGABYTE}
    )


def read_record_bytes(data: bytes) -> Any:
    """The JSON a file holds, or RecordProblem saying in one line why it cannot be a
    record: too big, not UTF-8, not JSON, or too deep for the JSON reader (see Terms).
    Its shape (depth, valid Unicode) is checked with its content, by check_record."""
    if len(data) > MAX_RECORD_BYTES:
        raise too_big(len(data))
    try:
        # utf-8-sig: a file saved by an editor that adds a byte order mark still reads.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _refused(
            _("it is not UTF-8 text (byte %(position)s), so it is not an event record.")
            % {"position": error.start}
        ) from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise _refused(
            _("it is not JSON (line %(line)s, column %(column)s: %(error)s).")
            % {"line": error.lineno, "column": error.colno, "error": error.msg}
        ) from None
    except RecursionError:
        raise too_deep() from None
    except ValueError as error:  # e.g. a number of more digits than Python reads
        raise _refused(
            _("it is not JSON this installation reads (%(error)s).") % {"error": error}
        ) from None
    return record


def too_deep() -> RecordProblem:
    return _refused(
        _("it nests objects and lists more than %(max)s deep, which an event record never does.")
        % {"max": MAX_DEPTH}
    )


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_shape(record: Any) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH, or holding text that is not valid
    Unicode (see Terms), naming the place of the first bad text. Walked without
    recursion, so no depth can overflow the stack."""
    stack: list[tuple[Any, str, int]] = [(record, "", 1)]
    while stack:
        value, where, depth = stack.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            raise too_deep()
        if isinstance(value, dict):
            for key, child in value.items():
                place = f"{where}.{key}" if where else key
                if not _is_unicode(key):
                    raise _not_unicode(where or _("the file"))
                stack.append((child, place, depth + 1))
        elif isinstance(value, list):
            stack.extend((child, f"{where}[{n}]", depth + 1) for n, child in enumerate(value))
        elif isinstance(value, str) and not _is_unicode(value):
            raise _not_unicode(where or _("the file"))


def _not_unicode(where: str) -> RecordProblem:
    return problem(
        where.encode("utf-8", "backslashreplace").decode("utf-8"),
        _("text that is not valid Unicode (half of a surrogate pair, such as \\ud800)."),
    )
