"""Dupli's play: the deal, each action's events and the automatic steps after it (the Charge,
the reveal, the war's result), and the result, behind the contract."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from rules.decks import fixed_decks
from rules.dupli.ahead import DupliAhead
from rules.dupli.cards import (
    ACTION_SHAPES,
    AGGRESSIVE,
    FULL_DECK,
    HAND_SIZE,
    MAX_SEATS,
    NAME,
    WARS,
    forbidden,
    legal_pairs,
    pair_name,
    sort_hand,
)
from rules.dupli.determinize import dealt_again
from rules.dupli.state import (
    FOLDS,
    State,
    answerers,
    current_aim,
    fold_game_started,
    pending,
    seat_strength,
    slot_json,
    targets,
)
from rules.dupli.view import DupliView, open_view, view
from rules.dupli.words import TELLERS, heading, score_sheet
from rules.game import Event, Game, Parts
from rules.messages import N_, require
from rules.rng import SeededRandom
from rules.shapes import Action


class Dupli(Game[State]):
    """Dupli's rules behind the rules contract."""

    view_shape = DupliView
    action_shapes = ACTION_SHAPES
    ahead_type = DupliAhead
    tellers = TELLERS
    parts = Parts(
        started=fold_game_started,
        folds=FOLDS,
        view=view,
        open_view=open_view,
        dealt_again=dealt_again,
        heading=heading,
        score_sheet=score_sheet,
    )

    name: ClassVar[str] = NAME
    seat_counts: ClassVar[tuple[int, ...]] = (3, MAX_SEATS)
    default_options: ClassVar[dict[str, Any]] = {"deck": None}

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
        decks = fixed_decks(given, FULL_DECK, NAME)
        return list(decks[0]) if decks else SeededRandom(seed, "deal").shuffled(FULL_DECK)

    def _to_act(self, state: State | None) -> frozenset[int]:
        """Seats yet to set or answer the Charge, the aiming seat, or the owner asked for a Patriotism."""
        if state is None:
            return frozenset()
        if state.phase == "set":
            return frozenset(s for s, pair in enumerate(state.sets) if pair is None)
        if state.phase == "charge":
            return frozenset(s for s in answerers(state) if not state.answered[s])
        if state.phase == "aim":
            turn = current_aim(state.reveal)
            return frozenset() if turn is None else frozenset({turn[0]})
        if state.phase == "react":
            target = pending(state).target
            return frozenset() if target is None else frozenset({target[0]})
        return frozenset()

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
        require(seat in answerers(state), N_("You set a Charge, so you do not swap."))
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
        aim = pending(state)
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

    def _result(self, state: State | None) -> dict[str, Any] | None:
        """None while the game runs; then the winners (most VP, ties share) and every seat's VP."""
        if state is None or state.phase not in ("end", "over"):
            return None
        vp = [len(pile) for pile in state.vp]
        return {"winners": [s for s, v in enumerate(vp) if v == max(vp)], "vp": vp}
