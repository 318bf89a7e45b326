"""`make crash-test` (bench/crash_test.py) keeps its contract: SIGKILL the real server, start
it again, and find every acknowledged report stored, with a JSON line that says so.

A short run here (one kill) keeps the script working; `make crash-test` does five.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.tournament.test_serve import REPO, _environment


def test_a_killed_server_loses_no_acknowledged_report(tmp_path):
    environment = _environment(tmp_path / "data", tmp_path / "static")

    result = subprocess.run(
        [sys.executable, "bench/crash_test.py", "--kills", "1", "--seconds", "1.5",
         "--players", "16", "--phones", "3"],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stdout + result.stderr
    verdict = json.loads(result.stdout.strip().splitlines()[-1])
    assert verdict["kills"] == 1
    assert verdict["acknowledged"] > 0
    assert verdict["stored"] == verdict["acknowledged"]
    assert verdict["lost"] == 0
    assert verdict["integrity_check"] == "ok"
