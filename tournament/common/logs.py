"""Log records cut to what an operator needs to read.

Terms:
    forged host   a request whose Host header is not in ALLOWED_HOSTS: Django refuses it
                  with 400 (DisallowedHost) and logs it on django.security.DisallowedHost
                  at ERROR with its traceback, 14 lines for a scan of the Wi-Fi or the
                  internet that says nothing the message does not.
    one line      the record kept as one WARNING line: the message (the refused host, as
                  Django quotes it) without the traceback. The request is still refused.
"""

from __future__ import annotations

import logging


class OneLineWarning(logging.Filter):
    """A logger filter that lowers each record to a WARNING without its traceback (see
    Terms: one line). On the logger, not a handler, so every handler it propagates to,
    the console's and any other, gets the short record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True
