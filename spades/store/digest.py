"""A game's history in sixteen hex digits: what guarded writes compare.

A write to a game in play names the history the writer's copy had. Comparing lengths alone
is not enough: after an undo and different moves the stored game can be as long as a stale
copy and hold other actions. The digest chains every action into the one before, so two
histories share a digest only if they are the same actions in the same order (up to a
64-bit hash collision). The store keeps each game's digest next to its action count and
moves it on with each action, without reading the actions back.

>>> history_digest([])
''
>>> history_digest([3, 7]) == next_digest(next_digest("", 3), 7)
True
>>> history_digest([3, 7]) != history_digest([7, 3])
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def next_digest(digest: str, action: int) -> str:
    """The digest of a history after ``action`` is added to one whose digest is ``digest``."""
    return hashlib.blake2b(f"{digest}:{action}".encode("ascii"), digest_size=8).hexdigest()


def history_digest(actions: Iterable[int]) -> str:
    """The digest of a whole history (the empty string for none)."""
    digest = ""
    for action in actions:
        digest = next_digest(digest, action)
    return digest
