"""Choosing plays ahead on a phone: a seat that owes no move opens "Choose ahead", picks a card for
each situation of its coming play and saves; the page keeps the choices, the panel passes axe, and the
chosen card is played as the seat's own move once the others' cards make it due."""

from __future__ import annotations

import random

from flask import Flask
from playwright.sync_api import expect

from rules import IllegalAction
from service.eventlog.models import EventOrigin
from service.mail.drafting import player_url
from service.play.ahead import as_json
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move
from tests.e2e.test_accessibility import serious_violations

NAMES = ("Ann", "Bo", "Cy", "Di")
CY = 2  # plays third in the first trick: it owes nothing while Ann and Bo play


def fitting_choices(app: Flask, game_id: str, seat: int) -> dict[str, str]:
    """For each situation offered to the seat, the first play the rules accept, as the form's value."""
    table = app.extensions["pbem"].read_table(game_id)
    rules, state = table.rules, table.state
    chosen = {}
    for situation in rules.ahead.situations(state, seat):
        for action, _ in rules.ahead.choices(state, seat, situation):
            try:
                rules.ahead.check(state, seat, situation, action)
            except IllegalAction:
                continue
            chosen[situation] = as_json(action)
            break
    return chosen


def test_a_seat_chooses_its_coming_play_on_a_phone_and_it_is_made_when_due(
    live_server: tuple[str, Flask],
    page,  # type: ignore[no-untyped-def]
) -> None:
    _, app = live_server
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in NAMES]
    with app.app_context():
        game_id = create_game(rt, "dualis", players, players[0], {"first_leader": 0}, seed=5)
        link = player_url(rt, rt.read_table(game_id), CY)
    choices = fitting_choices(app, game_id, CY)
    assert choices, "Cy may choose ahead before the first trick reaches it"

    page.goto(link)
    page.locator("#choose-ahead summary").click()
    # the coming card and the card in the trick after, each a group of its own
    expect(page.get_by_role("group", name="Your coming card")).to_be_visible()
    later = page.get_by_role("group", name="Your card in the trick after")
    expect(later.get_by_role("combobox", name="if I lead")).to_be_visible()
    for situation, value in choices.items():
        page.locator(f'select[name="ahead-{situation}"]').select_option(value=value)
    page.get_by_role("button", name="Save my plays chosen ahead").click()
    expect(page.get_by_text("Your plays chosen ahead are saved.")).to_be_visible()
    for situation, value in choices.items():
        expect(page.locator(f'select[name="ahead-{situation}"]')).to_have_value(value)
    assert serious_violations(page) == []

    rng = random.Random(1)
    with app.app_context():
        for seat in (0, 1):  # Ann leads, Bo follows: Cy now owes its card
            table = rt.read_table(game_id)
            action = rng.choice(table.rules.legal_actions(table.state, seat))
            assert submit_move(rt, game_id, seat, table.version, action).status == MoveStatus.ACCEPTED
        table = rt.read_table(game_id)
    made = [i for i, actor in enumerate(table.actors) if actor == CY and table.actions[i] is not None]
    assert len(made) == 1 and table.origins[made[0]] == EventOrigin.PLAYER  # the log shows Cy's own move
    led_suit = table.actions[made[0] - 2]["card"][0]  # Ann's card, two moves before
    assert as_json(table.actions[made[0]]) == choices[f"led:{led_suit}"]
    assert CY not in table.rules.to_act(table.state)
    page.reload()
    expect(page.locator("#choose-ahead")).to_have_count(1)  # offered again, for the next trick
