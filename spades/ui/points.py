"""Scores and points as people print them: one true minus sign (−) everywhere on the
table, the summaries and the scoresheet, never a hyphen."""

from __future__ import annotations

from typing import Final

MINUS: Final = "\N{MINUS SIGN}"


def points(value: int, *, sign: bool = False) -> str:
    """``value`` with a true minus sign when negative, and a plus sign when ``sign`` asks
    for one on a gain (points won or lost in a hand, rather than a score).

    >>> points(-9), points(120), points(-100, sign=True), points(40, sign=True)
    ('−9', '120', '−100', '+40')
    """
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if sign and value > 0 else str(value)
