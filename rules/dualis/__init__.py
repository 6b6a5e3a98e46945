"""Duālis (デュアリス): a trick-taking game where the trump colour is bid for with coins.

52 cards: Star `S` and Moon `M`, numbers 1-13, each printed once in Red `R` and once in Blue `B`
(`S9B` = Star 9 Blue). 7 Red and 7 Blue bidding coins lie in the centre (5 + 5 in the short game).

* Four players in two partnerships (seats 0+2 against 1+3), 13 cards each (9 in the short game, the
  rest set aside unseen). Iso Play: 3 or 4 players each on their own, 13 (or 9) cards each.
* The leader plays any card; the others must follow the led *suit* if they can (never the colour).
* While playing a card a player may take one coin of the opposite colour from the centre and put it
  on the card: the card now counts as the coin's colour and the coin counts for the player's bid.
* At the end of the trick the centre decides the trump: more Red coins left → Red, more Blue → Blue,
  equal → no trump. The strongest card of the trump colour wins if one was played, else the
  strongest card of the led suit; of two equally strong cards the later one wins.
* High-Low variant: a Red lead (after any coin on it) makes high numbers strong, a Blue lead low ones.
* Round scoring per side: tricks T equal to coins C → +T, else −|T − C|. Partnerships: the higher
  score wins the round (equal → more tricks); the first side to win 2 rounds wins the game. Iso
  Play: running totals; the game ends once two totals are 7 or more apart, or after 4 rounds.
* Each round is re-dealt with fresh coins; the winner of the last trick leads the next round.

Rulings from RULINGS.md §1: at most one coin per card, the leader may take one too; the host may
fix the first leader (else it is drawn from the seed); coins are never passed to a partner; earlier
tricks of the round are shown only with the `open_history` table option or once the game is over.
"""

from rules.dualis.cards import card_name
from rules.dualis.play import Dualis

GAME = Dualis()

__all__ = ["GAME", "card_name"]
