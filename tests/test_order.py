"""The order the suite runs in (tests/conftest.py): pytest-randomly shuffles every run by its
seed, so that no test passes only on another's leftovers, and the LONGEST_FIRST tests still
start first, for pytest-xdist to hand them out before the rest."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import LONGEST_FIRST, dealt

REPO = Path(__file__).resolve().parents[1]
LONG = "tests/tournament/test_serve.py"  # a LONGEST_FIRST file
SHORT = "tests/tables/rules/test_tally.py"  # a file of quick tests, enough to shuffle


def test_the_longest_tests_start_first_and_the_rest_in_the_seeds_order():
    assert any(start.startswith(LONG) for start in LONGEST_FIRST)
    collect = ["--collect-only", "-q", "-p", "no:cacheprovider", "--randomly-seed=1"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *collect, SHORT, LONG],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    order = [line for line in result.stdout.splitlines() if "::" in line]

    long = [nodeid for nodeid in order if nodeid.startswith(LONG)]
    assert long
    assert order[: len(long)] == long
    written = re.findall(r"^def (test_\w+)", (REPO / SHORT).read_text(), re.MULTILINE)
    shuffled = [nodeid.split("::")[1] for nodeid in order[len(long) :]]
    assert sorted(shuffled) == sorted(written)
    assert shuffled != written


def test_worksteal_gets_one_long_test_at_the_start_of_each_workers_run():
    items = ["L1", "L2", "L3", "L4", "L5", *(f"s{n}" for n in range(15))]
    order = dealt(items, 4, lambda item: item.startswith("L"))

    assert sorted(order) == sorted(items)
    # worksteal's runs: 20 // 4 = 5 tests, then 15 // 3, 10 // 2, 5 // 1.
    runs = [order[0:5], order[5:10], order[10:15], order[15:20]]
    assert [run[0] for run in runs] == ["L1", "L2", "L3", "L4"]
    assert runs[0][:2] == ["L1", "L5"]
    assert dealt(items, 1, lambda item: item.startswith("L"))[:5] == items[:5]
