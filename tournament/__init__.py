"""Five Tricks: the tournament app (events, players, rounds, the console and the projector).

Terms:
    __version__  the product's version, kept in tournament.common.product.
"""

from tournament.common.product import VERSION as __version__

__all__ = ["__version__"]
