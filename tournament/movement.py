"""Kept for callers outside the project: the rule now lives in `tournament.rules.movement`."""

from tournament.rules.movement import *  # noqa: F403
