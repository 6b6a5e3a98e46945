"""Dupli: 3 or 4 kings play policy cards over four wars (rulebook 003, RULINGS.md §3).

The 36 policy cards (drill ×10, tyranny ×9, benevolence ×9, charge ×2, patriotism ×4, subversion ×2)
are dealt 9 to each player; with 3 players the other 9 are set aside unseen. Each war:

1. Set: every player secretly sets two hand cards at once. Tyranny or Charge never goes together with
   Benevolence.
2. Charge: once everyone has set, every set Charge is turned face up, and every player without a
   Charge answers by re-choosing their pair from set + hand (the same pair keeps it). Answers are
   hidden and simultaneous; a Charge swapped in stays face down; there is no second window.
3. Reveal and resolve: Patriotism goes straight to its owner's victory points (VP); Subversion
   eliminates every Tyranny or Charge setter and voids every Benevolence; otherwise each Benevolence
   is worth +1 if another player set a Tyranny or Charge, and may aim at one of them (in VP order,
   most first, ties drawn from the seed) to zero it, unless the owner spends a banked Patriotism to
   cancel that Benevolence.
4. Strength: drill 1, tyranny 2, charge 3 (0 when zeroed), benevolence 1 or 0, subversion −1. The
   strongest player not eliminated takes the field as VP, 1 per card; tied winners split it, the
   remainder waits face down in the centre for the last war's winners. After four wars most VP wins.

Slots are the positions 0 and 1 of a seat's sorted pair; every card is written by its English name.
"""

from rules.dupli.cards import card_name
from rules.dupli.play import Dupli

GAME = Dupli()

__all__ = ["GAME", "card_name"]
