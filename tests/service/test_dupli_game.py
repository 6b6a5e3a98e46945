"""Dupli through the service, on SQLite and on PostgreSQL: whole 3- and 4-player games through the pages
and the JSON API with the Charge window, Benevolence aiming and a Patriotism answer in the first war;
what each page shows (hand, set slots, legal pairs and the set rule, who has set, the Charge window,
targeting, the Patriotism choice, the revealed war with marks, totals, takings and log); the mails each
decision and each war send; and that no page, API answer or mail shows another seat's hidden cards."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from rules.dupli import GAME
from rules.dupli.cards import FULL_DECK
from service.eventlog.models import OutboxMail
from service.play.hosting import Player, create_game
from tests.helpers import mails, move_form, play_path
from tests.service.play import play_by_api, play_by_pages

NAMES = ["Ann", "Bo", "Cy", "Di"]
EMAILS = [f"{name.lower()}@example.org" for name in NAMES]
ANN, BO, CY, DI = 0, 1, 2, 3

# The first war every scripted game plays: Ann sets a Charge with a Patriotism (the Charge window opens),
# Bo a Benevolence with a Drill (he aims), Cy a Tyranny with a Drill, Di two Drills.
OPENING = [["charge", "patriotism"], ["benevolence", "drill"], ["drill", "tyranny"], ["drill", "drill"]]
ANNS_CHARGE = {"seat": ANN, "slot": 0}
CYS_TYRANNY = {"seat": CY, "slot": 1}


# --------------------------------------------------------------------------------- helpers


def deck(fixed: list[list[str]], seed: int = 0) -> list[str]:
    """A 36-card deck (top first) dealing each seat its fixed cards, the rest of its 9 shuffled in."""
    rest = sorted((Counter(FULL_DECK) - Counter(c for hand in fixed for c in hand)).elements())
    random.Random(seed).shuffle(rest)
    out: list[str] = []
    for hand in fixed:
        need = 9 - len(hand)
        out += [*hand, *rest[:need]]
        rest = rest[need:]
    return out + rest


def new_game(
    app: Flask, seats: int, fixed: list[list[str]] | None = None, seed: int = 1
) -> tuple[str, list[str]]:
    """A game with the given fixed cards per seat; its id and each seat's link from its invitation."""
    cards = fixed if fixed is not None else OPENING[:seats]
    game_id = create_game(
        app.extensions["pbem"],
        "dupli",
        [Player(n, e) for n, e in zip(NAMES[:seats], EMAILS[:seats], strict=True)],
        Player("Host", "host@example.org"),
        options={"deck": deck(cards, seed)},
        seed=seed,
    )
    return game_id, [play_path(game_mails(app, game_id, e, "invitation")[0]) for e in EMAILS[:seats]]


def game_mails(app: Flask, game_id: str, to: str | None = None, kind: str | None = None) -> list[OutboxMail]:
    """This game's outbox rows, oldest first, optionally for one address and kind."""
    return [m for m in mails(app, to=to, kind=kind) if m.game_id == game_id]


def html(client: FlaskClient, link: str) -> str:
    response = client.get(link)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def text(page: str) -> str:
    """A page's words without tags, whitespace collapsed (what a reader sees)."""
    body = re.sub(r"(?s)<head>.*?</head>", "", page)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace("&#39;", "'").replace("&amp;", "&")


def score_row(page: str, seat: int) -> list[str]:
    """The words of a seat's row in the score table: player (and status), VP, Patriotism, hand."""
    row = re.search(rf'<tr data-seat="{seat}">(.*?)</tr>', page, re.S)
    assert row, f"no score row for seat {seat}"
    return [text(cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row.group(1), re.S)]


def state(client: FlaskClient, link: str) -> dict[str, Any]:
    return client.get("/api" + link).get_json()


def api_act(client: FlaskClient, link: str, action: dict[str, Any]) -> None:
    """A move through the JSON API, which must be accepted."""
    response = client.post("/api" + link, json={"action": action, "seq": state(client, link)["seq"]})
    assert response.get_json()["status"] == "accepted", response.get_json()


def click(client: FlaskClient, link: str, action: dict[str, Any], confirm: bool = True) -> TestResponse:
    """Press the page's button for this action (it must be offered); confirm if asked."""
    form = move_form(html(client, link))
    assert form is not None and action in form.actions(), (action, form and form.actions())
    data = form.data(action)
    response = client.post(link, data=data)
    if confirm and response.status_code == 200 and b'name="confirmed"' in response.data:
        response = client.post(link, data={**data, "confirmed": "yes"})
    return response


def opening_war(client: FlaskClient, links: list[str], act: Any) -> None:
    """The scripted first war: sets, every answer keeps its pair, Bo aims at Ann's Charge, Ann spends
    her Patriotism (banked at this reveal) to cancel it."""
    for seat, link in enumerate(links):
        act(client, link, {"set": OPENING[seat]})
    for seat in range(1, len(links)):
        act(client, links[seat], {"set": OPENING[seat]})
    act(client, links[BO], {"target": ANNS_CHARGE})
    act(client, links[ANN], {"cancel": True})


def event_types(app: Flask, game_id: str) -> list[str]:
    return [e["type"] for e in app.extensions["pbem"].read_table(game_id).events]


def check_finished(app: Flask, game_id: str, seats: int) -> dict[str, Any]:
    """The game ended after 4 wars with the result the rules give for its log; the game-over mail went
    to every seat naming the winners. The final view is returned."""
    game = app.extensions["pbem"].read_table(game_id)
    assert game.record.status == "finished"
    refolded = GAME.fold(game.events)
    result = GAME.result(refolded)
    final = GAME.view(refolded, None)
    assert result is not None and result == final["result"]
    vp = result["vp"]
    assert result["winners"] == [s for s in range(seats) if vp[s] == max(vp)]
    # Every set card ends in a VP pile, spent, or unsplit in the centre: 2 cards a war for 4 wars.
    assert sum(vp) + final["removed"] + len(final["centre_cards"]) == 8 * seats
    assert final["hand_counts"] == [1] * seats
    types = event_types(app, game_id)
    assert types.count("WarResolved") == 4 and types[-1] == "GameEnded"
    for kind in ("ChargeRevealed", "SwapAnswered", "BenevolenceAimed", "PatriotismAnswered"):
        assert kind in types
    over = game_mails(app, game_id, kind="game_over")
    assert sorted(m.to_email for m in over) == sorted([*EMAILS[:seats], "host@example.org"])
    winners = ", ".join(game.names[w] for w in result["winners"])
    assert all(winners in m.text_body for m in over)
    # The last war's report reaches every seat, the one whose move ended it too.
    assert all("War 4:" in m.text_body for m in over if m.seat is not None)
    return final


# --------------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("seats", [3, 4])
def test_whole_game_through_the_pages(app: Flask, client: FlaskClient, seats: int) -> None:
    game_id, links = new_game(app, seats, seed=seats)
    opening_war(client, links, click)
    moves = play_by_pages(client, links, random.Random(seats))
    assert moves >= 3 * seats
    final = check_finished(app, game_id, seats)
    page = html(client, links[ANN])
    assert "All 4 wars played." in text(page) and "Your choices" not in page and "War 4 result" in text(page)
    assert "Cards never played" in text(page) and "Cards never played" in text(
        html(client, f"/game/{game_id}")
    )
    if seats == 3:
        assert "Set aside unseen:" in text(page)
    for seat in range(seats):
        row = score_row(page, seat)
        assert row[1] == str(final["vp"][seat]) and row[3] == "1"
        assert ("★ winner" in row[0]) == (seat in final["result"]["winners"])


@pytest.mark.parametrize("seats", [3, 4])
def test_whole_game_through_the_json_api(app: Flask, client: FlaskClient, seats: int) -> None:
    game_id, links = new_game(app, seats, seed=10 + seats)
    opening_war(client, links, api_act)
    play_by_api(client, links, random.Random(seats))
    check_finished(app, game_id, seats)


# --------------------------------------------------------------------------------- the play page


def test_set_phase_hand_slots_legal_pairs_and_the_rule(app: Flask, client: FlaskClient) -> None:
    _, links = new_game(app, 3, [["tyranny", "benevolence", "charge", "drill"], [], []])
    page = html(client, links[ANN])
    words = text(page)
    view = state(client, links[ANN])
    # Every hand card is a box to tick, with its strength; what each does one tap away.
    for card in view["view"]["hand"]:
        assert f'name="set" value="{card["card"]}"' in page and card["effect"] in words
    assert "Tyranny strength 2" in words and "Charge strength 3" in words and "Drill strength 1" in words
    # Ticking two cards and setting them makes every legal pair; the rule sentence names the forbidden.
    form = move_form(page)
    assert form is not None and all(action in form.actions() for action in view["legal_actions"])
    assert "Rule: Tyranny or Charge is never set together with Benevolence" in words
    # A forbidden pair ticked is refused with the rules' message, and nothing is set.
    refused = client.post(links[ANN], data=form.data({"set": ["benevolence", "tyranny"]}))
    assert refused.status_code == 422
    assert "Tyranny or Charge may not be set together with Benevolence." in refused.get_data(as_text=True)
    assert click(client, links[ANN], {"set": ["charge", "tyranny"]}).status_code == 303
    assert state(client, links[ANN])["view"]["my_set"] == ["charge", "tyranny"]


def test_setting_other_than_two_ticked_cards_says_so_and_keeps_the_ticks(
    app: Flask, client: FlaskClient
) -> None:
    _, links = new_game(app, 3, [["tyranny", "drill", "drill", "benevolence"], [], []])
    form = move_form(html(client, links[ANN]))
    assert form is not None
    for ticked in (["drill"], ["benevolence", "drill", "tyranny"]):
        refused = client.post(links[ANN], data={**form.fields, "action": '{"set": []}', "set": ticked})
        assert refused.status_code == 422
        page = refused.get_data(as_text=True)
        assert f"Tick exactly two cards to set: you ticked {len(ticked)}." in text(page)
        assert "as a list" not in page  # not the JSON API's words
        kept = re.findall(r'<input type="checkbox" name="set" value="([a-z]+)" checked>', page)
        assert sorted(kept) == sorted(ticked)
    # A pair the rules refuse keeps its ticks too, next to the rules' reason.
    pair = ["benevolence", "tyranny"]
    refused = client.post(links[ANN], data={**form.fields, "action": '{"set": []}', "set": pair})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "may not be set together with Benevolence" in page
    assert sorted(re.findall(r'<input type="checkbox" name="set" value="([a-z]+)" checked>', page)) == pair


def test_waiting_shows_who_has_set_but_not_what(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 3, [[], ["subversion", "subversion"], []], seed=5)
    click(client, links[BO], {"set": ["subversion", "subversion"]})
    for seat in (ANN, CY):
        page = html(client, links[seat])
        assert "Bo: has set" in text(page) and "Ann: still choosing" in text(page)
        assert "subversion" not in page.lower()
    own = html(client, links[BO])
    assert own.count('data-card="subversion"') == 2  # the two set slots; none left in hand
    assert "Face down: only you see them until the reveal." in text(own)
    overview = html(client, f"/game/{game_id}")
    assert "Bo: has set" in text(overview) and "subversion" not in overview.lower()


def test_charge_window_face_up_charge_and_keep_or_swap(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 3, [OPENING[0], [*OPENING[1], "subversion", "subversion"], OPENING[2]])
    for seat in range(3):
        click(client, links[seat], {"set": OPENING[seat]})
    bo = html(client, links[BO])
    assert "Face up: Ann's Charge." in text(bo)
    assert "Keep your pair or swap" in text(bo)
    form = move_form(bo)
    assert form is not None
    assert all(action in form.actions() for action in state(client, links[BO])["legal_actions"])
    keep = re.search(r"value='([^']*)'[^>]*data-keep", bo)
    assert keep and json.loads(keep.group(1)) == {"set": ["benevolence", "drill"]}
    assert "Keep Benevolence + Drill" in text(bo) and "tick two others" in text(bo)
    assert "Face up: Ann's Charge." in text(html(client, f"/game/{game_id}"))
    ann = text(html(client, links[ANN]))
    assert "Your Charge is face up: you do not swap." in ann and move_form(html(client, links[ANN])) is None
    # Each answerer owes a decision and got a mail saying why (Cy too, whose own set opened the
    # window); the Charge owner got none.
    owed = game_mails(app, game_id, kind="your_turn")
    assert [m.seat for m in owed] == [BO, CY]
    assert all("Charge revealed: Ann. The others may swap their set cards." in m.text_body for m in owed)
    # Bo swaps (hidden from the others: only "answered"), Cy keeps.
    click(client, links[BO], {"set": ["drill", "subversion"]})
    cy = html(client, links[CY])
    assert "Bo: has answered" in text(cy) and "subversion" not in cy.lower()
    click(client, links[CY], {"set": ["drill", "tyranny"]})
    revealed = text(html(client, links[CY]))
    assert "Subversion set by Bo: every Benevolence is void." in revealed
    assert "Eliminated (set a Tyranny or Charge): Ann, Cy." in revealed
    assert (
        "✕ Eliminated by Subversion" in revealed
        and "Bo wins with strength 0 and takes 5 cards as VP." in revealed
    )


def test_targeting_patriotism_answer_and_the_war_report(app: Flask, client: FlaskClient) -> None:
    game_id, links = new_game(app, 3)
    for seat in range(3):
        click(client, links[seat], {"set": OPENING[seat]})
    for seat in (BO, CY):
        click(client, links[seat], {"set": OPENING[seat]})
    # Targeting: whose turn, the targets with their strength and who could cancel.
    bo = html(client, links[BO])
    assert "Your Benevolence aims now" in text(bo)
    form = move_form(bo)
    assert form is not None
    assert form.actions() == [{"target": ANNS_CHARGE}, {"target": CYS_TYRANNY}, {"target": None}]
    assert "Zero Ann's Charge (strength 3) · Ann holds 1 Patriotism" in text(bo)
    assert "Zero Cy's Tyranny (strength 2)" in text(bo) and "Aim at nothing" in text(bo)
    assert "Ann's Patriotism goes straight to their VP." in text(bo)
    assert "Waiting for Bo to aim." in text(html(client, links[CY]))
    overview = text(html(client, f"/game/{game_id}"))
    assert "Waiting for Bo to aim." in overview and "Possible targets: Ann's Charge, Cy's Tyranny" in overview
    assert "Your hand" not in overview
    assert (
        "Reveal: Ann Charge + Patriotism"
        in game_mails(app, game_id, to=EMAILS[BO], kind="your_turn")[-1].text_body
    )
    click(client, links[BO], {"target": ANNS_CHARGE})
    # The Patriotism answer: both choices with what each does; spending asks for confirmation.
    ann = html(client, links[ANN])
    words = text(ann)
    assert "Bo's Benevolence aims at your Charge" in words
    assert (
        "Spend a Patriotism (VP −1): your card keeps its strength and that Benevolence is worth 0." in words
    )
    assert "Keep your Patriotism: your card is zeroed." in words
    assert "aims at Ann's Charge" in game_mails(app, game_id, to=EMAILS[ANN], kind="your_turn")[-1].text_body
    cy = text(html(client, links[CY]))
    assert (
        "Ann holds 1 Patriotism in VP and decides whether to spend it" in cy
        and "Waiting for Ann to answer." in cy
    )
    assert "Spend a Patriotism (VP −1)" in cy
    assert "Waiting for Ann to answer." in text(html(client, f"/game/{game_id}"))
    asked = click(client, links[ANN], {"cancel": True}, confirm=False)
    assert asked.status_code == 200
    assert "Cancel Bo's Benevolence aimed at your Charge? Spend a Patriotism (VP −1)" in text(
        asked.get_data(as_text=True)
    )
    form = move_form(ann)
    assert form is not None
    confirmed = client.post(
        links[ANN], data={**form.fields, "action": json.dumps({"cancel": True}), "confirmed": "yes"}
    )
    assert confirmed.status_code == 303
    # After the war: every set card with strength and marks, totals, takings, VP, centre, log.
    for link in [*links, f"/game/{game_id}"]:
        words = text(html(client, link))
        assert "War 1 result" in words and "War 2 of 4" in words
        assert "Charge strength 3" in words and "Patriotism to VP" in words
        assert "Benevolence ✕ cancelled: 0" in words and "Tyranny strength 2" in words
        assert "Total strength 3" in words and "Total strength 1" in words
        assert "★ Wins: takes 2 cards as VP" in words and "Ann, Cy tied at strength 3." in words
        assert "1 card face down" in words and "1 Patriotism has been spent and left the game." in words
        page = html(client, link)
        assert [score_row(page, s)[1:] for s in range(3)] == [
            ["2", "0", "7"],
            ["0", "0", "7"],
            ["2", "0", "7"],
        ]
        for step in (
            "All set cards are turned face up. (Ann's Charge was already face up.)",
            "Benevolence aims in this order (most VP first): Bo.",
            "Bo's Benevolence aims at Ann's Charge; Ann spends a Patriotism: that Benevolence is "
            "cancelled (worth 0) and the Charge keeps its strength.",
            "Strength totals: Ann 3, Bo 1, Cy 3.",
            "Ann, Cy tie at strength 3 and take 2 cards each as VP.",
            "1 card cannot be split and goes face down to the centre.",
        ):
            assert step in words, step
    # Every seat owes the next war's set and got a mail with the war's report, Ann (whose answer
    # ended the war) too.
    for seat in range(3):
        last = game_mails(app, game_id, to=EMAILS[seat])[-1]
        assert last.kind == "your_turn" and "War 1: Ann, Cy tie at strength 3" in last.text_body
    assert "Ann spends a Patriotism to cancel Bo's Benevolence." in last.text_body


def test_zeroed_at_once_and_two_benevolences_aim_in_turn(app: Flask, client: FlaskClient) -> None:
    _, links = new_game(app, 3, [["tyranny", "drill"], ["benevolence", "benevolence"], ["charge", "drill"]])
    for seat, pair in enumerate([["drill", "tyranny"], ["benevolence", "benevolence"], ["charge", "drill"]]):
        api_act(client, links[seat], {"set": pair})
    for seat in (ANN, BO):
        api_act(client, links[seat], {"set": state(client, links[seat])["view"]["my_set"]})
    click(client, links[BO], {"target": {"seat": CY, "slot": 0}})
    # Nobody holds a Patriotism: zeroed at once, and Bo's second Benevolence aims next.
    bo = text(html(client, links[BO]))
    assert "Bo's Benevolence aims at Cy's Charge: it is zeroed (strength 0)." in bo
    assert "Your Benevolence aims now" in bo and "Zero Cy's Charge (already 0)" in bo
    click(client, links[BO], {"target": None})
    words = text(html(client, links[CY]))
    assert "Charge ✕ zeroed: 0" in words and "Bo's Benevolence aims at nothing." in words
    assert (
        "Strength totals: Ann 3, Bo 2, Cy 1." in words
        and "Ann wins with strength 3 and takes 6 cards as VP." in words
    )


# --------------------------------------------------------------------------------- hidden cards


def test_no_page_api_or_mail_shows_another_seats_hidden_cards(app: Flask, client: FlaskClient) -> None:
    # Only Bo holds Subversions; Ann and Cy hold the two Charges, and Cy swaps his in during the window.
    fixed = [["charge", "drill"], ["subversion", "subversion", "drill"], ["charge", "drill", "drill"]]
    game_id, links = new_game(app, 3, fixed)
    others = [ANN, CY]

    def hidden_from_others() -> None:
        for seat in others:
            assert "subversion" not in html(client, links[seat]).lower()
            assert "subversion" not in json.dumps(state(client, links[seat])).lower()
            for mail in game_mails(app, game_id, to=EMAILS[seat]):
                assert "subversion" not in mail.text_body.lower() + mail.html_body.lower()
        assert "subversion" not in html(client, f"/game/{game_id}").lower()

    click(client, links[BO], {"set": ["drill", "subversion"]})
    hidden_from_others()
    click(client, links[ANN], {"set": ["charge", "drill"]})
    # A set Charge stays face down until everyone has set.
    assert 'data-card="charge"' not in html(client, links[BO])
    assert 'data-card="charge"' not in html(client, f"/game/{game_id}")
    click(client, links[CY], {"set": ["drill", "drill"]})
    hidden_from_others()
    # Cy swaps his own Charge in: it stays face down, so Bo's page still shows only Ann's Charge.
    click(client, links[CY], {"set": ["charge", "drill"]})
    bo = html(client, links[BO])
    assert "Face up: Ann's Charge." in text(bo) and "Cy's Charge" not in text(bo)
    assert bo.count('data-card="charge"') == 1
    assert state(client, links[BO])["view"]["charge"]["face_up"] == [
        {"seat": ANN, "slot": 0, "card": "charge"}
    ]
    hidden_from_others()
    assert "Your hand" not in html(client, f"/game/{game_id}")
    click(client, links[BO], {"set": ["drill", "subversion"]})
    for link in [*links, f"/game/{game_id}"]:
        assert "Subversion set by Bo" in text(html(client, link))
