"""Kept for callers outside the project: the rule now lives in `tournament.rules.table_plan`."""

from tournament.rules.table_plan import *  # noqa: F403
