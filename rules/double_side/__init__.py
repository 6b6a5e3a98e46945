"""Double Side Play (ダブルサイドプレイ): a trick-taking game for 3 or 4 players with two-sided cards.

48 cards in four colours, Red R, Blue B, Green G and Yellow Y, each with a black number 1-12 and a
white number that differs by 6 (white = black + 6 for 1-6, black - 6 for 7-12). A card is written
as its colour and black number: "G3" is Green, black 3, white 9.

Each round every player gets 12 cards (with 3 players 12 more are set aside unseen) and rolls two
dice, rolling both again until they differ; the dice are public. The lowest dice sum leads first
(then the lowest single die, then a draw). Tricks 1-6 compare black numbers; then every hand is
turned over and tricks 7-12 compare white numbers. Players must follow the led colour; the highest
number of the led colour wins and leads next. A player whose trick count equals one of their dice
scores a point (a 6 counts as 6 or 0). Rounds repeat until someone has 2 points; players reaching 2
in the same round share the win.

Option `trump`: after the roll the highest dice sum (then the highest single die, then a draw)
names a trump colour; a trump beats every non-trump card and the highest trump wins. There is no
duty to trump and trump may be led. Option `open_history` shows every trick of the round instead
of only the last one. Options `deck` and `dice` fix the shuffles and rolls (tests, imports).
"""

from rules.double_side.cards import card_name
from rules.double_side.play import DoubleSide

GAME = DoubleSide()

__all__ = ["GAME", "card_name"]
