"""Dupli in words: each event told to the players (a hidden choice only as "set" or "answered"),
the replay's headings and the score sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.dupli.cards import card_name, joined_names, pair_name
from rules.dupli.state import State
from rules.game import START, Event, Heading, ScoreRow, ScoreSheet, Teller
from rules.messages import N_, Message, listing


def tell_game_started(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The game begins."""
    return N_("Dupli begins: %(count)s players, 4 wars."), {"count": e["seats"]}


def tell_hands_dealt(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The deal: the seat's own hand, or just that hands were dealt."""
    if seat is not None and 0 <= seat < len(e["hands"]):
        hand = listing([card_name(card) for card in e["hands"][seat]])
        return N_("9 cards dealt to each player. Your hand: %(hand)s."), {"hand": hand}
    return N_("9 cards dealt to each player."), {}


def tell_cards_set(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A seat set its cards: what, only to itself."""
    if seat == e["seat"]:
        return N_("%(name)s set %(cards)s."), {"name": names[e["seat"]], "cards": pair_name(e["cards"])}
    return N_("%(name)s set two cards."), {"name": names[e["seat"]]}


def tell_charge_revealed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """Charges turned face up; the others may swap."""
    owners = sorted({c["seat"] for c in e["charges"]})
    return N_("Charge revealed: %(names)s. The others may swap their set cards."), {
        "names": joined_names(owners, names)
    }


def tell_swap_answered(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A Charge answer: what, only to the answering seat."""
    name = names[e["seat"]]
    if seat != e["seat"]:
        return N_("%(name)s answered the Charge."), {"name": name}
    if e["kept"]:
        return N_("%(name)s kept %(cards)s."), {"name": name, "cards": pair_name(e["cards"])}
    return N_("%(name)s swapped to %(cards)s."), {"name": name, "cards": pair_name(e["cards"])}


def tell_cards_revealed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The reveal: every set, the Patriotisms banked and Subversion's eliminations."""
    params = {
        "sets": listing(
            [
                (N_("%(name)s %(cards)s"), {"name": names[s], "cards": pair_name(p)})
                for s, p in enumerate(e["sets"])
            ]
        ),
        "banked": joined_names((s for s, k in enumerate(e["banked"]) if k), names),
        "eliminated": joined_names(e["eliminated"], names),
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


def tell_benevolence_aimed(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """A Benevolence's aim and, when immediate, its effect."""
    name = names[e["seat"]]
    if e["target"] is None:
        return N_("%(name)s's Benevolence aims at nothing."), {"name": name}
    params = {"name": name, "owner": names[e["target"]["seat"]], "card": card_name(e["card"])}
    if e["outcome"] == "zeroed":
        return N_("%(name)s's Benevolence aims at %(owner)s's %(card)s: it is zeroed."), params
    return N_("%(name)s's Benevolence aims at %(owner)s's %(card)s."), params


def tell_patriotism_answered(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The owner's Patriotism answer."""
    params = {"name": names[e["seat"]], "card": card_name(e["card"]), "aimer": names[e["aimer"]["seat"]]}
    if e["cancel"]:
        return N_("%(name)s spends a Patriotism to cancel %(aimer)s's Benevolence."), params
    return N_("%(name)s keeps the Patriotism: %(card)s is zeroed."), params


def tell_war_resolved(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The war's winners, their takings and what the centre keeps."""
    winners = e["winners"]
    params = {
        "war": e["war"],
        "name": joined_names(winners, names),
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


def tell_game_ended(e: Event, seat: int | None, names: Sequence[str]) -> Message:
    """The final result."""
    winners = e["winners"]
    params = {"names": joined_names(winners, names), "vp": e["vp"][winners[0]]}
    if len(winners) == 1:
        return N_("Game over: %(names)s wins with %(vp)s VP."), params
    return N_("Game over: %(names)s share the win with %(vp)s VP."), params


TELLERS: Mapping[str, Teller] = {
    "GameStarted": tell_game_started,
    "HandsDealt": tell_hands_dealt,
    "CardsSet": tell_cards_set,
    "ChargeRevealed": tell_charge_revealed,
    "SwapAnswered": tell_swap_answered,
    "CardsRevealed": tell_cards_revealed,
    "BenevolenceAimed": tell_benevolence_aimed,
    "PatriotismAnswered": tell_patriotism_answered,
    "WarResolved": tell_war_resolved,
    "GameEnded": tell_game_ended,
}


def heading(state: State, event: Event) -> Heading:
    """Start (with the deal), then each war."""
    if event["type"] in ("GameStarted", "HandsDealt"):
        return START
    war = event.get("war", state.war)
    return Heading(war, (N_("War %(war)s"), {"war": war}))


def score_sheet(state: State) -> ScoreSheet:
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
