"""`make bench-hosted` (bench/hosted_load.py) keeps its contract: two app servers on one
PostgreSQL, one killed mid-run, every acknowledged play, pointing and report stored once,
and a JSON line that says so.

A short run here (one event of each kind, a few seconds, a ramp of one step) keeps the
script working; `make bench-hosted` runs a ramp up to 1,000 players on screens, then 22
events for 60 s. It starts its own throwaway cluster
(.ci/with-postgres), so it is skipped where no PostgreSQL server is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.test_serve import REPO, _environment

POSTGRES = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))


@pytest.mark.cluster  # a PostgreSQL cluster and two servers: make test, not make check
@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL server (make postgresql installs it)")
def test_a_killed_app_server_loses_and_doubles_nothing_acknowledged(tmp_path):
    environment = _environment(tmp_path / "data", tmp_path / "static")

    result = subprocess.run(
        [str(REPO / ".ci/with-postgres"), sys.executable, "bench/hosted_load.py",
         "--seconds", "4", "--players", "10", "--room-events", "1", "--screen-events", "1",
         "--bare-seconds", "0.5", "--ramp", "10", "--step-seconds", "2"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["hosted_servers"] == 2
    assert figures["hosted_killed_at_s"] == pytest.approx(2, abs=1)
    assert figures["hosted_screens_moved"] > 0  # the killed server's screens went on
    assert figures["hosted_plays_acknowledged"] > 0
    assert figures["hosted_plays_stored"] == figures["hosted_plays_acknowledged"]
    assert figures["hosted_lost"] == 0
    assert figures["hosted_doubled"] == 0
    # The ramp's one step, before the run: its 99th percentile, and the load it clears.
    assert "hosted_ramp_10_card_to_table_p99_s" in figures
    assert figures["hosted_largest_load_under_0_3_s"] in (0, 10)
