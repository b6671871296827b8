"""Simulation: the bots' duplicate arena for both kinds of game, and its progress bar."""
