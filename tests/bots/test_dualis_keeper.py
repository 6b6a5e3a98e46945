"""The Duālis seat-keeper's judgement: positions fixed with options["deck"] and
options["first_leader"], and properties that must hold in every random position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dualis.cards import CARDS, PlayedCard, trick_outcome
from tests.bots.table import Config, Table, dualis_configs

# Seat 1 leads; seat 0 (the keeper in these positions) plays last, its partner is seat 2.
KEEPER = ["S2R", "S6B", "S9B", "S11R", "S13B", "M1R", "M2B", "M3R", "M4B", "M5R", "M6B", "M7R", "M8B"]
SEAT_1 = ["S1R", "S1B", "S2B", "S3B", "S5B", "M1B", "M2R", "M3B", "M4R", "M5B", "M6R", "M7B", "M8R"]
SEAT_2 = ["S3R", "S4R", "S4B", "S5R", "S6R", "M9R", "M9B", "M10R", "M10B", "M11R", "M11B", "M12R", "M12B"]


def first_trick(hands: tuple[list[str], list[str], list[str]], plays: list[tuple[int, str]]) -> Table:
    """Seats 0-2 get these hands and seat 3 the other 13 cards; seat 1 leads; the scripted plays
    of seats 1-3 are made, so seat 0 is to play last."""
    listed = [card for hand in hands for card in hand]
    assert len(set(listed)) == len(listed) == 39
    deck = listed + [card for card in CARDS if card not in listed]
    table = Table.start("dualis", 1, 4, {"deck": deck, "first_leader": 1})
    for seat, card in plays:
        table.do(seat, {"card": card})
    assert table.waiting == [0]
    return table


def trick_winner_after(table: Table, seat: int, action: dict) -> int:
    """Who takes the trick once the keeper's move is made (the rules settle it)."""
    events = table.do(seat, action)
    return next(e for e in events if e["type"] == "TrickWon")["winner"]


def test_dualis_wins_with_the_cheapest_card_that_wins() -> None:
    """S5B led, S3R and S8R follow: S9B, S11R and S13B would each win; the keeper spends S9B, and
    takes no coin (every coin here would turn the trump and hand the trick to the other side)."""
    table = first_trick((KEEPER, SEAT_1, SEAT_2), [(1, "S5B"), (2, "S3R"), (3, "S8R")])
    assert table.keeper(0) == {"card": "S9B"}


def test_dualis_follows_low_when_it_cannot_win() -> None:
    """S12R on the table beats every Star the keeper holds, with or without a coin: it follows with
    its lowest Star and keeps the high ones."""
    keeper = [c for c in KEEPER if c != "S13B"] + ["M13R"]
    table = first_trick((keeper, SEAT_1, SEAT_2), [(1, "S5B"), (2, "S3R"), (3, "S12R")])
    assert table.keeper(0)["card"] == "S2R"


def test_dualis_never_takes_a_coin_that_turns_the_trump_against_its_side() -> None:
    """The partner's S13B wins with no trump (7 and 7 coins). A Red card with a Blue coin would
    make Red trump, and the opponents' S8R would win; the keeper, with no Star to follow, must
    leave the trick with its partner."""
    moons = ["M1R", "M1B", "M2R", "M2B", "M3R", "M3B", "M4R", "M4B", "M5R", "M5B", "M6R", "M6B", "M7R"]
    stars = ["S1R", "S1B", "S2R", "S2B", "S3R", "S3B", "S4R", "S4B", "S5R", "S5B", "S6R", "S6B", "S7B"]
    partner = [
        "S9B",
        "S10B",
        "S11B",
        "S12B",
        "S13B",
        "M7B",
        "M8R",
        "M8B",
        "M9R",
        "M9B",
        "M10R",
        "M10B",
        "M11R",
    ]
    table = first_trick((moons, stars, partner), [(1, "S5B"), (2, "S13B"), (3, "S8R")])
    assert table.view(0)["trick"]["winning_now"]["seat"] == 2
    action = table.keeper(0)
    assert trick_winner_after(table, 0, action) in (0, 2)


def test_dualis_with_a_harmful_coin_on_every_card_plays_without_one() -> None:
    """In the cheapest-win position every coin loses the trick: the keeper plays no coin at all."""
    table = first_trick((KEEPER, SEAT_1, SEAT_2), [(1, "S5B"), (2, "S3R"), (3, "S8R")])
    action = table.keeper(0)
    assert not action.get("coin")
    assert trick_winner_after(table, 0, action) == 0


# --------------------------------------------------------------------------------- properties


def side_wins(view: dict, seat: int, action: dict) -> bool:
    """Whether the seat's side takes the trick as things stand after this move (rules' own trick
    outcome on the trick and centre the view shows)."""
    choice = next(
        c for c in view["choices"] if c["card"] == action["card"] and c["coin"] == bool(action.get("coin"))
    )
    plays = [
        PlayedCard(seat=p["seat"], card=p["card"], coin=p["coin"], colour=p["colour"])
        for p in view["trick"]["plays"]
    ]
    plays.append(
        PlayedCard(seat=seat, card=action["card"], coin=choice["coin"], colour=choice["effective_colour"])
    )
    centre = (choice["centre_after"]["R"], choice["centre_after"]["B"])
    winner = trick_outcome(plays, centre, view["options"]["high_low"]).winner
    side = view["players"][seat]["side"]
    return view["players"][winner]["side"] == side


@pytest.mark.parametrize("config", dualis_configs(), ids=lambda c: c.label)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), walk=st.integers(0, 2**31 - 1))
def test_dualis_coins_never_hurt_the_side(config: Config, seed: int, walk: int) -> None:
    """In random positions of every variant, a coin the keeper takes (1) never turns the trick from
    its side to the other as things stand and (2) can still be matched: the side's coins stay no
    more than its tricks plus the tricks left."""
    table = Table.start("dualis", seed, config.seats, config.options)
    rng = random.Random(walk)
    while not table.over:
        (seat,) = table.waiting
        view = table.view(seat)
        action = table.keeper(seat)
        if action.get("coin"):
            plain = {"card": action["card"]}
            assert side_wins(view, seat, action) or not side_wins(view, seat, plain)
            side = next(s for s in view["sides"] if seat in s["seats"])
            assert side["coins"] + 1 <= side["tricks"] + len(view["hand"])
        # Mostly random play elsewhere, so the keeper meets all kinds of positions.
        table.do(seat, action if rng.random() < 0.5 else rng.choice(table.legal(seat)))
