"""The store's errors, which the pages catch: a refusal (:class:`StoreError`, whose message
is written for people) and a database that cannot be used (:class:`StoreUnavailable`,
which the router's fault page shows)."""

from __future__ import annotations

from spades.store import StoreError, StoreUnavailable

__all__ = ["StoreError", "StoreUnavailable"]
