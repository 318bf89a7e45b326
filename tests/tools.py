"""Programs the tests need beside Python: Debian's chromium, poppler's pdftotext, GNU gettext.

The Makefile installs each where it can (as root, with apt). A test that finds one missing
skips with what to install, except under CI=true: there the Makefile has installed
everything, and a skip would hide a test that never ran.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(message: str) -> NoReturn:
    """Skip the test (fail it under CI=true): ``message`` says what to install."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
