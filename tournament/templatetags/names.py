"""Showing a player's name in a page as text and nothing else (issue 23, item 5).

Terms:
    isolated  a name inside a ``<bdi>`` of its own (tournament.common.isolation): a
              right-to-left name beside a number never reorders its neighbours. Every page
              shows every player's name isolated: ``{{ player.name|bdi }}``, or
              ``{{ names|bdi_join:", " }}`` for a list in a sentence.

Built in (tournament.settings: TEMPLATES' builtins), so no template needs to load it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.safestring import SafeString

from tournament.common import isolation

register = template.Library()


@register.filter
def bdi(name: object) -> SafeString | str:
    """``{{ player.name|bdi }}``: the name, escaped, inside a ``<bdi>``; nothing for none."""
    if name is None or name == "":
        return ""
    return isolation.bdi(name)


@register.filter
def bdi_join(names: Iterable[object], separator: str = ", ") -> SafeString:
    """``{{ names|bdi_join:", " }}``: each name isolated, joined by ``separator``."""
    return isolation.bdi_join(names, separator)
