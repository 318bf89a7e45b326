"""A worker's start compiles every template and sets aside what it holds from the
garbage collector's sweeps (tournament.serving.warm_up)."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import clear_url_caches, get_resolver

from tournament.serving.warm_up import template_names, warm_up

REPO = Path(__file__).resolve().parents[3]


def test_every_template_of_the_site_is_named():
    names = template_names()
    on_disk = list(Path(settings.TEMPLATES[0]["DIRS"][0]).rglob("*.html"))
    assert len(names) == len(on_disk) > 50
    assert "phone/table.html" in names
    assert "base.html" in names


@pytest.fixture
def nothing_frozen():
    """The suite freezes what it loaded (tests/conftest.py): a test of the freeze starts
    from nothing frozen, and the rest of the run gets the suite's collector back."""
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.freeze()


def test_warm_up_compiles_them_all_and_freezes_what_the_process_holds(nothing_frozen):
    clear_url_caches()  # a resolver that has mapped nothing yet
    assert gc.get_freeze_count() == 0
    assert warm_up() == len(template_names())
    assert gc.get_freeze_count() > 10_000  # Django, the app, its templates
    # Every language's URL names mapped: no phone's first page pays for it.
    mapped = set(get_resolver()._reverse_dict)
    assert mapped >= {code for code, _name in settings.LANGUAGES}


def test_each_server_worker_warms_up_when_it_loads_the_app(tmp_path):
    # granian imports tournament.serving.wsgi once per worker: that import is the warm-up.
    # A unit written for 0.2.0 names tournament.wsgi: the same application, warmed once.
    code = (
        "import gc, tournament.wsgi, tournament.serving.wsgi as served; "
        "print(tournament.wsgi.application is served.application, gc.get_freeze_count())"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={"FIVETRICKS_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    same, frozen = loaded.stdout.split()[-2:]
    assert same == "True"
    assert int(frozen) > 10_000


def test_a_template_that_cannot_be_read_does_not_keep_the_server_from_starting(
    tmp_path, settings, caplog, nothing_frozen
):
    (tmp_path / "fine.html").write_text("<p>fine</p>")
    (tmp_path / "broken.html").write_bytes(b"\xff\xfe not text {% if %}")
    (tmp_path / ".DS_Store").write_bytes(b"\x00\x01\xff")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    assert template_names() == ["broken.html", "fine.html"]
    assert warm_up() == 1
    assert "Not compiled at start: broken.html" in caplog.text
