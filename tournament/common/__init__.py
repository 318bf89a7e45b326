"""Plumbing that both apps share, below every rule and every model.

Terms:
    refused      an action the tournament's state does not allow (errors.Refused); its
                 message is for people and says what to do instead.
    positive int a whole number >= 1 in ASCII digits, read from untrusted input (inputs).
    version      a counter that polling screens compare to answer "nothing changed" (polling).
    public URL   the address that phones on the venue's network use (network).
    QR code      a square code that a phone camera reads as a table's link (qr).
    noop message English text marked for translation and translated later (i18n).

Nothing here imports a model or a rule: tournament/ and tables/ both build on it.
``i18n`` imports only the standard library, so the pure rules core can use it.
"""
