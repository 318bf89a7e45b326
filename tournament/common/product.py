"""The product's name and version, kept in this one place.

Terms:
    version   the release this code is (semantic versioning: major.minor.patch). The
              package's metadata reads it from here (pyproject.toml, dynamic version), and
              the start-up banner, the console's footer and every JSON record show it.
    made by   the name and version together, as a record and the banner show them, e.g.
              "Five Tricks 0.2.0".
"""

from __future__ import annotations

NAME = "Five Tricks"
VERSION = "0.2.0"


def made_by() -> str:
    """The product's name and version, e.g. "Five Tricks 0.2.0"."""
    return f"{NAME} {VERSION}"


def product_context(request: object) -> dict[str, str]:
    """For every template: the product's version (the console's footer shows it)."""
    return {"product_version": VERSION}
