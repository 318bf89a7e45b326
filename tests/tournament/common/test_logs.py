"""A forged Host header is refused with one warning line in the log, not a traceback."""

from __future__ import annotations

import io
import logging

import pytest

pytestmark = pytest.mark.django_db

FORGED = "evil.example"


def test_a_forged_host_is_refused_with_one_warning_line(client, caplog):
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        with caplog.at_level(logging.WARNING):
            for _ in range(2):
                assert client.get("/", HTTP_HOST=FORGED).status_code == 400
    finally:
        root.removeHandler(handler)

    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 2
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in records)
    lines = written.getvalue().splitlines()
    assert len(lines) == 2
    assert all(f"Invalid HTTP_HOST header: '{FORGED}'" in line for line in lines)
    assert "Traceback" not in written.getvalue()


def test_other_loggers_keep_their_tracebacks():
    logger = logging.getLogger("tournament.somewhere")
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    logger.addHandler(handler)
    try:
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    assert "Traceback" in written.getvalue()
