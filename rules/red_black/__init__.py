"""Red and Black Duel (赤と黒のデュエル): a two-player bluffing duel with a standard deck and chips.

Each player starts with 15 chips and, every round, a hand of 6 cards from the deck.

1. Camp: both players put one card face down at once, then reveal them. Different colours: each
   player's camp is their own card's colour. Same colour: the stronger card's player gets that colour,
   the other the other colour. Red is ♥♦, Black is ♠♣. Camp cards stay out for the round.
2. Pot: the bank puts 3 chips in the middle.
3. Comparisons: the player whose card was stronger in the previous comparison (the camp cards for
   the first) puts a card face down and pays a 1-chip fee into the pot; then the other does the same;
   both are revealed and the stronger card wins the play and goes on top of the stack.
4. From the moment the pot is set either player may fold at any time: the other takes the pot.
5. Otherwise the round ends when the winning (top) cards show 3 of one colour, whoever won them:
   that colour's camp takes the pot. Every card of the round, hands included, is discarded.
6. Next round: 6 more cards each from the deck; when only 4 are left, all 52 are shuffled anew.

Strength: rank A > K > ... > 2; equal rank by suit ♠ > ♥ > ♦ > ♣ (RULINGS.md §4). At the start of
each round the game ends if a player has 4 chips or fewer (bankrupt) or anyone has 30 or more; more
chips wins, equal chips is a draw.

Cards are written rank + suit: "AS", "10H", "7D", "2C". Actions: {"card": "AS"} puts a card face down
(the camp card in the camp phase, a play in the play phase); {"fold": true} folds the round.
"""

from rules.red_black.cards import card_name
from rules.red_black.play import RedBlackDuel

GAME = RedBlackDuel()

__all__ = ["GAME", "card_name"]
