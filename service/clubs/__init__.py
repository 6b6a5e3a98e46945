"""Clubs: a standing group of friends who keep playing, kept in the club's own append-only log."""
