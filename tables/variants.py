"""Kept for callers outside the project: the variants now live in `tables.rules.variants`."""

from tables.rules.variants import *  # noqa: F403
