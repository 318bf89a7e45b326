"""Player names isolated in a page: text and nothing else (issue 23, item 5).

Terms:
    isolated  a name inside a ``<bdi>`` element of its own: the browser lays it out apart
              from the text around it, so a right-to-left name ("محمد علي") beside a
              number or a time, or a name ending in punctuation, never reorders its
              neighbours, and they never reorder it. Templates use the ``bdi`` filter
              (tournament.templatetags.names); a sentence built in Python that holds a name
              uses ``with_names``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe


def bdi(name: object) -> SafeString:
    """The name, escaped, inside a ``<bdi>`` (see Terms: isolated)."""
    return format_html("<bdi>{}</bdi>", name)


def bdi_join(names: Iterable[object], separator: str = ", ") -> SafeString:
    """Each name isolated, joined by ``separator`` (escaped)."""
    return format_html_join(conditional_escape(separator), "<bdi>{}</bdi>", ((n,) for n in names))


def with_names(message: str, values: Mapping[str, object], *, names: Iterable[str]) -> SafeString:
    """``message % values`` for a page: the message and every value escaped, the values
    whose keys are in ``names`` isolated (see Terms)."""
    isolated = set(names)
    # format_html("{}", value) is conditional_escape(value) for a value of any type.
    escaped = {
        key: bdi(value) if key in isolated else format_html("{}", value)
        for key, value in values.items()
    }
    # Every part was escaped above, so the sentence is safe as a whole.
    return mark_safe(conditional_escape(message) % escaped)
