"""Marking messages for translation without importing Django.

Terms: a *noop message* is English text wrapped in ``gettext_noop`` so that
``makemessages`` finds it; whoever shows it translates it then, through a ``translate``
callable (Django's gettext in the app, the identity in plain tests). The pure rules core
(movement, table plan, variants, scoring, rule sheets) words its messages this way.
A *plural message* depends on a count ("1 table-round", "3 table-rounds"): the core
calls a parameter named ``ngettext`` with the singular, the plural and the count, so
that ``makemessages`` finds both forms at the call; the app passes Django's ngettext,
plain tests ``untranslated_plural``.
A *filled-in message* has placeholders such as ``%(table)s``: ``translated`` translates
it first and fills it in after, so translators see the placeholders.

Standard library only: this module must stay importable without Django.
"""

from collections.abc import Callable

Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]


def gettext_noop(message: str) -> str:
    """Mark a message for makemessages; it is translated where it is shown."""
    return message


def untranslated(message: str) -> str:
    """The ``translate`` for callers that want the English text as it is."""
    return message


def untranslated_plural(singular: str, plural: str, count: int) -> str:
    """The ``ngettext`` for callers that want English: the singular for exactly one."""
    return singular if count == 1 else plural


def translated(translate: Translate, message: str, **values: object) -> str:
    """``message`` (marked with ``gettext_noop``) translated, then filled in with ``values``."""
    # Translate the template first, then fill it in: translators see the placeholders, and
    # a bare message is left alone so a literal "%" in a translation cannot break it.
    text = translate(message)
    return text % values if values else text
