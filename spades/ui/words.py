"""Counts in words: a number with its noun in the right number."""

from __future__ import annotations


def count(number: int, noun: str) -> str:
    """``number`` and ``noun``, the noun plural unless the number is one.

    >>> count(1, "rated game"), count(2, "rated game"), count(0, "match"), count(3, "loss")
    ('1 rated game', '2 rated games', '0 matches', '3 losses')
    """
    if number == 1:
        return f"{number} {noun}"
    return f"{number} {noun}{'es' if noun.endswith(('s', 'x', 'z', 'ch', 'sh')) else 's'}"
