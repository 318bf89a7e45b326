"""Errors that the screens show to people.

Terms: an action is *refused* when the tournament's state does not allow it (closing a
round twice, changing variants after study began without confirming, ...). The message
is already translated and says what to do instead; nothing was changed.
"""


class Refused(Exception):
    """An action the current state does not allow; its message is meant for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
