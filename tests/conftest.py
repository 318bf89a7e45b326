"""Shared fixtures: small factories for events, players, tables and rounds; and what the
Makefile's runs choose among the tests.

Terms:
    profile         the Hypothesis settings a run uses, named by FIVETRICKS_HYPOTHESIS:
                    "fivetricks" (every test's own number of examples; `make test`) or
                    "check" (a few examples each, for `make check`).
    postgres test   one `make test-postgres` runs (the `postgres` marker): what can differ
                    on PostgreSQL, which is the queries. pytest_collection_modifyitems
                    marks every test that touches the database (from its fixtures and its
                    django_db marker) in the folders of the layers that make the queries
                    (DATABASE_LAYERS: the writes with their locks, transactions and
                    constraints; the reads with their ordering and aggregates; the models)
                    and the commands that copy whole events (DATABASE_FILES), plus the
                    tests marked by hand (the real-database races, one browser round). The
                    rest cannot differ: pure rules, subprocesses on their own SQLite file,
                    and views, pages and browser tests, which only pass on what the
                    queries return. On PostgreSQL a postgres test that runs no query of
                    its own fails (_a_postgres_test_queries_the_database), so the pass
                    holds only tests that are worth its time.

    slow test       a test outside tests/browser/ whose call took over SLOW_TEST_SECONDS:
                    the run ends with a warning naming each one (the loop stays short
                    only while every such test does; docs/PERFORMANCE.md, "The suite").

Factories are imported inside the fixtures so the pure-core tests still run without
Django (`pytest -p no:django tests/tournament/rules/test_movement.py`).
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# A shared 2-core machine (CI included) makes per-example timing noisy: no deadlines.
settings.register_profile("fivetricks", deadline=None, print_blob=True)
# `make check`: a few examples per property, enough to catch a broken rule in seconds; the
# full numbers run in `make test` (tests/properties.py scales each test's own number).
settings.register_profile("check", parent=settings.get_profile("fivetricks"), max_examples=5)
settings.load_profile(os.environ.get("FIVETRICKS_HYPOTHESIS", "fivetricks"))

# Fixtures that open the test database (pytest-django's, and this suite's that build on
# them): a test asking for one of these reads or writes rows.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "client",
    "admin_client",
    "admin_user",
    "django_user_model",
    "django_username_field",
    "live_server",
    "django_assert_num_queries",
    "django_assert_max_num_queries",
    "django_capture_on_commit_callbacks",
}


SLOW_TEST_SECONDS = 20.0


def slow_tests(reports: list) -> list[tuple[str, float]]:
    """The slow tests (see Terms) among a run's reports, slowest first."""
    slow = {
        report.nodeid: report.duration
        for report in reports
        if getattr(report, "when", None) == "call"
        and report.duration > SLOW_TEST_SECONDS
        and not report.nodeid.startswith("tests/browser/")
    }
    return sorted(slow.items(), key=lambda item: -item[1])


def worker_times(reports: list) -> list[tuple[str, float, float]]:
    """(worker, busy seconds, idle share) of each pytest-xdist worker: busy is the sum of
    its tests' phases; idle is the rest of the span from the run's first test to its
    last, waiting for a test or already done (docs/PERFORMANCE.md, "The suite")."""
    timed = [
        report
        for report in reports
        if getattr(report, "node", None) is not None and hasattr(report, "start")
    ]
    if not timed:
        return []
    span = max(report.stop for report in timed) - min(report.start for report in timed)
    busy: dict[str, float] = {}
    for report in timed:
        worker = report.node.gateway.id
        busy[worker] = busy.get(worker, 0.0) + report.duration
    return [
        (worker, seconds, max(0.0, 1 - seconds / span) if span else 0.0)
        for worker, seconds in sorted(busy.items())
    ]


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    every = [report for kind in terminalreporter.stats.values() for report in kind]
    if config.getoption("durations", None) is not None and (workers := worker_times(every)):
        terminalreporter.write_sep("=", "xdist workers: busy, and idle share of the run")
        for worker, busy, idle in workers:
            terminalreporter.write_line(f"{worker}: {busy:.0f} s busy, {idle:.0%} idle")
    reports = [
        report for kind in ("passed", "failed") for report in terminalreporter.stats.get(kind, [])
    ]
    if slow := slow_tests(reports):
        terminalreporter.write_sep(
            "=",
            f"{len(slow)} tests outside the browser over {SLOW_TEST_SECONDS:.0f} s",
            yellow=True,
        )
        for nodeid, seconds in slow:
            terminalreporter.write_line(f"WARNING: {seconds:.1f} s {nodeid}")
    # The header that names the seed is not shown under -q (`make check`): a failure that
    # may come from the order says how to repeat it.
    seed = config.getoption("randomly_seed", None)
    if exitstatus == pytest.ExitCode.TESTS_FAILED and isinstance(seed, int):
        terminalreporter.write_line(f"The tests ran in a random order: --randomly-seed={seed}")


def is_browser_test(item: pytest.Item) -> bool:
    return "tests/browser/" in str(item.path).replace(os.sep, "/")


# The few tests that take minutes, longest first. pytest-xdist hands out the first tests
# one to a worker in turn, so starting these first keeps one of them from being the last
# test of the run, with every other worker idle (docs/PERFORMANCE.md, "The suite").
# pytest-randomly shuffles the whole suite by the run's seed before the hook below sorts
# these to the front (its hook wraps the others), and gives every xdist worker that seed,
# so that each worker collects the same order (tests/test_order.py).
LONGEST_FIRST = (
    "tests/browser/test_walk.py::",
    "tests/browser/test_organizer_flow.py::test_a_whole_event_through_the_console",
    "tests/tournament/test_serve.py::",
    "tests/tournament/test_commands_records.py::test_rehearse_export_import_and_restore",
    "tests/browser/test_debrief_screenshots.py::",
    "tests/browser/test_debrief_report.py::",
    "tests/browser/test_phones.py::test_two_phones_at_one_table_and_one_at_another",
)


def started_first(item: pytest.Item) -> int:
    """Where a test stands among LONGEST_FIRST (the rest keep the seed's order, after them)."""
    for rank, start in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(start):
            return rank
    return len(LONGEST_FIRST)


# A postgres test found from its fixtures, not marked by hand: a race's child process or
# threads query a real database of their own, out of the test's sight.
MARKED_BY_ITS_FIXTURES = pytest.StashKey[bool]()
# A test that counts its queries may well expect none.
COUNTING_FIXTURES = {"django_assert_num_queries", "django_assert_max_num_queries"}

# Where the queries are made (see Terms: postgres test).
DATABASE_LAYERS = ("/writes/", "/reads/", "/models/")
DATABASE_FILES = (
    "tests/tournament/test_commands_records.py",
    "tests/tournament/test_demo_event.py",
)


def makes_the_queries(item: pytest.Item) -> bool:
    path = str(item.path).replace(os.sep, "/")
    return any(layer in path for layer in DATABASE_LAYERS) or path.endswith(DATABASE_FILES)


def touches_the_database(item: pytest.Item) -> bool:
    return bool(item.get_closest_marker("django_db")) or (
        isinstance(item, pytest.Function) and bool(DATABASE_FIXTURES & set(item.fixturenames))
    )


def dealt(items: list, workers: int, is_long) -> list:
    """The items in the order `--dist worksteal` wants them: it cuts the collection into
    one run of tests a worker, in order (a run of len(left) // workers left), and a worker
    that runs dry takes from the end of another's run. With the long tests all at the
    front, the first worker would run every one of them in turn; so they are dealt to
    the start of each worker's run, longest first, round the table."""
    long = [item for item in items if is_long(item)]
    rest = [item for item in items if not is_long(item)]
    piles: list[list] = [long[start::workers] for start in range(workers)]
    out: list = []
    left = len(items)
    for worker, pile in enumerate(piles):
        size = left // (workers - worker)
        taken = max(0, size - len(pile))
        out += pile + rest[:taken]
        rest = rest[taken:]
        left -= len(pile) + taken
    return out + rest


def pytest_collection_modifyitems(config, items: list[pytest.Item]) -> None:
    items.sort(key=started_first)  # stable: the order within each rank is kept
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if getattr(config.option, "dist", "") == "worksteal" and workers > 1:
        items[:] = dealt(items, workers, lambda item: started_first(item) < len(LONGEST_FIRST))
    for item in items:
        if is_browser_test(item):
            # Each browser test opens the database through live_server; on PostgreSQL one
            # full round (marked by hand) stands for them all.
            item.add_marker(pytest.mark.browser)
        elif makes_the_queries(item) and touches_the_database(item):
            item.add_marker(pytest.mark.postgres)
            item.stash[MARKED_BY_ITS_FIXTURES] = True


# The garbage collector. What collection loaded (Django, the app, every test module) lives
# for the whole run, and its sweeps went through all of it again and again; young objects
# were swept every 700 allocations. Frozen once collected (as a server worker does after
# its warm-up, tournament/common/warm_up.py) and swept less often, the collector took 1.0 s
# of CPU instead of 3.0 s over tests/tournament/views (gc.callbacks, 40 s of CPU in all).
COLLECTOR_THRESHOLDS = (10_000, 10, 10)


def pytest_collection_finish(session) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def pytest_configure(config):
    # Password hashing is built to be slow; tests need users, not security.
    if config.pluginmanager.hasplugin("django"):
        from tests.static_scan import scan_static_files_once

        scan_static_files_once()
        from django.conf import settings as django_settings

        django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        # Not the installation's key from ./var/secret_key: parallel workers would race to
        # make it on a fresh clone, and tests have no business in the developer's data.
        django_settings.SECRET_KEY = "tests-only-" + "k" * 50


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix(request):
    """Each run, and each pytest-xdist worker in it, its own test database.

    On SQLite it is a file in a fresh folder in memory (/dev/shm where there is one), in
    WAL mode as `make run` keeps it: the live server's threads then open connections of
    their own and wait for each other's writes, as the real server's do. In Django's
    default in-memory test database every thread shares one connection and its
    shared-cache lock, so a test's own write while a page polls failed at once with
    "database table is locked". PostgreSQL's test database gets the worker's name."""
    from django.conf import settings as django_settings

    worker = getattr(request.config, "workerinput", {}).get("workerid")
    folders = []
    for database in django_settings.DATABASES.values():
        test = database.setdefault("TEST", {})
        if database["ENGINE"].endswith("sqlite3"):
            shm = Path("/dev/shm")
            folder = Path(
                tempfile.mkdtemp(prefix="fivetricks-tests-", dir=shm if shm.is_dir() else None)
            )
            folders.append(folder)
            test["NAME"] = str(folder / f"test-{worker or 'main'}.sqlite3")
        elif worker is not None:
            test["NAME"] = f"{test.get('NAME') or 'test_' + str(database['NAME'])}_{worker}"
    yield
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _backups_out_of_the_data_dir(request, tmp_path_factory):
    """On SQLite every round close that commits (browser tests commit) copies the database
    into the backup folder: a temporary one, never the developer's var/backups. (On
    PostgreSQL the backup is kept in the test database.)"""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.conf import settings as django_settings

    django_settings.BACKUP_DIR = tmp_path_factory.mktemp("backups")


@pytest.fixture(autouse=True)
def _each_test_starts_in_english(request):
    """A test client's request in another language leaves that language active on the
    thread (LocaleMiddleware activates one per request and nothing deactivates it), and
    the next test would read its English in German. Each test starts from the default."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _no_phone_sightings_left_over(request):
    """Phones' sightings wait in memory for their batch (tables.writes.sightings): one
    test's must not be written in the next, to a table that is not theirs."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from tables.writes import sightings

    sightings.forget_pending()
    yield
    sightings.forget_pending()


@pytest.fixture(autouse=True)
def _no_wake_listener_left_over(request):
    """A live channel on PostgreSQL starts a listener with a connection of its own
    (tournament.common.wake): stopped after its test, or the test database could not be
    dropped while it is open."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from tournament.common import wake

        wake.stop_listening()


@pytest.fixture
def organizer(django_user_model):
    from tests import factories

    return factories.make_organizer(django_user_model, "ada")


@pytest.fixture
def signed_in(client, organizer):
    """A test client signed in as the event's organizer."""
    client.force_login(organizer)
    return client


@pytest.fixture
def event(organizer):
    from tests import factories

    return factories.make_event(owner=organizer)


# Statements of the test's own transaction (pytest-django's savepoints), not of its code.
TRANSACTION_STATEMENTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


@pytest.fixture(autouse=True)
def _a_postgres_test_queries_the_database(request):
    """On PostgreSQL, a test of the postgres pass must run a query (see Terms)."""
    checked = request.node.stash.get(MARKED_BY_ITS_FIXTURES, False) and not (
        COUNTING_FIXTURES & set(request.fixturenames)
    )
    # The settings are read only for a test that touches the database: a pure test also
    # runs without Django (-p no:django, the module docstring).
    if checked:
        from django.conf import settings as django_settings

        checked = "postgresql" in django_settings.DATABASES["default"]["ENGINE"]
    if not checked:
        yield
        return
    from django.db import connection
    from django.db.backends.signals import connection_created

    ran: list[str] = []

    def count(execute, sql, params, many, context):
        if not sql.lstrip().upper().startswith(TRANSACTION_STATEMENTS):
            ran.append(sql)
        return execute(sql, params, many, context)

    def count_there_too(sender, connection, **kwargs):  # a race's threads connect anew
        connection.execute_wrappers.append(count)

    connection_created.connect(count_there_too)
    try:
        with connection.execute_wrapper(count):
            yield
    finally:
        connection_created.disconnect(count_there_too)
    if not ran:
        pytest.fail(
            "This test is in the PostgreSQL pass (the postgres marker) but ran no query: "
            "it cannot differ there. Move it, or drop the marker (tests/conftest.py)."
        )
