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

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NotRequired, TypedDict

from rules.base import (
    N_,
    START,
    Action,
    Closure,
    Event,
    Game,
    Heading,
    Message,
    ScoreRow,
    ScoreSheet,
    Teller,
    fixed_decks,
    listing,
    require,
    word,
)
from rules.determinize import Place, deal_hidden, new_seed, unseen
from rules.rng import SeededRandom
from rules.shapes import Choice, Record, Several, Shape

CARD_COUNTS: dict[str, int] = {
    "drill": 10,
    "tyranny": 9,
    "benevolence": 9,
    "charge": 2,
    "patriotism": 4,
    "subversion": 2,
}
CARD_ORDER: tuple[str, ...] = tuple(CARD_COUNTS)  # the rulebook's order, used to sort a hand
FULL_DECK: tuple[str, ...] = tuple(name for name, count in CARD_COUNTS.items() for _ in range(count))
HAND_SIZE = 9
WARS = 4
SET_SIZE = 2  # cards each player sets per war
AGGRESSIVE = frozenset({"tyranny", "charge"})  # the cards Benevolence aims at and Subversion punishes
MAX_SEATS = 4
# The plays chosen ahead: the answer to a Charge (keeping the set cards) and the standing answer to a
# Benevolence aimed at the seat (spending a Patriotism or not).
CHARGE_ANSWER = "charge"
PATRIOTISM_ANSWER = "patriotism"
SITUATION_NAMES = {
    CHARGE_ANSWER: N_("if a Charge is set: keep my cards"),
    PATRIOTISM_ANSWER: N_("if a Benevolence is aimed at my card"),
}
TARGET = N_('A target is {"seat": N, "slot": 0 or 1}, or null to pass.')
ACTION_SHAPES = (
    Shape(
        {
            "set": Several(
                Choice(CARD_ORDER, N_("%(value)s is not a Dupli card.")),
                SET_SIZE,
                N_("Set exactly two cards, as a list of two card names."),
            )
        }
    ),
    Shape(
        {
            "target": Record(
                {"seat": Choice(tuple(range(MAX_SEATS)), TARGET), "slot": Choice((0, 1), TARGET)},
                TARGET,
                nullable=True,
            )
        }
    ),
    Shape({"cancel": Choice((True, False), N_('Answer with {"cancel": true} or {"cancel": false}.'))}),
)
BASE_STRENGTH: dict[str, int] = {
    "drill": 1,
    "tyranny": 2,
    "benevolence": 1,
    "charge": 3,
    "patriotism": 0,
    "subversion": -1,
}
EFFECTS: dict[str, str] = {
    "drill": N_("Strength 1. Goes with any card."),
    "tyranny": N_("Strength 2; a Benevolence may zero it. Never with Benevolence."),
    "benevolence": N_(
        "Strength 1 only if another player set a Tyranny or Charge; may zero one of them. "
        "Never with Tyranny or Charge."
    ),
    "charge": N_(
        "Strength 3; turned face up before the reveal and the others may swap. Never with Benevolence."
    ),
    "patriotism": N_(
        "Goes straight to your VP; later spend it from your VP to cancel a Benevolence aimed at you."
    ),
    "subversion": N_(
        "Strength −1; eliminates everyone who set a Tyranny or Charge (you too) and voids every Benevolence."
    ),
}
CARD_NAMES: dict[str, str] = {
    "drill": N_("Drill"),
    "tyranny": N_("Tyranny"),
    "benevolence": N_("Benevolence"),
    "charge": N_("Charge"),
    "patriotism": N_("Patriotism"),
    "subversion": N_("Subversion"),
}
ANSWER_EFFECTS: dict[bool, str] = {
    True: N_("Spend a Patriotism (VP −1): your card keeps its strength and that Benevolence is worth 0."),
    False: N_("Keep your Patriotism: your card is zeroed."),
}
_RANK = {name: i for i, name in enumerate(CARD_ORDER)}

Slot = tuple[int, int]  # (seat, position 0/1 in that seat's sorted pair)


# --------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class Aim:
    """One Benevolence's choice: the aiming seat and slot, its target (None: passed) and outcome."""

    seat: int
    slot: int
    target: Slot | None
    outcome: str  # "passed", "zeroed", "cancelled", or "asked" while the owner decides


@dataclass(frozen=True)
class WarResult:
    """How a war ended: strengths, winners and where the cards went."""

    strengths: tuple[int, ...]
    best: int | None
    winners: tuple[int, ...]
    field: int  # cards on the field (Patriotism excluded)
    pool: int  # cards shared out: the field, plus the centre in the last war
    share: int  # cards each winner took
    to_centre: int  # cards left over after the split
    centre: int  # cards in the centre afterwards
    last: bool


@dataclass(frozen=True)
class Reveal:
    """A war from its reveal on: the final sets and everything the resolution did to them."""

    war: int
    sets: tuple[tuple[str, str], ...]
    charges_up: tuple[Slot, ...]
    banked: tuple[int, ...]  # Patriotisms each seat banked at this reveal
    subversion: bool
    eliminated: tuple[int, ...]
    live: tuple[bool, ...]  # per seat: it set a Benevolence that counts (+1, may aim)
    order: tuple[Slot, ...]  # aiming order: (seat, slot of its Benevolence)
    tie_drawn: bool
    aims: tuple[Aim, ...] = ()
    zeroed: frozenset[Slot] = frozenset()
    cancelled: frozenset[Slot] = frozenset()  # Benevolences cancelled by a Patriotism
    result: WarResult | None = None


@dataclass(frozen=True)
class State:
    """The whole game: hands, this war's sets, VP piles, centre and the resolution in progress."""

    seed: int
    seats: int
    phase: str  # deal, set, charge, aim, react, end, over
    war: int
    hands: tuple[tuple[str, ...], ...] = ()
    set_aside: tuple[str, ...] = ()
    sets: tuple[tuple[str, str] | None, ...] = ()  # this war's pairs, hidden until the reveal
    charges_up: tuple[Slot, ...] = ()  # Charges turned face up in the Charge window
    answered: tuple[bool, ...] = ()  # Charge window answers given
    vp: tuple[tuple[str, ...], ...] = ()
    centre: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()  # Patriotisms spent, out of the game
    reveal: Reveal | None = None  # this war, once revealed
    last: Reveal | None = None  # the war before, resolved
    wars: tuple[Reveal, ...] = ()  # every war resolved so far (the score sheet)
    closure: Closure | None = None  # set by a forfeit or a cancellation (rules.base)


# --------------------------------------------------------------------------------- card helpers


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards in the rulebook's order (drill, tyranny, benevolence, charge, patriotism, subversion)."""
    return tuple(sorted(cards, key=_RANK.__getitem__))


def forbidden(a: str, b: str) -> bool:
    """Whether a pair breaks the set rule: Tyranny or Charge together with Benevolence."""
    return (a in AGGRESSIVE and b == "benevolence") or (b in AGGRESSIVE and a == "benevolence")


def legal_pairs(cards: Iterable[str]) -> list[tuple[str, str]]:
    """Every sorted pair that may be set from these cards, each once."""
    counts = Counter(cards)
    kinds = sorted(counts)
    return [
        (a, b)
        for i, a in enumerate(kinds)
        for b in kinds[i:]
        if (a != b or counts[a] >= 2) and not forbidden(a, b)
    ]


def without(cards: Sequence[str], taken: Iterable[str]) -> tuple[str, ...]:
    """The cards with one copy of each taken card removed."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return tuple(rest)


def slot_json(slot: Slot) -> dict[str, int]:
    """A (seat, slot) pair as the JSON the actions use."""
    return {"seat": slot[0], "slot": slot[1]}


def card_strength(reveal: Reveal, seat: int, slot: int) -> int:
    """One revealed card's strength now: zeroed and cancelled marks and Benevolence's condition applied."""
    card = reveal.sets[seat][slot]
    if card in AGGRESSIVE and (seat, slot) in reveal.zeroed:
        return 0
    if card == "benevolence":
        return int(reveal.live[seat] and (seat, slot) not in reveal.cancelled)
    return BASE_STRENGTH[card]


def seat_strength(reveal: Reveal, seat: int) -> int:
    """A seat's strength: the sum of its two set cards (a banked Patriotism counts 0)."""
    return card_strength(reveal, seat, 0) + card_strength(reveal, seat, 1)


def targets(reveal: Reveal) -> list[Slot]:
    """Every Tyranny or Charge on the field, zeroed or not: what a Benevolence may aim at."""
    return [(s, i) for s, pair in enumerate(reveal.sets) for i, card in enumerate(pair) if card in AGGRESSIVE]


def current_aim(reveal: Reveal | None) -> Slot | None:
    """The Benevolence whose turn it is to aim, if any is left."""
    if reveal is None or len(reveal.aims) >= len(reveal.order):
        return None
    return reveal.order[len(reveal.aims)]


def card_name(card: str) -> Message:
    """A policy card for people, by the rulebook's name: "Benevolence"."""
    return word(CARD_NAMES[card])


def pair_name(pair: Sequence[str]) -> Message:
    """Two set cards for people: "Drill + Tyranny"."""
    first, second = pair
    return N_("%(first)s + %(second)s"), {"first": card_name(first), "second": card_name(second)}


def _names(seats: Iterable[int], names: Sequence[str]) -> str:
    """Seat names joined for a describe line."""
    return ", ".join(names[s] for s in seats)


# --------------------------------------------------------------------------------- the game


class DupliView(TypedDict):
    """The shape of every Dupli view (`view`, `open_view`), which the table templates and the JSON
    API read: one declared shape. Nested parts are plain JSON."""

    game: str
    seat: int | None
    seats: int
    to_act: list[Any]
    phase: str
    round: int
    war: int
    wars: int
    wars_played: int
    scores: list[Any]
    vp: list[Any]
    patriotism: list[Any]
    centre: int
    removed: int
    hand_counts: list[Any]
    hand: list[Any] | None
    my_set: list[Any] | None
    set_done: list[Any]
    charge: dict[str, Any] | None
    targeting: dict[str, Any] | None
    pending: dict[str, Any] | None
    current_war: dict[str, Any] | None
    last_war: dict[str, Any] | None
    result: dict[str, Any] | None
    hands: NotRequired[list[Any]]
    set_aside: NotRequired[list[Any]]
    centre_cards: NotRequired[list[Any]]
    sets: NotRequired[list[Any]]  # every set card (open_view only)
    goal: dict[str, Any]  # wars in a game and cards set per war
    closure: NotRequired[dict[str, Any]]  # how a forfeit or a cancellation ended the game


class Dupli(Game[State]):
    """Dupli's rules behind the contract of rules.base.Game."""

    view_shape = DupliView
    action_shapes = ACTION_SHAPES

    name: ClassVar[str] = "dupli"
    seat_counts: ClassVar[tuple[int, ...]] = (3, MAX_SEATS)
    default_options: ClassVar[dict[str, Any]] = {"deck": None}

    # --- start ------------------------------------------------------------------------------

    def start(self, seed: int, seats: int, options: Mapping[str, Any] | None = None) -> list[Event]:
        """GameStarted (seed, seats, options) and HandsDealt (every hand and the set-aside cards)."""
        opts = self.check_options(seats, options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"the seed must be an integer, not {seed!r}")
        deck = self._deck(seed, opts["deck"])
        hands = [list(sort_hand(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(seats)]
        return [
            self.event("GameStarted", seed=seed, seats=seats, options=opts),
            self.event("HandsDealt", hands=hands, set_aside=list(deck[seats * HAND_SIZE :])),
        ]

    def _deck(self, seed: int, given: object) -> list[str]:
        """The deck top first: the first of the fixed decks when given (Dupli shuffles once), else
        shuffled from the seed."""
        decks = fixed_decks(given, FULL_DECK, self.name)
        return list(decks[0]) if decks else SeededRandom(seed, "deal").shuffled(FULL_DECK)

    # --- apply ------------------------------------------------------------------------------

    def _started(self, event: Event) -> State:
        return _started(None, event)

    @property
    def folds(self) -> Mapping[str, Callable[[State, Event], State]]:
        """Each Dupli event's fold."""
        return _FOLDS

    # --- reading state ----------------------------------------------------------------------

    def _to_act(self, state: State | None) -> frozenset[int]:
        """Seats yet to set or answer the Charge, the aiming seat, or the owner asked for a Patriotism."""
        if state is None:
            return frozenset()
        if state.phase == "set":
            return frozenset(s for s, pair in enumerate(state.sets) if pair is None)
        if state.phase == "charge":
            return frozenset(s for s in self._answerers(state) if not state.answered[s])
        if state.phase == "aim":
            turn = current_aim(state.reveal)
            return frozenset() if turn is None else frozenset({turn[0]})
        if state.phase == "react":
            target = self._pending(state).target
            return frozenset() if target is None else frozenset({target[0]})
        return frozenset()

    def _answerers(self, state: State) -> list[int]:
        """The seats that must answer the Charge: every seat without a face-up Charge."""
        charged = {seat for seat, _ in state.charges_up}
        return [s for s in range(state.seats) if s not in charged]

    def _pending(self, state: State) -> Aim:
        """The aim awaiting its target's Patriotism answer."""
        assert state.reveal is not None and state.reveal.aims
        return state.reveal.aims[-1]

    def _legal_actions(self, state: State | None, seat: int) -> list[Action]:
        """Every legal action of that seat, in the shapes of RULINGS.md."""
        if state is None or seat not in self.to_act(state):
            return []
        if state.phase == "set":
            return [{"set": list(pair)} for pair in legal_pairs(state.hands[seat])]
        if state.phase == "charge":
            pool = state.hands[seat] + tuple(state.sets[seat] or ())
            return [{"set": list(pair)} for pair in legal_pairs(pool)]
        if state.phase == "aim":
            assert state.reveal is not None
            return [{"target": slot_json(t)} for t in targets(state.reveal)] + [{"target": None}]
        return [{"cancel": True}, {"cancel": False}]

    # --- acting -----------------------------------------------------------------------------

    def _act(self, state: State | None, seat: int, action: Action) -> list[Event]:
        """The events an action causes, with every automatic step after it; raises IllegalAction."""
        require(state is not None and state.phase != "deal", N_("The game has not started."))
        assert state is not None
        require(state.phase not in ("end", "over"), N_("The game is over."))
        require(
            type(seat) is int and 0 <= seat < state.seats, N_("There is no seat %(seat)s."), seat=str(seat)
        )
        if "set" in action:
            events = self._act_set(state, seat, action["set"])
        elif "target" in action:
            events = self._act_target(state, seat, action["target"])
        else:
            events = self._act_cancel(state, seat, action["cancel"])
        return events + self._follow(self._apply_all(state, events))

    def _act_set(self, state: State, seat: int, value: list[str]) -> list[Event]:
        """Setting two cards (set phase) or answering the Charge (Charge window)."""
        require(
            state.phase in ("set", "charge"),
            N_("Cards are set only at the start of a war or in the Charge window."),
        )
        a, b = sorted(value)
        pair = a, b
        if state.phase == "set":
            require(state.sets[seat] is None, N_("You have already set your cards this war."))
            self._check_pair(state.hands[seat], pair)
            return [self.event("CardsSet", war=state.war, seat=seat, cards=list(pair))]
        require(seat in self._answerers(state), N_("You set a Charge, so you do not swap."))
        require(not state.answered[seat], N_("You have already answered the Charge."))
        current = state.sets[seat]
        assert current is not None
        self._check_pair(state.hands[seat] + current, pair)
        return [self.event("SwapAnswered", war=state.war, seat=seat, cards=list(pair), kept=pair == current)]

    def _check_pair(self, cards: Sequence[str], pair: tuple[str, str]) -> None:
        """IllegalAction unless the pair can be taken from these cards and obeys the set rule."""
        require(
            not Counter(pair) - Counter(cards),
            N_("You do not hold %(cards)s."),
            cards=pair_name(pair),
        )
        require(not forbidden(*pair), N_("Tyranny or Charge may not be set together with Benevolence."))

    def _act_target(self, state: State, seat: int, value: dict[str, int] | None) -> list[Event]:
        """A Benevolence aiming at a Tyranny or Charge on the field, or passing (None)."""
        require(state.phase == "aim", N_("No Benevolence is aiming now."))
        reveal = state.reveal
        turn = current_aim(reveal)
        assert reveal is not None and turn is not None
        require(seat == turn[0], N_("It is not your turn to aim."))
        target, card, outcome = None, None, "passed"
        if value is not None:
            target = value["seat"], value["slot"]
            require(target in targets(reveal), N_("That is not a Tyranny or Charge on the field."))
            card = reveal.sets[target[0]][target[1]]
            # The owner is asked only when a Patriotism lies in their VP pile to spend.
            outcome = "asked" if "patriotism" in state.vp[target[0]] else "zeroed"
        aimed = self.event(
            "BenevolenceAimed",
            war=state.war,
            seat=seat,
            slot=turn[1],
            target=slot_json(target) if target else None,
            card=card,
            outcome=outcome,
        )
        return [aimed]

    def _act_cancel(self, state: State, seat: int, value: bool) -> list[Event]:
        """The targeted card's owner spending a Patriotism (True) or letting the card be zeroed."""
        require(state.phase == "react", N_("No Patriotism answer is awaited."))
        aim = self._pending(state)
        assert aim.target is not None and state.reveal is not None
        require(seat == aim.target[0], N_("Only the owner of the targeted card answers."))
        return [
            self.event(
                "PatriotismAnswered",
                war=state.war,
                seat=seat,
                cancel=value,
                aimer=slot_json((aim.seat, aim.slot)),
                target=slot_json(aim.target),
                card=state.reveal.sets[seat][aim.target[1]],
            )
        ]

    # --- plays chosen ahead ---------------------------------------------------------------------

    def _ahead(self, state: State, seat: int) -> tuple[str, ...]:
        """Keeping the set cards if a Charge comes (once set), and the Patriotism answer while the
        seat holds a Patriotism anywhere."""
        if state.phase in ("deal", "end", "over"):
            return ()
        keep = (CHARGE_ANSWER,) if state.phase == "set" and state.sets[seat] is not None else ()
        held = state.hands[seat] + tuple(state.sets[seat] or ()) + state.vp[seat]
        return keep + ((PATRIOTISM_ANSWER,) if "patriotism" in held else ())

    def _situation(self, state: State, seat: int) -> str | None:
        return {"charge": CHARGE_ANSWER, "react": PATRIOTISM_ANSWER}.get(state.phase)

    def situation_name(self, situation: str) -> Message:
        return word(SITUATION_NAMES[situation])

    def answered_together(self, owed: str, chosen: str) -> bool:
        """The two answers are separate plays."""
        return owed == chosen

    def _ahead_candidates(self, state: State, seat: int, situation: str) -> list[tuple[Action, Message]]:
        if situation == CHARGE_ANSWER:
            pair = list(state.sets[seat] or ())
            return [({"set": pair}, (N_("keep %(cards)s"), {"cards": pair_name(pair)}))]
        return [
            ({"cancel": True}, word(N_("spend a Patriotism"))),
            ({"cancel": False}, word(N_("keep my Patriotism"))),
        ]

    def _check_ahead(self, state: State, seat: int, situation: str, action: Action) -> None:
        if situation == CHARGE_ANSWER:
            pair = sorted(action.get("set") or ())
            require(pair == list(state.sets[seat] or ()), N_("Only keeping your set cards is chosen ahead."))
        else:
            require("cancel" in action, N_("Choose whether to spend a Patriotism."))

    def _ready(self, state: State, seat: int, action: Action) -> Action | Message:
        """Keeping applies only to the cards set when it was chosen."""
        if "set" in action and sorted(action["set"]) != list(state.sets[seat] or ()):
            return N_("your set cards are not the ones you chose to keep"), {}
        return action

    def _apply_all(self, state: State, events: Iterable[Event]) -> State:
        """The state after these events."""
        for event in events:
            state = self.apply(state, event)
        return state

    def _follow(self, state: State) -> list[Event]:
        """The automatic steps after a move, until some seat must act or the game has ended."""
        out: list[Event] = []
        while (event := self._auto(state)) is not None:
            out.append(event)
            state = self.apply(state, event)
        return out

    def _auto(self, state: State) -> Event | None:
        """The next automatic event, if the game is not waiting on a seat."""
        if self.to_act(state):
            return None
        if state.phase == "set":
            charges = [
                (s, i) for s, pair in enumerate(state.sets) for i, c in enumerate(pair or ()) if c == "charge"
            ]
            if charges:
                return self.event(
                    "ChargeRevealed",
                    war=state.war,
                    charges=[slot_json(c) for c in charges],
                    answering=[s for s in range(state.seats) if s not in {c[0] for c in charges}],
                )
            return self._reveal_event(state)
        if state.phase == "charge":
            return self._reveal_event(state)
        if state.phase == "aim":
            return self._result_event(state)
        if state.phase == "end":
            vp = [len(pile) for pile in state.vp]
            return self.event("GameEnded", vp=vp, winners=[s for s, v in enumerate(vp) if v == max(vp)])
        return None

    def _reveal_event(self, state: State) -> Event:
        """CardsRevealed: the final sets, banked Patriotisms, Subversion's eliminations, Benevolence's
        worth and the aiming order (VP after banking, most first; ties drawn from the seed)."""
        sets = [pair for pair in state.sets if pair is not None]
        n = state.seats
        banked = [pair.count("patriotism") for pair in sets]
        vp = [len(state.vp[s]) + banked[s] for s in range(n)]
        subversion = any("subversion" in pair for pair in sets)
        eliminated = [s for s in range(n) if subversion and AGGRESSIVE & set(sets[s])]
        others_aggressive = [any(AGGRESSIVE & set(sets[o]) for o in range(n) if o != s) for s in range(n)]
        live = [not subversion and "benevolence" in sets[s] and others_aggressive[s] for s in range(n)]
        aiming = [s for s in range(n) if live[s]]
        drawn = SeededRandom(state.seed, "aim-order", state.war).shuffled(aiming)
        by_vp = sorted(drawn, key=lambda s: -vp[s])  # stable: equal VP keep the drawn order
        order = [{"seat": s, "slot": i} for s in by_vp for i, c in enumerate(sets[s]) if c == "benevolence"]
        return self.event(
            "CardsRevealed",
            war=state.war,
            sets=[list(p) for p in sets],
            banked=banked,
            vp=vp,
            subversion=subversion,
            eliminated=eliminated,
            benevolence_counts=live,
            order=order,
            tie_drawn=len({vp[s] for s in aiming}) < len(aiming),
        )

    def _result_event(self, state: State) -> Event:
        """WarResolved: strengths, winners and the split of the field (and in the last war the centre)."""
        reveal = state.reveal
        assert reveal is not None
        n = state.seats
        strengths = [seat_strength(reveal, s) for s in range(n)]
        alive = [s for s in range(n) if s not in reveal.eliminated]
        best = max((strengths[s] for s in alive), default=None)
        winners = [s for s in alive if strengths[s] == best]
        field = [c for pair in reveal.sets for c in pair if c != "patriotism"]
        last = state.war == WARS
        pool = (list(state.centre) if last else []) + field
        share = len(pool) // len(winners) if winners else 0
        # Which cards a winner takes never matters (only Patriotism acts from a VP pile, and it never
        # stays on the field): the pool is handed out in order, centre cards first, winners in seat order.
        taken: list[list[str]] = [[] for _ in range(n)]
        for i, w in enumerate(winners):
            taken[w] = pool[i * share : (i + 1) * share]
        rest = pool[len(winners) * share :]
        centre = rest if last else list(state.centre) + rest
        return self.event(
            "WarResolved",
            war=state.war,
            strengths=strengths,
            eliminated=list(reveal.eliminated),
            best=best,
            winners=winners,
            field=field,
            pool=len(pool),
            share=share,
            taken=taken,
            to_centre=rest,
            centre=centre,
            last=last,
        )

    # --- views ------------------------------------------------------------------------------

    def _view(self, state: State | None, seat: int | None) -> dict[str, Any]:
        """What that seat may see, as plain JSON. Keys:

        seat, seats, to_act, phase (set/charge/aim/react/over), round = war (1-4), wars (4), wars_played;
        scores = vp (VP per seat), patriotism (usable Patriotisms in each VP pile), centre (face-down
        cards waiting there), removed (Patriotisms spent), hand_counts; hand (the seat's cards, each
        {card, strength, effect}; None for a spectator), my_set (its two set cards this war);
        set_done (per seat: has set this war); charge (the Charge window, else None); targeting (while
        Benevolences aim); pending (a Benevolence awaiting its target's Patriotism answer);
        current_war (this war once revealed) and last_war (the war before, resolved), each with every
        player's cards, marks, strength and takings plus a step-by-step log; result. Once the game is
        over also hands, set_aside and centre_cards.
        """
        if state is None:
            return {"seat": seat, "to_act": [], "phase": "none", "round": 0}
        me = seat if seat is not None and 0 <= seat < state.seats else None
        over = state.phase in ("end", "over")
        vp = [len(pile) for pile in state.vp]
        out: dict[str, Any] = {
            "game": self.name,
            "seat": me,
            "seats": state.seats,
            "to_act": sorted(self.to_act(state)),
            "phase": state.phase,
            "round": state.war,
            "war": state.war,
            "wars": WARS,
            "goal": {"wars": WARS, "set_per_war": SET_SIZE},
            "wars_played": state.war if over else state.war - 1,
            "scores": vp,
            "vp": vp,
            "patriotism": [pile.count("patriotism") for pile in state.vp],
            "centre": len(state.centre),
            "removed": len(state.removed),
            "hand_counts": [len(h) for h in state.hands],
            "hand": None if me is None else self._hand_json(state.hands[me]),
            "my_set": self._my_set(state, me),
            "set_done": [pair is not None for pair in state.sets],
            "charge": self._charge_json(state, me),
            "targeting": self._targeting_json(state),
            "pending": self._pending_json(state, seat),
            "current_war": self._war_json(state.reveal, state) if state.reveal else None,
            "last_war": self._war_json(state.last, state) if state.last else None,
            "result": self.result(state),
        }
        if over:
            out["hands"] = [list(h) for h in state.hands]
            out["set_aside"] = list(state.set_aside)
            out["centre_cards"] = list(state.centre)
        return out

    # --- the seat's view dealt again (search bots) -----------------------------------------

    def _determinize(self, view: Mapping[str, Any], rng: SeededRandom) -> State:
        """The view's war with the unseen cards dealt again over the other hands and face-down sets
        (a face-up Charge where the window shows one, no Charge in the set of a seat still to answer
        it, no forbidden pair), the cards set aside, the victory-point piles (their Patriotisms as
        counted) and the centre; the cards of the war before lie in the piles or the centre."""
        me, seats = view["seat"], view["seats"]
        hidden = _DupliHidden.of(view)
        dealt = deal_hidden(hidden.cards, hidden.places, _kind, rng, accept=hidden.legal_sets)
        cards = {name: [_card(c) for c in dealt_cards] for name, dealt_cards in dealt.items()}
        hands = tuple(
            sort_hand(c["card"] for c in view["hand"]) if s == me else sort_hand(cards[("hand", s)])
            for s in range(seats)
        )
        current = _reveal_from_json(view["current_war"]) if view["current_war"] else None
        last = _reveal_from_json(view["last_war"]) if view["last_war"] else None
        charge = view["charge"]
        return State(
            seed=new_seed(rng),
            seats=seats,
            phase=view["phase"],
            war=view["war"],
            hands=hands,
            set_aside=tuple(cards["set_aside"]),
            sets=tuple(hidden.pair(s, cards, view, current) for s in range(seats)),
            charges_up=hidden.charges_up,
            answered=tuple(charge["answered"]) if charge else (False,) * seats,
            vp=tuple(("patriotism",) * view["patriotism"][s] + tuple(cards[("vp", s)]) for s in range(seats)),
            centre=tuple(cards["centre"]),
            removed=("patriotism",) * view["removed"],
            reveal=current,
            last=last,
            wars=(last,) if last else (),
        )

    def _hand_json(self, hand: Sequence[str]) -> list[dict[str, Any]]:
        """A hand card by card with its base strength and effect."""
        return [{"card": c, "strength": BASE_STRENGTH[c], "effect": EFFECTS[c]} for c in hand]

    def _my_set(self, state: State, seat: int | None) -> list[str] | None:
        """The seat's own two set cards this war (until the war is resolved)."""
        pair = state.sets[seat] if seat is not None and state.sets else None
        return list(pair) if pair else None

    def _charge_json(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """The Charge window: face-up Charges, who answers, who has answered (not what)."""
        if state.phase != "charge":
            return None
        answering = self._answerers(state)
        return {
            "face_up": [{**slot_json(c), "card": "charge"} for c in state.charges_up],
            "answering": answering,
            "answered": [state.answered[s] for s in range(state.seats)],
            "must_answer": seat is not None and seat in answering and not state.answered[seat],
        }

    def _targeting_json(self, state: State) -> dict[str, Any] | None:
        """While Benevolences aim: the order, whose turn it is and the possible targets."""
        reveal = state.reveal
        if state.phase not in ("aim", "react") or reveal is None:
            return None
        turn = current_aim(reveal)
        return {
            "order": [slot_json(o) for o in reveal.order],
            "done": len(reveal.aims) - (state.phase == "react"),
            "turn": slot_json(turn) if turn and state.phase == "aim" else None,
            "targets": [
                {**slot_json(t), "card": reveal.sets[t[0]][t[1]], "zeroed": t in reveal.zeroed}
                for t in targets(reveal)
            ],
            "tie_drawn": reveal.tie_drawn,
        }

    def _pending_json(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """A Benevolence awaiting its target owner's Patriotism answer, and what each answer does."""
        if state.phase != "react":
            return None
        aim = self._pending(state)
        assert aim.target is not None and state.reveal is not None
        owner = aim.target[0]
        return {
            "aimer": slot_json((aim.seat, aim.slot)),
            "target": {**slot_json(aim.target), "card": state.reveal.sets[owner][aim.target[1]]},
            "owner": owner,
            "patriotism": state.vp[owner].count("patriotism"),
            "mine": seat == owner,
            "answers": [{"cancel": c, "effect": ANSWER_EFFECTS[c]} for c in (True, False)],
        }

    def _war_json(self, reveal: Reveal, state: State) -> dict[str, Any]:
        """A revealed war: every player's cards, marks, strength and takings, and the resolution log."""
        res = reveal.result
        players = []
        for s, pair in enumerate(reveal.sets):
            cards = [
                {
                    "slot": i,
                    "card": c,
                    "strength": card_strength(reveal, s, i),
                    "zeroed": (s, i) in reveal.zeroed,
                    "cancelled": (s, i) in reveal.cancelled,
                    "banked": c == "patriotism",
                    "face_up_early": (s, i) in reveal.charges_up,
                }
                for i, c in enumerate(pair)
            ]
            players.append(
                {
                    "seat": s,
                    "cards": cards,
                    "strength": res.strengths[s] if res else seat_strength(reveal, s),
                    "eliminated": s in reveal.eliminated,
                    "banked": reveal.banked[s],
                    "won": s in res.winners if res else None,
                    "taken": (res.share if s in res.winners else 0) if res else None,
                }
            )
        return {
            "war": reveal.war,
            "players": players,
            "subversion": reveal.subversion,
            "benevolence_counts": list(reveal.live),
            "order": [slot_json(o) for o in reveal.order],
            "tie_drawn": reveal.tie_drawn,
            "aims": [self._aim_json(a, reveal) for a in reveal.aims],
            "result": self._result_json(res),
            "log": self._log(reveal),
        }

    def _aim_json(self, aim: Aim, reveal: Reveal) -> dict[str, Any]:
        """One aim as JSON: who aimed with which slot, at what, and the outcome."""
        card = reveal.sets[aim.target[0]][aim.target[1]] if aim.target else None
        target = {**slot_json(aim.target), "card": card} if aim.target else None
        return {"seat": aim.seat, "slot": aim.slot, "target": target, "outcome": aim.outcome}

    def _result_json(self, res: WarResult | None) -> dict[str, Any] | None:
        """A war's result as JSON."""
        if res is None:
            return None
        return {
            "strengths": list(res.strengths),
            "best": res.best,
            "winners": list(res.winners),
            "field": res.field,
            "pool": res.pool,
            "share": res.share,
            "to_centre": res.to_centre,
            "centre": res.centre,
            "last": res.last,
        }

    def _log(self, reveal: Reveal) -> list[dict[str, Any]]:
        """The war's resolution step by step, as structured entries ("step" names the kind)."""
        log: list[dict[str, Any]] = [
            {
                "step": "reveal",
                "sets": [list(p) for p in reveal.sets],
                "charges_up": [slot_json(c) for c in reveal.charges_up],
            }
        ]
        log += [{"step": "patriotism", "seat": s, "count": k} for s, k in enumerate(reveal.banked) if k]
        if reveal.subversion:
            by = [s for s, pair in enumerate(reveal.sets) if "subversion" in pair]
            log.append({"step": "subversion", "by": by, "eliminated": list(reveal.eliminated)})
        elif any("benevolence" in p for p in reveal.sets) and not reveal.order:
            log.append({"step": "no_target"})
        if reveal.order:
            log.append(
                {
                    "step": "order",
                    "order": [slot_json(o) for o in reveal.order],
                    "tie_drawn": reveal.tie_drawn,
                }
            )
        log += [{"step": "aim", **self._aim_json(a, reveal)} for a in reveal.aims]
        if reveal.result:
            log.append(
                {
                    "step": "result",
                    **(self._result_json(reveal.result) or {}),
                    "eliminated": list(reveal.eliminated),
                }
            )
        return log

    def _result(self, state: State | None) -> dict[str, Any] | None:
        """None while the game runs; then the winners (most VP, ties share) and every seat's VP."""
        if state is None or state.phase not in ("end", "over"):
            return None
        vp = [len(pile) for pile in state.vp]
        return {"winners": [s for s, v in enumerate(vp) if v == max(vp)], "vp": vp}

    # --- replay -----------------------------------------------------------------------------

    def _open_view(self, state: State) -> dict[str, Any]:
        """The public view with every hand, this war's set cards before the reveal, the set-aside
        cards and the cards in the centre."""
        view = self.view(state, None)
        view["hands"] = [list(h) for h in state.hands]
        view["sets"] = [list(pair) if pair else None for pair in state.sets]
        view["set_aside"] = list(state.set_aside)
        view["centre_cards"] = list(state.centre)
        return view

    def heading(self, state: State, event: Event) -> Heading:
        """Start (with the deal), then each war."""
        if event["type"] in ("GameStarted", "HandsDealt"):
            return START
        war = event.get("war", state.war)
        return Heading(war, (N_("War %(war)s"), {"war": war}))

    def score_sheet(self, state: State) -> ScoreSheet:
        """Per player and war: strength, eliminated or the cards taken; the VP so far."""
        rows = []
        for reveal in state.wars:
            result = reveal.result
            assert result is not None
            cells: list[Message] = []
            for seat, strength in enumerate(result.strengths):
                if seat in reveal.eliminated:
                    cells.append((N_("eliminated (strength %(strength)s)"), {"strength": strength}))
                elif seat in result.winners:
                    cells.append(
                        (
                            N_("strength %(strength)s: +%(cards)s VP"),
                            {"strength": strength, "cards": result.share},
                        )
                    )
                else:
                    cells.append((N_("strength %(strength)s"), {"strength": strength}))
            rows.append(ScoreRow(reveal.war, tuple(cells), result.winners))
        standing = tuple((N_("%(vp)s VP"), {"vp": len(pile)}) for pile in state.vp)
        return ScoreSheet(tuple((s,) for s in range(state.seats)), tuple(rows), standing)

    # --- describe ---------------------------------------------------------------------------

    @property
    def tellers(self) -> Mapping[str, Teller]:
        """Each event in words; hidden choices only as "set"/"answered"."""
        return _TELLERS


# ------------------------------------------------------------------------ dealing a view again

FIELD = "@field"  # marks a card seen on the field of the war before: it lies in a VP pile or the centre


def _kind(token: str) -> str:
    """A dealt card's kind for the places' constraints (a card of the war before keeps its mark)."""
    return token


def _card(token: str) -> str:
    """The card a dealt token stands for."""
    return token.removesuffix(FIELD)


@dataclass(frozen=True)
class _DupliHidden:
    """What a Dupli view hides, as cards to deal and places to deal them to."""

    cards: tuple[str, ...]
    places: tuple[Place, ...]
    charges_up: tuple[Slot, ...]

    @staticmethod
    def of(view: Mapping[str, Any]) -> _DupliHidden:
        """The hidden cards and places of a seat's view of a running war."""
        me, seats = view["seat"], view["seats"]
        charge = view["charge"]
        up = tuple((c["seat"], c["slot"]) for c in charge["face_up"]) if charge else ()
        revealed = view["current_war"] is not None
        field_cards = _field_cards(view["last_war"])
        seen = [c["card"] for c in view["hand"]]
        if revealed:  # every set is face up (the seat's own too); banked Patriotisms count with the piles
            seen += [c["card"] for p in view["current_war"]["players"] for c in p["cards"] if not c["banked"]]
        else:
            seen += list(view["my_set"] or ())
        seen += ["patriotism"] * (sum(view["patriotism"]) + view["removed"])
        seen += ["charge" for s, _ in up if s != me]
        pool = unseen(FULL_DECK, seen, field_cards)
        marked = [card + FIELD for card in field_cards]
        places = [Place(("hand", s), view["hand_counts"][s], _MARKED) for s in range(seats) if s != me]
        if not revealed:
            places += [_set_place(s, up, charge) for s in range(seats) if s != me and view["set_done"][s]]
        places.append(Place("set_aside", len(FULL_DECK) - HAND_SIZE * seats, _MARKED))
        places += [
            Place(("vp", s), view["vp"][s] - view["patriotism"][s], frozenset({"patriotism"}))
            for s in range(seats)
        ]
        places.append(Place("centre", view["centre"], frozenset({"patriotism"})))
        return _DupliHidden(tuple(pool + marked), tuple(places), up)

    def legal_sets(self, dealt: Mapping[Any, list[str]]) -> bool:
        """Whether every face-down set dealt is a pair the rules allow (with its face-up Charges)."""
        for name, cards in dealt.items():
            if isinstance(name, tuple) and name[0] == "set":
                pair = [*cards, *("charge" for s, _ in self.charges_up if s == name[1])]
                if len(pair) == SET_SIZE and forbidden(pair[0], pair[1]):
                    return False
        return True

    def pair(
        self, seat: int, cards: Mapping[Any, list[str]], view: Mapping[str, Any], current: Reveal | None
    ) -> tuple[str, str] | None:
        """A seat's set this war: revealed, its own, dealt again, or None before it set."""
        if current is not None:
            return current.sets[seat]
        if seat == view["seat"]:
            mine = view["my_set"]
            return (mine[0], mine[1]) if mine else None
        if not view["set_done"][seat]:
            return None
        first, second = sorted([*cards[("set", seat)], *("charge" for s, _ in self.charges_up if s == seat)])
        return first, second


_MARKED = frozenset(card + FIELD for card in CARD_ORDER)


def _field_cards(war: Mapping[str, Any] | None) -> list[str]:
    """The cards of a resolved war's field (every set card but the banked Patriotisms)."""
    if war is None:
        return []
    return [c["card"] for p in war["players"] for c in p["cards"] if not c["banked"]]


def _set_place(seat: int, up: Sequence[Slot], charge: Mapping[str, Any] | None) -> Place:
    """A seat's face-down set less its face-up Charges: a card beside a face-up Charge sorts (by
    name, as pairs are) on its side of it; a seat still to answer the Charge window set no Charge at all."""
    slots = [slot for s, slot in up if s == seat]
    refuses = set(_MARKED)
    if len(slots) == 1:  # pairs are sorted by name: the other card sorts on the far side of "charge"
        refuses |= {c for c in CARD_ORDER if (c >= "charge" if slots[0] == 1 else c <= "charge")}
    if charge and seat in charge["answering"] and not charge["answered"][seat]:
        refuses.add("charge")
    return Place(("set", seat), SET_SIZE - len(slots), frozenset(refuses))


def _reveal_from_json(war: Mapping[str, Any]) -> Reveal:
    """A revealed war from its JSON (`_war_json`)."""
    players = war["players"]
    slots = [(p["seat"], c) for p in players for c in p["cards"]]
    return Reveal(
        war=war["war"],
        sets=tuple((p["cards"][0]["card"], p["cards"][1]["card"]) for p in players),
        charges_up=tuple((s, c["slot"]) for s, c in slots if c["face_up_early"]),
        banked=tuple(p["banked"] for p in players),
        subversion=war["subversion"],
        eliminated=tuple(p["seat"] for p in players if p["eliminated"]),
        live=tuple(war["benevolence_counts"]),
        order=tuple((o["seat"], o["slot"]) for o in war["order"]),
        tie_drawn=war["tie_drawn"],
        aims=tuple(_aim_from_json(a) for a in war["aims"]),
        zeroed=frozenset((s, c["slot"]) for s, c in slots if c["zeroed"]),
        cancelled=frozenset((s, c["slot"]) for s, c in slots if c["cancelled"]),
        result=_war_result_from_json(war["result"]) if war["result"] else None,
    )


def _war_result_from_json(result: Mapping[str, Any]) -> WarResult:
    """A war's result from its JSON (`_result_json`)."""
    return WarResult(
        strengths=tuple(result["strengths"]),
        best=result["best"],
        winners=tuple(result["winners"]),
        field=result["field"],
        pool=result["pool"],
        share=result["share"],
        to_centre=result["to_centre"],
        centre=result["centre"],
        last=result["last"],
    )


def _aim_from_json(aim: Mapping[str, Any]) -> Aim:
    """One aim from its JSON (`_aim_json`)."""
    target = aim["target"]
    return Aim(aim["seat"], aim["slot"], (target["seat"], target["slot"]) if target else None, aim["outcome"])


# --------------------------------------------------------------------------------- apply handlers


def _started(state: State | None, e: Event) -> State:
    """A new game: seats and seed recorded, nothing dealt yet (empty hands and piles, so that the
    table before the deal can be viewed)."""
    n = e["seats"]
    return State(
        seed=e["seed"],
        seats=n,
        phase="deal",
        war=1,
        hands=((),) * n,
        sets=(None,) * n,
        answered=(False,) * n,
        vp=((),) * n,
    )


def _dealt(state: State, e: Event) -> State:
    """Hands dealt; the first war's set phase begins."""
    n = state.seats
    return replace(
        state,
        phase="set",
        hands=tuple(sort_hand(h) for h in e["hands"]),
        set_aside=tuple(e["set_aside"]),
        sets=(None,) * n,
        answered=(False,) * n,
        vp=((),) * n,
    )


def _set(state: State, e: Event) -> State:
    """A seat's two cards leave its hand face down."""
    seat, pair = e["seat"], tuple(e["cards"])
    hands = _put(state.hands, seat, without(state.hands[seat], pair))
    return replace(state, hands=hands, sets=_put(state.sets, seat, pair))


def _charge(state: State, e: Event) -> State:
    """Set Charges turned face up; the Charge window opens."""
    return replace(state, phase="charge", charges_up=tuple((c["seat"], c["slot"]) for c in e["charges"]))


def _swap(state: State, e: Event) -> State:
    """A seat's answer to the Charge: its new pair (maybe the same) from set + hand."""
    seat, pair = e["seat"], tuple(e["cards"])
    pool = state.hands[seat] + tuple(state.sets[seat] or ())
    hands = _put(state.hands, seat, sort_hand(without(pool, pair)))
    return replace(
        state, hands=hands, sets=_put(state.sets, seat, pair), answered=_put(state.answered, seat, True)
    )


def _revealed(state: State, e: Event) -> State:
    """Every set shown; Patriotisms banked; the resolution begins (the aiming, if any)."""
    sets = tuple((p[0], p[1]) for p in e["sets"])
    vp = tuple(pile + ("patriotism",) * k for pile, k in zip(state.vp, e["banked"], strict=True))
    reveal = Reveal(
        war=e["war"],
        sets=sets,
        charges_up=state.charges_up,
        banked=tuple(e["banked"]),
        subversion=e["subversion"],
        eliminated=tuple(e["eliminated"]),
        live=tuple(e["benevolence_counts"]),
        order=tuple((o["seat"], o["slot"]) for o in e["order"]),
        tie_drawn=e["tie_drawn"],
    )
    return replace(state, phase="aim", vp=vp, reveal=reveal)


def _aimed(state: State, e: Event) -> State:
    """A Benevolence's aim: passed, zeroed at once, or asked of the owner (react phase)."""
    reveal = state.reveal
    assert reveal is not None
    target = (e["target"]["seat"], e["target"]["slot"]) if e["target"] else None
    aims = (*reveal.aims, Aim(e["seat"], e["slot"], target, e["outcome"]))
    zeroed = reveal.zeroed | {target} if e["outcome"] == "zeroed" and target else reveal.zeroed
    phase = "react" if e["outcome"] == "asked" else "aim"
    return replace(state, phase=phase, reveal=replace(reveal, aims=aims, zeroed=zeroed))


def _answered(state: State, e: Event) -> State:
    """The owner's answer: a Patriotism leaves the game and cancels the Benevolence, or the card is zeroed."""
    reveal = state.reveal
    assert reveal is not None
    aim = reveal.aims[-1]
    seat = e["seat"]
    if e["cancel"]:
        done = replace(aim, outcome="cancelled")
        reveal = replace(
            reveal, aims=(*reveal.aims[:-1], done), cancelled=reveal.cancelled | {(aim.seat, aim.slot)}
        )
        vp = _put(state.vp, seat, without(state.vp[seat], ["patriotism"]))
        return replace(state, phase="aim", reveal=reveal, vp=vp, removed=(*state.removed, "patriotism"))
    done = replace(aim, outcome="zeroed")
    target = (e["target"]["seat"], e["target"]["slot"])
    reveal = replace(reveal, aims=(*reveal.aims[:-1], done), zeroed=reveal.zeroed | {target})
    return replace(state, phase="aim", reveal=reveal)


def _resolved(state: State, e: Event) -> State:
    """The war's winners take their shares as VP, the rest waits in the centre; the next war begins."""
    reveal = state.reveal
    assert reveal is not None
    n = state.seats
    result = WarResult(
        strengths=tuple(e["strengths"]),
        best=e["best"],
        winners=tuple(e["winners"]),
        field=len(e["field"]),
        pool=e["pool"],
        share=e["share"],
        to_centre=len(e["to_centre"]),
        centre=len(e["centre"]),
        last=e["last"],
    )
    vp = tuple(pile + tuple(taken) for pile, taken in zip(state.vp, e["taken"], strict=True))
    last = e["last"]
    return replace(
        state,
        phase="end" if last else "set",
        war=state.war if last else state.war + 1,
        sets=(None,) * n,
        charges_up=(),
        answered=(False,) * n,
        vp=vp,
        centre=tuple(e["centre"]),
        reveal=None,
        last=replace(reveal, result=result),
        wars=(*state.wars, replace(reveal, result=result)),
    )


def _ended(state: State, e: Event) -> State:
    """The game is over."""
    return replace(state, phase="over")


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])


_FOLDS: dict[str, Callable[[State, Event], State]] = {
    "HandsDealt": _dealt,
    "CardsSet": _set,
    "ChargeRevealed": _charge,
    "SwapAnswered": _swap,
    "CardsRevealed": _revealed,
    "BenevolenceAimed": _aimed,
    "PatriotismAnswered": _answered,
    "WarResolved": _resolved,
    "GameEnded": _ended,
}


# --------------------------------------------------------------------------------- describe handlers


def _d_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The game begins."""
    return N_("Dupli begins: %(count)s players, 4 wars."), {"count": e["seats"]}


def _d_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal: the seat's own hand, or just that hands were dealt."""
    if seat is not None and 0 <= seat < len(e["hands"]):
        hand = listing([card_name(card) for card in e["hands"][seat]])
        return N_("9 cards dealt to each player. Your hand: %(hand)s."), {"hand": hand}
    return N_("9 cards dealt to each player."), {}


def _d_set(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A seat set its cards: what, only to itself."""
    if seat == e["seat"]:
        return N_("%(name)s set %(cards)s."), {"name": names[e["seat"]], "cards": pair_name(e["cards"])}
    return N_("%(name)s set two cards."), {"name": names[e["seat"]]}


def _d_charge(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Charges turned face up; the others may swap."""
    owners = sorted({c["seat"] for c in e["charges"]})
    return N_("Charge revealed: %(names)s. The others may swap their set cards."), {
        "names": _names(owners, names)
    }


def _d_swap(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A Charge answer: what, only to the answering seat."""
    name = names[e["seat"]]
    if seat != e["seat"]:
        return N_("%(name)s answered the Charge."), {"name": name}
    if e["kept"]:
        return N_("%(name)s kept %(cards)s."), {"name": name, "cards": pair_name(e["cards"])}
    return N_("%(name)s swapped to %(cards)s."), {"name": name, "cards": pair_name(e["cards"])}


def _d_revealed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The reveal: every set, the Patriotisms banked and Subversion's eliminations."""
    params = {
        "sets": listing(
            [
                (N_("%(name)s %(cards)s"), {"name": names[s], "cards": pair_name(p)})
                for s, p in enumerate(e["sets"])
            ]
        ),
        "banked": _names((s for s, k in enumerate(e["banked"]) if k), names),
        "eliminated": _names(e["eliminated"], names),
    }
    banked, sub, out = any(e["banked"]), e["subversion"], bool(e["eliminated"])
    msgid = {
        (False, False, False): N_("Reveal: %(sets)s."),
        (True, False, False): N_("Reveal: %(sets)s. Patriotism to VP: %(banked)s."),
        (False, True, False): N_("Reveal: %(sets)s. Subversion voids every Benevolence."),
        (True, True, False): N_(
            "Reveal: %(sets)s. Patriotism to VP: %(banked)s. Subversion voids every Benevolence."
        ),
        (False, True, True): N_("Reveal: %(sets)s. Subversion eliminates %(eliminated)s."),
        (True, True, True): N_(
            "Reveal: %(sets)s. Patriotism to VP: %(banked)s. Subversion eliminates %(eliminated)s."
        ),
    }[(banked, sub, out)]
    return msgid, params


def _d_aimed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A Benevolence's aim and, when immediate, its effect."""
    name = names[e["seat"]]
    if e["target"] is None:
        return N_("%(name)s's Benevolence aims at nothing."), {"name": name}
    params = {"name": name, "owner": names[e["target"]["seat"]], "card": card_name(e["card"])}
    if e["outcome"] == "zeroed":
        return N_("%(name)s's Benevolence aims at %(owner)s's %(card)s: it is zeroed."), params
    return N_("%(name)s's Benevolence aims at %(owner)s's %(card)s."), params


def _d_answered(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The owner's Patriotism answer."""
    params = {"name": names[e["seat"]], "card": card_name(e["card"]), "aimer": names[e["aimer"]["seat"]]}
    if e["cancel"]:
        return N_("%(name)s spends a Patriotism to cancel %(aimer)s's Benevolence."), params
    return N_("%(name)s keeps the Patriotism: %(card)s is zeroed."), params


def _d_resolved(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The war's winners, their takings and what the centre keeps."""
    winners = e["winners"]
    params = {
        "war": e["war"],
        "name": _names(winners, names),
        "count": e["share"],
        "strength": e["best"],
        "centre": len(e["to_centre"]),
        "total": len(e["centre"]),
    }
    kind = "none" if not winners else "one" if len(winners) == 1 else "tie"
    rest = "lost" if e["last"] and e["to_centre"] else "centre" if e["to_centre"] else "all"
    msgid = {
        ("one", "all"): N_("War %(war)s: %(name)s wins %(count)s cards (strength %(strength)s)."),
        ("one", "centre"): N_(
            "War %(war)s: %(name)s wins %(count)s cards (strength %(strength)s). "
            "Centre keeps %(centre)s card(s)."
        ),
        ("one", "lost"): N_(
            "War %(war)s: %(name)s wins %(count)s cards (strength %(strength)s). "
            "%(centre)s card(s) score for no one."
        ),
        ("tie", "all"): N_(
            "War %(war)s: %(name)s tie at strength %(strength)s and take %(count)s cards each."
        ),
        ("tie", "centre"): N_(
            "War %(war)s: %(name)s tie at strength %(strength)s and take %(count)s cards each. "
            "Centre keeps %(centre)s card(s)."
        ),
        ("tie", "lost"): N_(
            "War %(war)s: %(name)s tie at strength %(strength)s and take %(count)s cards each. "
            "%(centre)s card(s) score for no one."
        ),
        ("none", "all"): N_("War %(war)s: everyone is eliminated."),
        ("none", "centre"): N_("War %(war)s: everyone is eliminated; %(centre)s card(s) go to the centre."),
        ("none", "lost"): N_("War %(war)s: everyone is eliminated; %(centre)s card(s) score for no one."),
    }[(kind, rest)]
    return msgid, params


def _d_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The final result."""
    winners = e["winners"]
    params = {"names": _names(winners, names), "vp": e["vp"][winners[0]]}
    if len(winners) == 1:
        return N_("Game over: %(names)s wins with %(vp)s VP."), params
    return N_("Game over: %(names)s share the win with %(vp)s VP."), params


_TELLERS: dict[str, Teller] = {
    "GameStarted": _d_started,
    "HandsDealt": _d_dealt,
    "CardsSet": _d_set,
    "ChargeRevealed": _d_charge,
    "SwapAnswered": _d_swap,
    "CardsRevealed": _d_revealed,
    "BenevolenceAimed": _d_aimed,
    "PatriotismAnswered": _d_answered,
    "WarResolved": _d_resolved,
    "GameEnded": _d_ended,
}

GAME = Dupli()
