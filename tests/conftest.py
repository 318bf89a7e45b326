"""Shared fixtures: small factories for events, players, tables and rounds."""

from __future__ import annotations

import pytest

from tests import factories


@pytest.fixture
def organizer(django_user_model):
    return factories.make_user(django_user_model, "ada")


@pytest.fixture
def event(organizer):
    return factories.make_event(owner=organizer)
