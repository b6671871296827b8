"""The engine: cards, rules, deck, hand state, observation, scoring, match and record.

It imports nothing of the package above it; the public API is re-exported by :mod:`spades`.
"""
