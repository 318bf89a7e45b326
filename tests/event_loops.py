"""Running a coroutine from a test, whatever ran before it in the same worker.

Terms:
    Playwright's loop  a browser test (Playwright's sync API) leaves an event loop marked
                       running in the worker's main thread for as long as its browser
                       lives, so ``asyncio.run`` there fails ("cannot be called from a
                       running event loop") in any later test of that worker.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

Result = TypeVar("Result")


def run(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """``asyncio.run(coroutine)`` in a thread of its own (see Terms: Playwright's loop)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
