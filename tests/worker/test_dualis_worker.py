"""Duālis with the real Celery worker on Redis and PostgreSQL: a 4-player standard game and a
3-player Iso High-Low short game played to their end through the links, every mail delivered."""

from __future__ import annotations

import random

from flask import Flask

from service.eventlog.models import MailStatus
from service.play.hosting import Player, create_game
from tests.helpers import mails, moves_by_origin, play_path, wait_until
from tests.service.play import play_by_api
from tests.smtp_sink import SmtpSink, addressee, headline

NAMES = ["Ann", "Bo", "Cy", "Di"]
EMAILS = [f"{name.lower()}@example.org" for name in NAMES]


def play_whole_game(app: Flask, smtp_sink: SmtpSink, seats: int, options: dict, seed: int) -> dict:
    """Create, play to the end with random legal moves through the JSON API, wait for every mail;
    returns the result after checking the delivered mails."""
    rt = app.extensions["pbem"]
    players = [Player(n, e) for n, e in zip(NAMES[:seats], EMAILS[:seats], strict=True)]
    game_id = create_game(rt, "dualis", players, Player("Host", "host@example.org"), options, seed=seed)
    links = [play_path(mails(app, to=e, kind="invitation")[0]) for e in EMAILS[:seats]]
    moves = play_by_api(app.test_client(), links, random.Random(seed))
    game = rt.read_table(game_id)
    result = game.rules.result(game.state)
    assert game.record.status == "finished" and result is not None
    made = moves_by_origin(app, game_id)
    assert moves == made["player"]
    assert moves + made["auto"] == len([e for e in game.events if e["type"] == "CardPlayed"])
    wait_until(lambda: all(m.status == MailStatus.SENT for m in mails(app)), timeout=60)
    delivered = smtp_sink.collector.messages
    assert len(delivered) == len(mails(app))
    over = [m for m in delivered if headline(m) == "Game over" and addressee(m) in EMAILS]  # not the host's
    assert sorted(addressee(m) for m in over) == sorted(EMAILS[:seats])
    winners = ", ".join(game.names[w] for w in result["winners"])
    assert all(winners in m.get_payload()[0].get_payload(decode=True).decode() for m in over)
    your_turn = [m for m in delivered if headline(m).startswith("Your move")]
    assert {addressee(m) for m in your_turn} == set(EMAILS[:seats])
    return result


def check_rounds(result: dict, iso: bool) -> None:
    """Each round scored by the rulebook formula; the winners follow from the rounds."""
    totals = [0] * len(result["sides"])
    for scored in result["rounds"]:
        for i, (tricks, coins) in enumerate(zip(scored["tricks"], scored["coins"], strict=True)):
            assert scored["scores"][i] == (tricks if tricks == coins else -abs(tricks - coins))
            totals[i] += scored["scores"][i] if iso else int(i in scored["winners"])
    assert totals == result["scores"]
    best = [i for i, t in enumerate(totals) if t == max(totals)]
    assert result["winners"] == sorted(s for i in best for s in result["sides"][i])
    if iso:
        assert len(result["rounds"]) == 4 or max(totals) - min(totals) >= 7
    else:
        assert max(totals) == 2 and len(best) == 1


def test_worker_plays_a_standard_four_player_game(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    result = play_whole_game(worker_app, smtp_sink, 4, {}, seed=31)
    assert result["mode"] == "partnership" and len(result["winners"]) == 2
    check_rounds(result, iso=False)


def test_worker_plays_a_three_player_iso_high_low_short_game(worker_app: Flask, smtp_sink: SmtpSink) -> None:
    options = {"iso": True, "high_low": True, "short": True}
    result = play_whole_game(worker_app, smtp_sink, 3, options, seed=37)
    assert result["mode"] == "iso" and len(result["sides"]) == 3
    check_rounds(result, iso=True)
