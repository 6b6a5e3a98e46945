"""Replays, game histories and verifiable deals, all built from a game's log alone."""
