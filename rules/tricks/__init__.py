"""Trick-taking shared by Duālis and Double Side Play: the play (`play`), plays chosen ahead
(`ahead`) and the replay with the contract both games share (`replay`)."""
