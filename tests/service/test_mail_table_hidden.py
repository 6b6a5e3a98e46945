"""The table in the mails never shows a card its reader may not see: for random games of every game,
each turn mail and each daily digest (text, HTML, the `choose=` links and the `mailto:` bodies)
names no card of another seat's hand that the reader's own view does not show; and a choose link
preselects the move on the page without making it (a GET changes nothing), the POST it leads to
makes it; Dupli's confirmation page names the chosen pair or aim in the mails' words."""

from __future__ import annotations

import html
import random
import re
from datetime import date
from urllib.parse import parse_qs, quote, unquote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.eventlog.store import Table
from service.mail.digest import DueDigest, digest_mail
from service.mail.drafting import player_url
from service.mail.kinds import TABLE_MAILS
from service.mail.table import chosen_action
from service.move_words import move_label
from service.play.moves import submit_move
from service.reading import move_group_name
from service.replies.move_reader import strings_in
from tests.helpers import mails, without_links
from tests.service.replay_games import add_moves, new_game
from tests.service.test_replay_leaks import CODES

GAMES = [("dualis", 4, {}), ("double_side", 3, {}), ("dupli", 3, {}), ("red_black", 2, {})]
LINKS = re.compile(r'href="([^"]+)"')


def link_texts(body: str) -> list[str]:
    """What a mail's links carry for its reader: each choose= value and each mailto: body, decoded."""
    said = []
    for link in LINKS.findall(body):
        query = parse_qs(urlsplit(html.unescape(link)).query)
        said += query.get("choose", []) + query.get("body", [])
    return said


def assert_no_hidden_card(game: str, table: Table, seat: int, text_body: str, html_body: str) -> None:
    """A mail to `seat` (both parts, its links decoded) names no card of another seat's hand that the
    seat's own view does not show."""
    own = strings_in(table.rules.view(table.state, seat))
    hidden = {
        card
        for other in range(len(table.seats))
        if other != seat
        for card in strings_in(table.rules.view(table.state, other).get("hand")) - own
    }
    # Link addresses are read decoded below (an encoded comma, %2C, is no card).
    told = without_links(text_body + html.unescape(LINKS.sub("", html_body)))
    told += " ".join(link_texts(html_body) + link_texts(unquote(text_body)))
    shown = set(CODES[game].findall(told)) | {c for c in hidden if re.search(rf"\b{re.escape(c)}\b", told)}
    leaked = shown & hidden
    assert not leaked, [
        told[max(0, m.start() - 80) : m.end() + 40] for c in leaked for m in re.finditer(rf"\b{c}\b", told)
    ]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_turn_mails_show_no_hidden_card(sqlite_app: Flask, game: str, seats: int, options: dict) -> None:
    rt = sqlite_app.extensions["pbem"]
    rng = random.Random(3)
    game_id = new_game(rt, game, seats, options, seed=3)
    checked = 0
    for _ in range(40):
        table = rt.read_table(game_id)
        if not table.active:
            break
        seen = len(mails(sqlite_app))
        seat = rng.choice(sorted(table.rules.to_act(table.state)))
        action = rng.choice(table.rules.legal_actions(table.state, seat))
        submit_move(rt, game_id, seat, table.version, action, table)
        after = rt.read_table(game_id)
        for mail in mails(sqlite_app)[seen:]:
            if mail.kind not in TABLE_MAILS or mail.seat is None or "data-mail-table" not in mail.html_body:
                continue
            assert_no_hidden_card(game, after, mail.seat, mail.text_body, mail.html_body)
            checked += 1
    assert checked > 3, "turn mails with a table were checked"


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_digests_show_no_hidden_card(sqlite_app: Flask, game: str, seats: int, options: dict) -> None:
    rt = sqlite_app.extensions["pbem"]
    rng = random.Random(4)
    game_id = new_game(rt, game, seats, options, seed=4)
    checked = 0
    for _ in range(30):
        table = rt.read_table(game_id)
        if not table.active:
            break
        for seat in sorted(table.rules.to_act(table.state)):
            due = DueDigest(table.seats[seat].email, date(2024, 5, 1), ((game_id, seat),))
            mail = digest_mail(rt, due, 1, [(table, seat)])
            assert "data-mail-table" in mail.html_body
            assert_no_hidden_card(game, table, seat, mail.text_body, mail.html_body)
            checked += 1
        add_moves(rt, game_id, rng, 1)
    assert checked > 3, "digests with a table were checked"


def test_a_choose_link_preselects_the_move_and_only_the_post_makes_it(sqlite_app: Flask) -> None:
    rt = sqlite_app.extensions["pbem"]
    client: FlaskClient = sqlite_app.test_client()
    game_id = new_game(rt, "dualis", 4, {}, seed=5)
    (mail,) = [
        m
        for m in mails(sqlite_app, kind="invitation")
        if m.game_id == game_id and "data-mail-move" in m.html_body
    ]
    link = html.unescape(re.search(r'data-mail-move href="([^"]+)"', mail.html_body)[1])  # type: ignore[index]
    before = rt.read_table(game_id).version
    page = client.get(link.removeprefix(rt.settings["BASE_URL"]))
    assert page.status_code == 200 and b'name="confirmed" value="yes"' in page.data
    assert rt.read_table(game_id).version == before, "opening the link changes nothing"
    form = dict(re.findall(r'name="(\w+)" value=\'?"?([^"\']*)', page.get_data(as_text=True)))
    action = re.search(r"name=\"action\" value='([^']+)'", page.get_data(as_text=True))[1]  # type: ignore[index]
    path = urlsplit(link).path
    response = client.post(path, data={**form, "action": html.unescape(action), "confirmed": "yes"})
    assert response.status_code == 303
    assert rt.read_table(game_id).version > before, "the one tap on the page made the move"
    stale = client.get(link.removeprefix(rt.settings["BASE_URL"]))
    assert b"cannot be made now" in stale.data


def test_dupli_s_confirmation_names_the_chosen_pair_or_aim_in_words(sqlite_app: Flask) -> None:
    rt = sqlite_app.extensions["pbem"]
    client: FlaskClient = sqlite_app.test_client()
    rng = random.Random(6)
    game_id = new_game(rt, "dupli", 3, {}, seed=6)
    named: set[str] = set()
    for _ in range(80):
        table = rt.read_table(game_id)
        if not table.active or named >= {"set", "target"}:
            break
        for seat in sorted(table.rules.to_act(table.state)):
            for action in table.rules.legal_actions(table.state, seat)[:2]:
                kind = next(iter(action))
                if kind not in ("set", "target"):
                    continue
                link = f"{player_url(rt, table, seat)}?choose={quote(chosen_action(action), safe='')}"
                page = client.get(link.removeprefix(rt.settings["BASE_URL"])).get_data(as_text=True)
                label = html.escape(move_label(table, seat, action))
                words = f"{html.escape(move_group_name(action))}: <strong>{label}</strong>"
                assert words in page, (action, page[page.find("confirm-what") :][:600])
                named.add(kind)
        add_moves(rt, game_id, rng, 1)
    assert named == {"set", "target"}
