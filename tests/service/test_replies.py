"""Moves by reply: replies sent over real SMTP to the reply listener (aiosmtpd) become moves, or
refusals mailed back in the same thread; a robot's, forged, repeated or stranger's mail changes
nothing and is never answered to its sender."""

from __future__ import annotations

import re
import smtplib
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, select

from service import create_app
from service.eventlog.models import CommandRecord, InboundMail, OutboxMail, TableTalk
from service.play.hosting import Player, create_game, revoke_link
from service.play.moves import submit_move
from service.replies.reply_text import read_reply_mail
from tests.conftest import app_config
from tests.helpers import mails
from tests.smtp_sink import reply_listening

ANN, BO = "ann@example.org", "bo@example.org"


@pytest.fixture
def listening(app: Flask) -> Iterator[int]:
    """The reply listener on a free local port, for the app under test."""
    with reply_listening(app) as port:
        yield port


def new_duel(app: Flask) -> str:
    rt = app.extensions["pbem"]
    return create_game(rt, "red_black", [Player("Ann", ANN), Player("Bo", BO)], Player("Ann", ANN), seed=8)


def latest_mail(app: Flask, to: str) -> OutboxMail:
    """The newest mail to a seat of that address (not its mails as the game's host)."""
    return [mail for mail in mails(app, to=to) if mail.seat is not None][-1]


def reply(
    port: int, to: str, text: str, sender: str, html: bool = False, **headers: str
) -> tuple[str, EmailMessage]:
    """Send a reply over SMTP as a mail program would; its Message-ID."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: your move"
    message["Message-ID"] = headers.pop("message_id", make_msgid(domain="example.org"))
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    if html:
        message.set_content(text, subtype="html")
    else:
        message.set_content(text)
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.send_message(message)
    return message["Message-ID"], message


def inbound_row(app: Flask, message_id: str, timeout: float = 20.0) -> InboundMail:
    """The reply's row once it has been read (the listener reads after the SMTP transaction)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with Session(app.extensions["pbem"].engine) as session:
            row = session.exec(select(InboundMail).where(InboundMail.message_id == message_id)).first()
            if row is not None and row.status != "received":
                return row
        time.sleep(0.1)
    raise AssertionError(f"the reply {message_id} was not read")


def commands(app: Flask) -> list[CommandRecord]:
    with Session(app.extensions["pbem"].engine) as session:
        return list(session.exec(select(CommandRecord)).all())


def camp_card(app: Flask, game_id: str, seat: int) -> str:
    table = app.extensions["pbem"].read_table(game_id)
    return table.rules.legal_actions(table.state, seat)[0]["card"]


def test_every_mail_to_a_seat_carries_its_own_reply_address(app: Flask) -> None:
    new_duel(app)
    ann, bo = latest_mail(app, ANN), latest_mail(app, BO)
    assert (
        ann.reply_to.startswith("play+") and bo.reply_to.startswith("play+") and ann.reply_to != bo.reply_to
    )
    assert len(ann.reply_to.split("@")[0]) <= 64, "a local part is at most 64 characters (RFC 5321)"
    assert "replying to this mail" in ann.text_body


def test_a_plain_reply_with_a_card_code_is_played_and_answered_in_its_thread(
    app: Flask, listening: int
) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, f"{card}\n\nthanks!", ANN)
    row = inbound_row(app, message_id)
    assert row.status == "moved" and row.command_id is not None
    answer = [m for m in mails(app, to=ANN) if m.kind == "reply_outcome"][-1]
    assert answer.thread_id == message_id, "the answer goes in the thread of the reply"
    assert app.extensions["pbem"].read_table(game_id).version > 0


def test_an_html_only_reply_with_quoted_history_and_a_signature_is_read(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 1)
    body = (
        f"<div>{card}</div><div>-- <br>Bo, sent from a phone</div>"
        "<blockquote>On Tue Ann wrote: AS KS QS fold</blockquote>"
    )
    message_id, _ = reply(listening, latest_mail(app, BO).reply_to, body, BO, html=True)
    assert inbound_row(app, message_id).status == "moved"
    assert [c.action for c in commands(app)] == [{"card": card}]


def test_a_japanese_reply_folds(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    rt = app.extensions["pbem"]
    for seat in (0, 1):  # both camp cards: the pot is set, folding is open
        table = rt.read_table(game_id)
        submit_move(rt, game_id, seat, table.version, {"card": camp_card(app, game_id, seat)})
    table = rt.read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    to = latest_mail(app, (ANN, BO)[seat]).reply_to
    message_id, _ = reply(listening, to, "降りる。よろしく", (ANN, BO)[seat])
    assert inbound_row(app, message_id).status == "moved"
    assert commands(app)[-1].action == {"fold": True}


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Auto_Submitted": "auto-replied"}, "an auto-reply"),
        ({"Precedence": "bulk"}, "a bulk mail"),
        ({"List_Id": "<cards.example.org>"}, "a list's mail"),
    ],
)
def test_a_robots_mail_changes_nothing_and_is_never_answered(
    app: Flask, listening: int, headers: dict[str, str], why: str
) -> None:
    game_id = new_duel(app)
    before = len(mails(app))
    message_id, _ = reply(
        listening, latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0), ANN, **headers
    )
    assert inbound_row(app, message_id).status == "ignored", why
    assert commands(app) == [] and len(mails(app)) == before


def test_a_forged_reply_address_is_never_answered(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    to = latest_mail(app, ANN).reply_to
    forged = to.replace(to.split(".")[1][:4], "0000", 1)
    before = len(mails(app))
    message_id, _ = reply(listening, forged, camp_card(app, game_id, 0), "stranger@example.net")
    assert inbound_row(app, message_id).status == "ignored"
    assert commands(app) == [] and len(mails(app)) == before


def test_a_revoked_reply_address_is_refused_to_the_seats_own_address(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    old = latest_mail(app, ANN).reply_to
    revoke_link(app.extensions["pbem"], game_id, 0)
    message_id, _ = reply(listening, old, camp_card(app, game_id, 0), ANN)
    assert inbound_row(app, message_id).status == "refused" and commands(app) == []
    answer = latest_mail(app, ANN)
    assert answer.kind == "reply_outcome" and "replaced" in answer.text_body


def test_a_reply_from_another_address_is_refused_to_the_seat(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    message_id, _ = reply(
        listening, latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0), "eve@example.net"
    )
    assert inbound_row(app, message_id).status == "refused" and commands(app) == []
    assert latest_mail(app, ANN).kind == "reply_outcome" and mails(app, to="eve@example.net") == []


def test_the_same_mail_delivered_twice_is_read_once(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    to, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    message_id, _ = reply(listening, to, card, ANN)
    inbound_row(app, message_id)
    reply(listening, to, card, ANN, message_id=message_id)
    time.sleep(1)
    assert len(commands(app)) == 1
    assert len([m for m in mails(app, to=ANN) if m.kind == "reply_outcome"]) == 1


def test_a_reply_naming_two_moves_is_refused_with_the_legal_moves(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    table = app.extensions["pbem"].read_table(game_id)
    first, second = (a["card"] for a in table.rules.legal_actions(table.state, 0)[:2])
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, f"{first} or {second}?", ANN)
    assert inbound_row(app, message_id).status == "refused" and commands(app) == []
    answer = latest_mail(app, ANN)
    assert "more than one" in answer.text_body and first in answer.text_body and second in answer.text_body


def test_a_stale_reply_is_refused_with_the_moves_legal_now(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    rt = app.extensions["pbem"]
    old = {address: latest_mail(app, address).reply_to for address in (ANN, BO)}
    for seat in (0, 1):  # both camp cards: the game moved on since the invitations
        table = rt.read_table(game_id)
        submit_move(rt, game_id, seat, table.version, {"card": camp_card(app, game_id, seat)})
    table = rt.read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    address = (ANN, BO)[seat]
    held = table.rules.legal_actions(table.state, seat)[0]["card"]
    message_id, _ = reply(listening, old[address], held, address)
    assert inbound_row(app, message_id).status == "refused"
    answer = latest_mail(app, address)
    assert "moved on" in answer.text_body and "(" in answer.text_body, "the moves legal now are listed"


def test_the_outbox_reply_box_answers_through_the_same_reading(tmp_path: Path) -> None:
    local = create_app(app_config(tmp_path, None))
    with local.app_context():
        game_id = new_duel(local)
        card = camp_card(local, game_id, 0)
        invitation = latest_mail(local, ANN)
    client = local.test_client()
    page = client.get(f"/outbox/{invitation.id}").get_data(as_text=True)
    assert "Send the reply" in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf
    answered = client.post(f"/outbox/{invitation.id}/reply", data={"text": card, "csrf_token": csrf.group(1)})
    assert answered.status_code == 303
    with local.app_context():
        assert [c.action for c in commands(local)] == [{"card": card}]


def test_a_stored_reply_is_read_without_its_quote_and_robots_are_known() -> None:
    raw = (
        b"From: Ann <ann@example.org>\r\nTo: play+abc.def@pbem.localhost\r\nSubject: Re: x\r\n"
        b"Message-ID: <1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"fold\r\n\r\nOn Tue, Nov 24, 2026 at 10:00 AM Card table <cards@localhost> wrote:\r\n> AS KS\r\n"
    )
    mail = read_reply_mail(raw)
    assert mail.text == "fold" and mail.tokens == ("abc.def",) and not mail.automatic
    bounce = raw.replace(b"Subject: Re: x", b"Subject: Undelivered\r\nAuto-Submitted: auto-replied")
    assert read_reply_mail(bounce).automatic


def test_a_replys_words_after_its_move_go_to_the_table_talk(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, f"{card}\nnice game, <b>Bo</b>!", ANN)
    assert inbound_row(app, message_id).status == "moved"
    with Session(app.extensions["pbem"].engine) as session:
        (said,) = session.exec(select(TableTalk)).all()
    assert (said.seat, said.text) == (0, "nice game, <b>Bo</b>!")


def test_a_reply_from_a_seat_owing_no_move_is_said_to_the_table(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    submit_move(rt, game_id, 0, table.version, {"card": camp_card(app, game_id, 0)})  # Ann waits for Bo
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, "take your time", ANN)
    assert inbound_row(app, message_id).status == "talked"
    assert len(commands(app)) == 1
    with Session(app.extensions["pbem"].engine) as session:
        assert [row.text for row in session.exec(select(TableTalk)).all()] == ["take your time"]


# --- issue #29 and #31: what a reply's words say, and what of them the table is shown ------------------


def new_game(app: Flask, game: str, names: tuple[str, ...]) -> str:
    rt = app.extensions["pbem"]
    players = [Player(name, f"{name.lower()}@example.org") for name in names]
    return create_game(rt, game, players, players[0], seed=8)


def talk_rows(app: Flask) -> list[tuple[int, str, bool]]:
    with Session(app.extensions["pbem"].engine) as session:
        return [(row.seat, row.text, row.private) for row in session.exec(select(TableTalk)).all()]


def answers(app: Flask, to: str) -> list[OutboxMail]:
    return [mail for mail in mails(app, to=to) if mail.kind == "reply_outcome"]


def test_the_move_on_a_later_line_is_played_and_never_kept_as_talk(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, f"Hi all,\nplay {card}\ngood luck", ANN)
    assert inbound_row(app, message_id).status == "moved"
    assert [c.action for c in commands(app)] == [{"card": card}]
    assert talk_rows(app) == [(0, "Hi all,\ngood luck", False)]


@pytest.mark.parametrize("between", ["\n", ", "])
def test_numbers_in_another_sentence_do_not_join_a_worded_move(
    app: Flask, listening: int, between: str
) -> None:
    game_id = new_game(app, "dualis", ("Ann", "Bo", "Cy", "Di"))
    table = app.extensions["pbem"].read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    cards = sorted({a["card"] for a in table.rules.legal_actions(table.state, seat)})
    card, other = next((a, b) for a in cards for b in cards if a != b and (a[0], a[-1]) == (b[0], b[-1]))
    suit = {"S": "star", "M": "moon", "C": "crown", "F": "flower"}.get(card[0], card[0])
    colour = {"R": "red", "B": "blue"}.get(card[-1], card[-1])
    address = f"{table.names[seat].lower()}@example.org"
    text = f"{card[1:-1]} {suit} {colour} coin{between}I only had {other[1:-1]} good cards"
    message_id, _ = reply(listening, latest_mail(app, address).reply_to, text, address)
    assert inbound_row(app, message_id).status == "moved", answers(app, address)[-1].text_body
    assert [c.action for c in commands(app)] == [{"card": card, "coin": True}]


def test_a_bare_dualis_code_is_the_move_without_a_coin(app: Flask, listening: int) -> None:
    game_id = new_game(app, "dualis", ("Ann", "Bo", "Cy", "Di"))
    table = app.extensions["pbem"].read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    card = table.rules.legal_actions(table.state, seat)[0]["card"]
    address = f"{table.names[seat].lower()}@example.org"
    message_id, _ = reply(listening, latest_mail(app, address).reply_to, card, address)
    assert inbound_row(app, message_id).status == "moved"
    assert [c.action for c in commands(app)] == [{"card": card}]
    assert "Played: " in answers(app, address)[-1].text_body


def test_a_dupli_pair_in_lower_case_is_read(app: Flask, listening: int) -> None:
    game_id = new_game(app, "dupli", ("Ann", "Bo", "Cy"))
    table = app.extensions["pbem"].read_table(game_id)
    assert {"set": ["drill", "tyranny"]} in table.rules.legal_actions(table.state, 0)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, "set drill tyranny", ANN)
    assert inbound_row(app, message_id).status == "moved"
    assert [c.action for c in commands(app)] == [{"set": ["drill", "tyranny"]}]


def test_words_without_a_move_from_a_seat_that_owes_one_are_talk(app: Flask, listening: int) -> None:
    new_duel(app)
    message_id, _ = reply(listening, latest_mail(app, ANN).reply_to, "still thinking, sorry!", ANN)
    assert inbound_row(app, message_id).status == "talked" and commands(app) == []
    assert talk_rows(app) == [(0, "still thinking, sorry!", False)]
    assert "table still waits" in answers(app, ANN)[-1].text_body


def test_a_pasted_link_or_reply_address_is_never_kept_as_talk(app: Flask, listening: int) -> None:
    new_duel(app)
    invitation = latest_mail(app, ANN)
    link = re.search(r"http://localhost/play/\S+", invitation.text_body)
    assert link
    text = f"my link is {link.group(0)} and {invitation.reply_to}, do not tell"
    message_id, _ = reply(listening, invitation.reply_to, text, ANN)
    assert inbound_row(app, message_id).status == "talked"
    ((_, said, _),) = talk_rows(app)
    token = link.group(0).rsplit("/", 1)[1]
    assert token not in said and "play+" not in said and token.split(".")[-1] not in said
    assert said.startswith("my link is") and said.endswith("do not tell")


def test_a_quote_without_marks_or_header_leaks_no_link_and_no_hand(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    invitation = latest_mail(app, ANN)
    card = camp_card(app, game_id, 0)
    message_id, _ = reply(listening, invitation.reply_to, f"{card}\nthanks!\n\n{invitation.text_body}", ANN)
    assert inbound_row(app, message_id).status == "moved"
    assert talk_rows(app) == [(0, "thanks!", False)]


def test_a_repeated_reply_never_shows_its_face_down_card(app: Flask, listening: int) -> None:
    game_id = new_duel(app)
    to, card = latest_mail(app, ANN).reply_to, camp_card(app, game_id, 0)
    first, _ = reply(listening, to, card, ANN)
    assert inbound_row(app, first).status == "moved"
    again, _ = reply(listening, to, card, ANN)  # the same words, a new Message-ID
    inbound_row(app, again)
    assert len(commands(app)) == 1
    assert [row for row in talk_rows(app) if not row[2]] == [], "nothing of it is shown to Bo"


def test_an_auto_responder_without_robot_headers_posts_nothing(app: Flask, listening: int) -> None:
    new_duel(app)
    to = latest_mail(app, ANN).reply_to
    before = len(mails(app))
    for _ in range(3):
        text = "I am out of the office until Monday. For urgent matters call 555 0100."
        message_id, _ = reply(listening, to, text, ANN)
        assert inbound_row(app, message_id).status == "ignored"
    assert talk_rows(app) == [] and len(mails(app)) == before


def test_near_identical_talk_repeated_is_held_back(app: Flask, listening: int) -> None:
    new_duel(app)
    to = latest_mail(app, ANN).reply_to
    for text in ("Back on Monday, will play then!", "Back on Monday, will play then!!"):
        inbound_row(app, reply(listening, to, text, ANN)[0])
    assert talk_rows(app) == [(0, "Back on Monday, will play then!", False)]


@pytest.mark.parametrize(
    ("subject", "text"),
    [
        ("Automatic reply: your move", "Thanks for your mail."),
        ("Re: your move", "I am currently out of the office with limited access to email."),
        ("自動応答: あなたの番です", "ありがとうございます。"),
        ("Re: ゲーム", "ただいま休暇をいただいております。12月1日に戻ります。"),
        ("Abwesenheitsnotiz", "Ich bin nicht im Büro."),
        ("Re: partie", "Je suis absent du bureau jusqu'au lundi."),
    ],
)
def test_out_of_office_wording_is_known_in_four_languages(subject: str, text: str) -> None:
    raw = (
        f"From: ann@example.org\r\nTo: play+abc.def@pbem.localhost\r\nSubject: {subject}\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
    ).encode()
    assert read_reply_mail(raw).out_of_office


def test_hidden_html_is_not_read_as_text() -> None:
    raw = (
        b"From: ann@example.org\r\nTo: play+abc.def@pbem.localhost\r\nSubject: Re: x\r\n"
        b"Content-Type: text/html; charset=utf-8\r\n\r\n"
        b"<html><head><style>.a{color:red}</style></head><body><div>fold</div>"
        b'<template>AS KS</template><div style="display: none">preheader QS</div>'
        b"<span hidden>JS</span></body></html>\r\n"
    )
    assert read_reply_mail(raw).text == "fold"
