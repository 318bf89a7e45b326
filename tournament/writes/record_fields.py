"""One JSON object of an event's record, read field by field (for the import,
tournament.writes.record_import).

Terms:
    place     where a value sits in the file, written as a path: ``event.name``,
              ``rounds[0].games[2].winner``. The file itself has the empty path.
    problem   why a value cannot be imported: missing, of the wrong kind, or out of its
              bounds. It is raised as RecordProblem, whose message names the place, so an
              organizer can find it in the file.
    kind      what a field holds (tournament.reads.record_format.Kind); each method here
              reads one kind and refuses anything else.
    text      a text field holds no control character (tournament.rules.roster: Terms:
              control), as a typed name, note or answer does not: NUL, ESC or BEL would
              reach the downloads raw, and PostgreSQL refuses NUL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.utils.dateparse import parse_duration
from django.utils.translation import gettext as _

from tournament.common.errors import Refused
from tournament.reads.record_format import SMALL_INT_MAX
from tournament.rules.cards import NEW_CLAUSES
from tournament.rules.roster import code_point, control_characters, shown

# How much of a refused text its message quotes: enough to find it in the file.
QUOTED_LENGTH = 40


class RecordProblem(Refused):
    """A file that cannot be imported; its message says where and why."""


def problem(where: str, why: str) -> RecordProblem:
    """The refusal of a file, naming the place (see Terms) and what is wrong there."""
    return RecordProblem(
        _("This file cannot be imported: %(where)s: %(problem)s") % {"where": where, "problem": why}
    )


def is_whole(value: Any) -> bool:
    # JSON's true and false arrive as bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)


class RecordObject:
    """One JSON object of the record, read field by field; each refusal names its place."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise problem(where or _("the file"), _("expected an object ({...})."))
        self.data = value
        self.where = where

    def at(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise problem(self.at(key), _("this field is missing."))
        return self.data[key]

    def text(
        self, key: str, *, max_length: int, blank: bool = False, null: bool = False
    ) -> str | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise problem(self.at(key), _("expected text."))
        if not blank and not value.strip():
            raise problem(self.at(key), _("must not be empty."))
        if len(value) > max_length:
            raise problem(
                self.at(key),
                _("at most %(max)s characters, this has %(length)s.")
                % {"max": max_length, "length": len(value)},
            )
        if controls := control_characters(value):
            quoted = shown(value)
            if len(quoted) > QUOTED_LENGTH:
                quoted = quoted[: QUOTED_LENGTH - 1] + "…"
            raise problem(
                self.at(key),
                _("“%(text)s” holds a control character (%(character)s), which cannot be imported.")
                % {"text": quoted, "character": code_point(controls[0])},
            )
        return value

    def whole(
        self, key: str, *, minimum: int = 0, maximum: int = SMALL_INT_MAX, null: bool = False
    ) -> int | None:
        value = self.raw(key)
        if value is None and null:
            return None
        if not is_whole(value):
            raise problem(self.at(key), _("expected a whole number."))
        if not minimum <= value <= maximum:
            raise problem(
                self.at(key),
                _("expected a number from %(min)s to %(max)s, not %(value)s.")
                % {"min": minimum, "max": maximum, "value": value},
            )
        return value

    def fraction(self, key: str) -> float:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise problem(self.at(key), _("expected a number from 0 to 1."))
        return float(value)

    def clause_codes(self, key: str) -> list[str]:
        value = self.raw(key)
        known = [clause.value for clause in NEW_CLAUSES]
        if not isinstance(value, list) or any(code not in known for code in value):
            raise problem(
                self.at(key),
                _("expected a list of clauses from: %(allowed)s.") % {"allowed": ", ".join(known)},
            )
        return list(dict.fromkeys(value))

    def flag(self, key: str) -> bool:
        value = self.raw(key)
        if not isinstance(value, bool):
            raise problem(self.at(key), _("expected true or false."))
        return value

    def choice(self, key: str, choices: Iterable[str], *, null: bool = False) -> str | None:
        value = self.raw(key)
        if value is None and null:
            return None
        allowed = list(choices)
        if value not in allowed:
            raise problem(
                self.at(key),
                _("“%(value)s” is not one of: %(allowed)s.")
                % {"value": value, "allowed": ", ".join(allowed)},
            )
        return value

    def moment(self, key: str, *, null: bool = True) -> datetime | None:
        value = self.raw(key)
        if value is None and null:
            return None
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            raise problem(
                self.at(key), _("expected a time with its time zone (ISO 8601), or null.")
            )
        return moment

    def duration(self, key: str) -> timedelta | None:
        value = self.raw(key)
        if value is None:
            return None
        duration = parse_duration(value) if isinstance(value, str) else None
        if duration is None:
            raise problem(self.at(key), _("expected a duration (ISO 8601), or null."))
        return duration

    def objects(self, key: str) -> list[RecordObject]:
        value = self.raw(key)
        if not isinstance(value, list):
            raise problem(self.at(key), _("expected a list ([...])."))
        return [RecordObject(item, f"{self.at(key)}[{index}]") for index, item in enumerate(value)]

    def snapshot(self, key: str, tricks: Callable[[Any, str], dict | None]) -> dict | None:
        """A corrections-log snapshot: any object, whose tricks (if any) name players."""
        value = self.raw(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise problem(self.at(key), _("expected an object ({...}), or null."))
        if "tricks" in value:
            return {**value, "tricks": tricks(value["tricks"], f"{self.at(key)}.tricks")}
        return value
