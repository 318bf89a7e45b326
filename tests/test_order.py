"""The order the suite runs in (tests/conftest.py): pytest-randomly shuffles every run by its
seed, so that no test passes only on another's leftovers, and the LONGEST_FIRST tests still
start first, for pytest-xdist to hand them out before the rest."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import LONGEST_FIRST

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
