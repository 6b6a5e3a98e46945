"""Bots for seats: the seat-keeper (`bots.keeper`, a rule-of-thumb player) and the search bots of
chosen strength (`bots.search`), every one deciding from the seat's view and legal actions alone.

    from bots import choose_action, decide
    action = choose_action(game, view, legal, seat)                  # the seat-keeper
    decision = decide(game, view, legal, seat, "strong", seed)       # a bot of a level
"""

from __future__ import annotations

from bots.keeper import CHOOSERS, choose_action
from bots.search import LEVELS, Decision, check_level, decide, search_seed
from rules.table import KEEPER

__all__ = [
    "CHOOSERS",
    "KEEPER",
    "LEVELS",
    "Decision",
    "check_level",
    "choose_action",
    "decide",
    "search_seed",
]
