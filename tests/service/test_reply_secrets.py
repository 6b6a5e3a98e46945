"""A property: whatever a player writes, and whichever of the service's own mails they quote in
whichever mail program's style, the talk a reply could leave holds none of the tokens the service
signed (checked with the signer itself)."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.eventlog.models import OutboxMail
from service.links import AddressLink, DigestLink, LinkSigner, ReplyLink
from service.mail.own_secrets import without_secrets
from service.play.hosting import Player, create_game
from service.play.moves import submit_move
from service.replies.answering import receive_reply
from service.replies.reply_text import read_reply_mail
from tests.conftest import embedded_app
from tests.helpers import mails
from tests.service.reply_clients import CLIENTS, Client, Words, pasted

TOKEN = re.compile(r"/(?:play|host|watch|my|unsubscribe|confirm)/([A-Za-z0-9_.\-]+)")
TALK = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")) | st.sampled_from("\n>-_:/."),
    max_size=120,
)


def own_mails(app: Flask) -> list[OutboxMail]:
    """Every kind of mail a game sends its seats and host: invitations, the host's mail, turns,
    a reply's answer, each with its signed links and reply address."""
    rt = app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), Player("Bo", "bo@example.org")]
    game_id = create_game(rt, "red_black", players, players[0], seed=8)
    invitation = [mail for mail in mails(app, to="ann@example.org") if mail.reply_to][-1]
    receive_reply(rt, pasted(invitation, Words("no move here", "hello")))  # answered: a reply_outcome
    for seat in (0, 1):
        table = rt.read_table(game_id)
        submit_move(rt, game_id, seat, table.version, table.rules.legal_actions(table.state, seat)[0])
    return [mail for mail in mails(app) if mail.reply_to or TOKEN.search(mail.text_body)]


def secrets_of(mail: OutboxMail) -> set[str]:
    """The signed tokens a mail carries (its links' and its reply address's)."""
    found = set(TOKEN.findall(mail.text_body)) | set(TOKEN.findall(mail.html_body))
    if mail.reply_to:
        found.add(mail.reply_to.split("@")[0].removeprefix("play+"))
    return found


def test_no_talk_from_a_reply_ever_holds_a_token_we_signed(tmp_path: Path) -> None:
    with embedded_app(tmp_path, None) as app:
        sent = own_mails(app)
        assert {mail.kind for mail in sent} >= {"invitation", "host", "your_turn", "reply_outcome"}

        @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(st.sampled_from(sent), st.sampled_from(CLIENTS), TALK, st.booleans())
        def kept_talk_is_clean(mail: OutboxMail, client: Client, talk: str, first: bool) -> None:
            raw = client.build(mail, Words("fold", talk or "hi", greeting_first=first))
            kept = without_secrets(read_reply_mail(raw).text, "http://localhost").text
            for secret in secrets_of(mail):
                assert secret not in kept and secret.split(".")[-1] not in kept
            for candidate in re.findall(r"[A-Za-z0-9_.\-]{12,}", kept):
                assert not app.extensions["pbem"].signer.signs(candidate), candidate

        kept_talk_is_clean()


def test_the_signer_knows_every_token_it_signed_and_no_other() -> None:
    signer = LinkSigner(["new-key", "old-key"], max_age_seconds=1)
    retired = LinkSigner(["old-key"], max_age_seconds=1)
    tokens = [
        signer.player_token("g1", 0, 1),
        signer.host_token("g1", 1),
        signer.watch_token("g1", 1),
        signer.unsubscribe_token(DigestLink(3)),
        signer.confirm_token(7),
        signer.address_token(AddressLink("ann@example.org", 1)),
        signer.reply_token(ReplyLink("g1", 0, 1, 4)),
        retired.player_token("g1", 0, 1),  # signed with a key still known, long expired
    ]
    assert all(signer.signs(token) for token in tokens)
    stranger = LinkSigner(["another-service"], max_age_seconds=1)
    assert not any(stranger.signs(token) for token in tokens)
    assert not signer.signs(tokens[0][:-2] + "xx")
