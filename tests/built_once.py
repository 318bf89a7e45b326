"""Rows a module's tests share: built once per test process, rolled back after the last.

Terms:
    built once   what ``built_once`` makes: the rows a build function writes, inside a
                 transaction opened before it and rolled back when the module's last test
                 has run (a module-scoped fixture yields from it). Each test runs in a
                 savepoint of that transaction (pytest-django's ``django_db``), so what a
                 test writes is gone before the next test, and every test meets the rows
                 as they were built. Use it where building costs more than the tests that
                 read it (a whole event played through the writes) and no test of the
                 module needs a transaction of its own (``transaction=True``, a live
                 server): those flush the database the rows live in.
    fresh copy   a shared row read again for each test (``Model.objects.get(pk=...)``), so
                 an instance one test changed in memory is not the next test's.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import transaction

T = TypeVar("T")


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """Yield what ``build`` returns, its rows written in a transaction that is rolled back
    afterwards (see Terms: built once). A module-scoped fixture: ``yield from
    built_once(django_db_blocker, lambda: ...)``, asking for ``django_db_setup`` too."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            outer.__exit__(*sys.exc_info())
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
