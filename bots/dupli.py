"""The Dupli seat-keeper (RULINGS.md §3).

Setting: the hand must last four wars, so the keeper plans them together. A pair is worth the field
it may win (its chance to be the strongest times the cards on the field, the centre too in the last
war) plus any Patriotism it banks; the chance comes from the pairs the other players may set, drawn
from the cards this seat has not seen. The pair set now is the one that, with the best plan for the
cards left, is worth most over the remaining wars, less how far each pair strays from an even share
of the hand: so it does not spend its two strongest cards on one war while the others go unarmed (a
balanced pair), and it keeps pairs the set rule allows.

* Risks are priced in: a Tyranny or Charge may be zeroed by a Benevolence (unless a banked Patriotism
  can cancel it) or eliminated by a Subversion; a Benevolence counts only if someone else is
  aggressive; a Subversion's −1 buys the elimination of every aggressive rival.
* Charge window: the face-up Charge is known, so the keeper re-plans against it: a Benevolence or a
  Subversion answers it, or weak cards are thrown in to save the strong ones for a later war.
* Aiming: at the card whose zeroing does most for this seat's share of the field (then at the
  strongest rival); a Patriotism answer cancels only when keeping the card wins more than the VP.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate, combinations_with_replacement
from typing import Any

from bots.tricks import best
from rules.dupli.cards import AGGRESSIVE, BASE_STRENGTH, FULL_DECK, WARS, forbidden, legal_pairs, without
from rules.shapes import Action

Pair = tuple[str, str]
Dist = dict[int, float]  # strength -> probability

# Chance that one Benevolence on the field is aimed at a given aggressive card of ours.
AIMED_AT_US = 0.5
# A Patriotism in VP spent to keep a card costs that VP.
PATRIOTISM_VP = 1.0
# A plan is balanced: each pair's weight (strength, a Patriotism's VP) is kept near an even share of
# the hand, so no war goes unarmed and two strong cards are not spent where one would do. The win
# chances alone would concentrate strength (a war is all or nothing), which a rival's Benevolence or
# a swap against a face-up Charge punishes.
BALANCE = 0.25
# Rivals' VP gains count against us, a little (four players: the field is shared out among them).
RIVAL_WEIGHT = 0.3


@dataclass(frozen=True)
class Rival:
    """What one other player may set: the pairs' strengths with and without a Subversion on the
    field, and the chances it is aggressive, sets a Benevolence or sets a Subversion."""

    plain: tuple[tuple[int, float], ...]  # strength distribution, no Subversion on the field
    under_subversion: tuple[tuple[int, float], ...]  # survivors' strengths (eliminated: absent)
    aggressive: float
    benevolence: float
    subversion: float

    def __hash__(self) -> int:  # a part of every cached plan's key: hashed once, not at each lookup
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.plain, self.under_subversion, self.aggressive, self.benevolence, self.subversion))


@dataclass(frozen=True)
class Table:
    """What the seat knows, read once from its view."""

    seat: int
    seats: int
    war: int
    hand: tuple[str, ...]
    my_set: Pair | None
    patriotism: int  # Patriotisms in my VP pile (to cancel a Benevolence)
    centre: int  # cards waiting in the centre for the last war
    pool: tuple[tuple[str, int], ...]  # unseen cards and their counts


def read_table(view: Mapping[str, Any], seat: int) -> Table:
    """The seat's knowledge as a Table."""
    hand = tuple(c["card"] for c in view["hand"])
    my_set = tuple(sorted(view["my_set"])) if view.get("my_set") else None
    seen = Counter(hand) + Counter(my_set or ())
    for war in (view.get("current_war"), view.get("last_war")):
        for player in (war or {}).get("players", ()):
            if player["seat"] != seat or war is view.get("last_war"):
                seen += Counter(c["card"] for c in player["cards"])
    pool = Counter(FULL_DECK) - seen
    return Table(
        seat=seat,
        seats=view["seats"],
        war=view["war"],
        hand=hand,
        my_set=my_set,
        patriotism=view["patriotism"][seat],
        centre=view["centre"],
        pool=tuple(sorted(pool.items())),
    )


def choose(view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
    """The pair to set (or to keep or swap to), the Benevolence's target, or the Patriotism answer."""
    table = read_table(view, seat)
    kind = next(iter(legal[0]))
    if kind == "set":
        return choose_pair(table, view, legal)
    if kind == "target":
        return choose_target(table, view, legal)
    return choose_answer(table, view, legal)


# --------------------------------------------------------------------------------- rivals


def pair_weights(pool: Iterable[tuple[str, int]]) -> list[tuple[Pair, float]]:
    """Every legal pair a rival could set from the unseen cards, weighed by how many ways it can
    be drawn (a rival's hand is a random part of the unseen cards)."""
    counts = dict(pool)
    out = []
    for a, b in combinations_with_replacement(sorted(counts), 2):
        if forbidden(a, b):
            continue
        ways = counts[a] * (counts[a] - 1) / 2 if a == b else counts[a] * counts[b]
        if ways > 0:
            out.append(((a, b), ways))
    total = sum(w for _, w in out) or 1.0
    return [(pair, w / total) for pair, w in out]


@lru_cache(maxsize=256)
def rival(pool: tuple[tuple[str, int], ...], charge_up: bool) -> Rival:
    """A rival's profile; `charge_up`: it has a face-up Charge, the other card is unknown."""
    if charge_up:
        pool_counts = dict(pool)
        total = sum(n for c, n in pool_counts.items() if c != "benevolence") or 1
        pairs = [(("charge", c), n / total) for c, n in pool_counts.items() if c != "benevolence" and n]
    else:
        pairs = pair_weights(pool)
    plain: defaultdict[int, float] = defaultdict(float)  # weights of each total strength
    under: defaultdict[int, float] = defaultdict(float)
    aggressive = benevolence = subversion = 0.0
    for pair, weight in pairs:
        hot = any(card in AGGRESSIVE for card in pair)
        plain[sum(BASE_STRENGTH[card] for card in pair)] += weight
        if not hot:  # under a Subversion: aggressive setters are out, Benevolence counts 0
            under[sum(BASE_STRENGTH[c] for c in pair if c != "benevolence")] += weight
        aggressive += weight * hot
        benevolence += weight * pair.count("benevolence")
        subversion += weight * ("subversion" in pair)
    return Rival(
        tuple(sorted(plain.items())), tuple(sorted(under.items())), aggressive, benevolence, subversion
    )


def win_share(mine: Dist, rivals: Sequence[tuple[tuple[int, float], ...]]) -> float:
    """My expected share of the win: the chance every rival is weaker, plus half the chance of a tie
    at the top (rivals' distributions may miss mass: an eliminated rival cannot win)."""
    tables = [cumulative(dist) for dist in rivals]
    share = 0.0
    for strength, p in mine.items():
        below = at_most = 1.0
        for strengths, masses, missing in tables:
            below *= masses[bisect_left(strengths, strength)] + missing
            at_most *= masses[bisect_right(strengths, strength)] + missing
        share += p * (below + 0.5 * (at_most - below))
    return share


@lru_cache(maxsize=4096)
def cumulative(dist: tuple[tuple[int, float], ...]) -> tuple[tuple[int, ...], tuple[float, ...], float]:
    """A rival's distribution (sorted by strength) as its strengths, the mass below each place in
    that order (summed in the same order as a sum over the weaker strengths, so to the same bits),
    and the mass it misses."""
    strengths = tuple(strength for strength, _ in dist)
    masses = tuple(accumulate((q for _, q in dist), initial=0))
    return strengths, masses, 1.0 - masses[-1]


# --------------------------------------------------------------------------------- a pair's worth


def my_strengths(pair: Pair, rivals: Sequence[Rival], patriotism: int) -> Dist:
    """My strength distribution without a Subversion on the field: a Benevolence counts if some
    rival is aggressive; an aggressive card may be zeroed by a rival's Benevolence."""
    dist: Dist = {0: 1.0}
    someone_hot = 1.0
    for r in rivals:
        someone_hot *= 1.0 - r.aggressive
    someone_hot = 1.0 - someone_hot
    aimed = 1.0
    for r in rivals:
        aimed *= 1.0 - AIMED_AT_US * r.benevolence
    aimed = 1.0 - aimed
    if patriotism:
        aimed = 0.0  # a banked Patriotism cancels the Benevolence (its VP cost is counted apart)
    for card in pair:
        if card == "benevolence":
            outcomes = {1: someone_hot, 0: 1.0 - someone_hot}
        elif card in AGGRESSIVE:
            outcomes = {BASE_STRENGTH[card]: 1.0 - aimed, 0: aimed}
        else:
            outcomes = {BASE_STRENGTH[card]: 1.0}
        dist = convolve(dist, outcomes)
    return dist


def convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of the sum of two independent strengths."""
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


@lru_cache(maxsize=16384)
def pair_worth(pair: Pair, rivals: tuple[Rival, ...], field: float, patriotism: int) -> float:
    """The VP a pair is worth this war: its share of the field, whether or not a rival's Subversion
    comes, plus the Patriotisms it banks; cached, since a plan meets the same pair in many hands."""
    banked = pair.count("patriotism")
    hot = any(card in AGGRESSIVE for card in pair)
    if "subversion" in pair:
        if hot:
            return banked  # eliminated by my own Subversion
        mine = {sum(BASE_STRENGTH[c] for c in pair if c != "benevolence"): 1.0}
        return banked + field * win_share(mine, [r.under_subversion for r in rivals])
    no_subversion = 1.0
    for r in rivals:
        no_subversion *= 1.0 - r.subversion
    plain = win_share(my_strengths(pair, rivals, patriotism), [r.plain for r in rivals])
    worth = no_subversion * plain
    if not hot:
        mine = {sum(BASE_STRENGTH[c] for c in pair if c != "benevolence"): 1.0}
        worth += (1.0 - no_subversion) * win_share(mine, [r.under_subversion for r in rivals])
    return banked + field * worth


def field_cards(seats: int, centre: int, war: int) -> float:
    """The cards a war's winner takes: everyone's two cards (less the odd Patriotism, banked
    instead), and in the last war the centre too."""
    return 2 * seats - 0.3 + (centre if war == WARS else 0)


def weight(cards: Iterable[str]) -> int:
    """What cards bring to a war: their base strength, and a Patriotism its banked VP."""
    return sum(BASE_STRENGTH[c] + (c == "patriotism") for c in cards)


def balance_target(cards: Sequence[str], wars_left: int) -> float:
    """The weight each remaining war would get if the cards (less the weakest left over) were
    shared out evenly."""
    if wars_left <= 0:
        return 0.0
    used = sorted((weight([c]) for c in cards), reverse=True)[: 2 * wars_left]
    return sum(used) / wars_left


@lru_cache(maxsize=4096)
def imbalance(pair: Pair, target: float) -> float:
    """How far a pair's weight strays from an even share, squared (a war left unarmed, or two strong
    cards spent where one would do)."""
    return BALANCE * (weight(pair) - target) ** 2


@lru_cache(maxsize=8192)
def plan_worth(
    seats: int,
    centre: int,
    patriotism: int,
    hand: tuple[str, ...],
    war: int,
    rivals: tuple[Rival, ...],
    target: float,
) -> float:
    """The most VP the cards left (sorted) can bring over the wars from `war` on, a pair each war,
    less the imbalance of the plan; cached, since the same rest of a hand recurs across pairs."""
    if war > WARS or len(hand) < 2:
        return 0.0
    field = field_cards(seats, centre, war)
    outcomes = []
    for pair, rest in splits(hand):
        now = pair_worth(pair, rivals, field, patriotism) - imbalance(pair, target)
        banked = patriotism + pair.count("patriotism")
        outcomes.append(now + plan_worth(seats, centre, banked, rest, war + 1, rivals, target))
    return max(outcomes, default=0.0)


@lru_cache(maxsize=4096)
def splits(hand: tuple[str, ...]) -> tuple[tuple[Pair, tuple[str, ...]], ...]:
    """Each pair the (sorted) cards may set, with the cards left after it, sorted: a plan's steps."""
    return tuple((pair, tuple(sorted(without(hand, pair)))) for pair in legal_pairs(hand))


# --------------------------------------------------------------------------------- decisions


def choose_pair(table: Table, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Set (or, in the Charge window, keep or swap to) the pair worth most with the best plan for
    the cards left; the same pair on a tie (no swap for nothing), else the first."""
    charged = {c["seat"] for c in (view.get("charge") or {}).get("face_up", ())}
    cards = table.hand + (table.my_set or ())
    future = rival(table.pool, False)
    rivals = tuple(rival(table.pool, s in charged) for s in range(table.seats) if s != table.seat)
    field = field_cards(table.seats, table.centre, table.war)
    target = balance_target(cards, WARS - table.war + 1)
    later_rivals = (future,) * len(rivals)

    def worth(action: Action) -> float:
        pair: Pair = (action["set"][0], action["set"][1])
        rest = tuple(sorted(without(cards, pair)))
        now = pair_worth(pair, rivals, field, table.patriotism) - imbalance(pair, target)
        banked = table.patriotism + pair.count("patriotism")
        later = plan_worth(table.seats, table.centre, banked, rest, table.war + 1, later_rivals, target)
        keep = 1e-6 if table.my_set is not None and pair == table.my_set else 0.0
        return now + later + keep

    return best(legal, worth)


def war_gains(view: Mapping[str, Any], strengths: Mapping[int, int]) -> dict[int, float]:
    """The VP each seat takes from this war if it ended with these strengths."""
    war = view["current_war"]
    alive = [p["seat"] for p in war["players"] if not p["eliminated"]]
    if not alive:
        return {}
    top = max(strengths[s] for s in alive)
    winners = [s for s in alive if strengths[s] == top]
    field = sum(1 for p in war["players"] for c in p["cards"] if not c["banked"])
    if view["war"] == view["wars"]:
        field += view["centre"]
    share = field // len(winners)
    return {s: float(share) for s in winners}


def outlook(view: Mapping[str, Any], seat: int, strengths: Mapping[int, int], spent: float = 0.0) -> float:
    """My VP gain less a little of the best rival's gain (and any VP spent)."""
    gains = war_gains(view, strengths)
    rival_best = max((g for s, g in gains.items() if s != seat), default=0.0)
    return gains.get(seat, 0.0) - RIVAL_WEIGHT * rival_best - spent


def current_strengths(view: Mapping[str, Any]) -> dict[int, int]:
    """Every seat's strength as the reveal stands."""
    return {p["seat"]: p["strength"] for p in view["current_war"]["players"]}


def card_at(view: Mapping[str, Any], seat: int, slot: int) -> dict[str, Any]:
    """A set card of the current war, with its marks and strength now."""
    player = next(p for p in view["current_war"]["players"] if p["seat"] == seat)
    return next(c for c in player["cards"] if c["slot"] == slot)


def choose_target(table: Table, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Aim where zeroing does most for me: my share against the best rival's; an owner who can
    cancel with a Patriotism is counted as doing so half the time (my Benevolence then counts 0).
    Never at my own cards; it passes only when every aim risks more than it gains."""
    base = current_strengths(view)
    my_slot = view["targeting"]["turn"]["slot"] if view["targeting"] and view["targeting"]["turn"] else 0
    mine_now = card_at(view, table.seat, my_slot)["strength"]

    def worth(action: Action) -> float:
        target = action["target"]
        if target is None:
            return outlook(view, table.seat, base) - 1e-3
        owner, slot = target["seat"], target["slot"]
        if owner == table.seat:
            return -1e9
        zeroed = dict(base)
        zeroed[owner] -= card_at(view, owner, slot)["strength"]
        value = outlook(view, table.seat, zeroed)
        if view["patriotism"][owner]:
            cancelled = dict(base)
            cancelled[table.seat] -= mine_now
            value = 0.5 * value + 0.5 * outlook(view, table.seat, cancelled)
        # On a tie, the rival with the most strength (then VP) loses most.
        return float(value + 1e-3 * base[owner] + 1e-5 * view["vp"][owner])

    return best(legal, worth)


def choose_answer(table: Table, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
    """Spend a Patriotism only when keeping the card gains more than the VP it costs."""
    pending = view["pending"]
    target, aimer = pending["target"], pending["aimer"]
    base = current_strengths(view)
    keep = dict(base)
    keep[aimer["seat"]] -= card_at(view, aimer["seat"], aimer["slot"])["strength"]
    lose = dict(base)
    lose[table.seat] -= card_at(view, table.seat, target["slot"])["strength"]
    cancel = outlook(view, table.seat, keep, spent=PATRIOTISM_VP)
    accept = outlook(view, table.seat, lose)
    wanted = cancel > accept
    return next(action for action in legal if action["cancel"] is wanted)
