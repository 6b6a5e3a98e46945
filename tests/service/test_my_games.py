"""My games: anyone may ask for the games of an address; the address is mailed a link signed for it,
which lists every game of that address (whatever its case) with the seat's own link and sets the
mail settings of all of them at once. No answer tells whether an address has games; links of another
address, forged, expired or replaced ones are refused and change nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.eventlog.models import OutboxMail
from service.mail.digest import send_due_digests
from service.mail.drafting import draft_mail
from service.mail.kinds import MailKind
from service.play.address_games import ADDRESS_DAILY_LIMIT, ADDRESS_LIMIT
from service.play.hosting import Player, cancel_game, create_game
from service.play.rematch import answer_rematch, propose_rematch
from service.runtime import Runtime
from tests.conftest import app_config
from tests.helpers import SteppingClock, mails, play_path, post_form, without_links
from tests.service.replay_games import add_moves
from tests.service.test_mail_footers import CONTEXT
from tests.service.turns import MONDAY, new_game, people, play, stepping
from tests.smtp_sink import SmtpSink, headline

ANN = "ann@example.org"
NOBODY = "nobody@example.org"
HOST = Player("Host", "host@example.org")
MY_LINK = re.compile(r"http://localhost(/my/[A-Za-z0-9_.\-]+)")


def my_path(body: str) -> str:
    match = MY_LINK.search(body)
    assert match, "no 'my games' link"
    return match.group(1)


def ask(client: FlaskClient, email: str) -> tuple[int, str]:
    """Ask for an address's games with the home page's form; the answer's status and text."""
    response = post_form(client, "/", "/my-games", email=email)
    return response.status_code, response.get_data(as_text=True)


def signed_payload(link: str) -> str:
    """A link up to its signature's timestamp: what it opens, the same whenever it was signed."""
    return link.rsplit(".", 2)[0] + "."


def link_mail(app: Flask, email: str) -> OutboxMail:
    return mails(app, to=email, kind="my_games")[-1]


def ann_games(rt: Runtime, clock: SteppingClock) -> dict[str, str]:
    """Ann in games of every state: waiting on her (one without a time limit, made first, and one
    with a deadline), running but not waiting on her, finished, cancelled; and a game without her."""
    games = {}
    games["no_limit"] = create_game(rt, "red_black", [Player("Ann", ANN), *people("Bo")], HOST, seed=1)
    clock.advance(hours=1)
    games["due"] = new_game(rt, "red_black", [Player("Ann", "Ann@Example.ORG"), *people("Cy")])
    games["not_hers"] = new_game(rt, "red_black", [*people("Di"), Player("Ann", ANN)], seed=2)
    play(rt, games["not_hers"], 1)  # now it waits on Di only
    games["finished"] = new_game(rt, "red_black", [Player("Ann", ANN), *people("Eve")], seed=3)
    add_moves(rt, games["finished"], random.Random(3))
    clock.advance(hours=1)
    games["cancelled"] = new_game(rt, "red_black", [Player("Ann", ANN), *people("Fay")], seed=4)
    cancel_game(rt, games["cancelled"])
    games["others"] = new_game(rt, "red_black", people("Gus", "Hal"), seed=5)
    return games


def test_the_page_lists_every_game_of_the_address(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    games = ann_games(rt, clock)
    assert ask(client, ANN)[0] == 200
    page = client.get(my_path(link_mail(app, ANN).text_body))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    order = [games[k] for k in ("due", "no_limit", "not_hers", "cancelled", "finished")]
    listed = client.get("/api" + my_path(link_mail(app, ANN).text_body)).get_json()
    assert [g["game_id"] for g in listed["games"]] == order
    assert [g["your_move"] for g in listed["games"]] == [True, True, False, False, False]
    assert [g["status"] for g in listed["games"]] == ["active"] * 3 + ["cancelled", "finished"]
    assert listed["games"][0]["due"] is not None and listed["games"][1]["due"] is None  # a deadline first
    for game in listed["games"]:  # each with the seat's own link, which opens that seat
        seat = client.get("/api" + game["link"].removeprefix("http://localhost")).get_json()
        assert seat["game_id"] == game["game_id"] and seat["players"][seat["seat"]] == "Ann"
        # the page and the API sign the same seat, each at its own second: compare what is signed
        assert signed_payload(game["link"]) in html
    assert "Gus" not in without_links(html) and "Your move" in html and "due " in html
    assert (
        html.index("Ann, Cy")
        < html.index("Ann, Bo")
        < html.index("Di, Ann")
        < html.index("Ann, Fay")
        < html.index("Ann, Eve")
    )


def test_the_settings_form_sets_every_game_of_the_address(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    games = ann_games(rt, clock)
    ask(client, ANN)
    page = my_path(link_mail(app, ANN).text_body)
    assert post_form(client, page, "/settings", notify="digest", timezone="Europe/Paris").status_code == 303
    for key in ("due", "no_limit", "not_hers", "finished"):
        table = rt.read_table(games[key])
        (seat,) = [s for s in table.seats if s.email.lower() == ANN]
        assert (seat.notify, seat.timezone) == ("digest", "Europe/Paris")
    assert {s.notify for s in rt.read_table(games["others"]).seats} == {"turn"}
    assert client.get("/api" + page).get_json()["settings"] == {
        "notify": "digest",
        "timezone": "Europe/Paris",
    }
    response = client.post(f"/api{page}/settings", json={"notify": "none"})
    assert response.status_code == 200 and response.get_json()["seats"] == 5
    assert client.post(f"/api{page}/settings", json={"notify": "loud"}).status_code == 422
    assert client.post(f"/api{page}/settings", json={"colour": "red"}).status_code == 400
    assert rt.read_table(games["no_limit"]).seats[0].notify == "none"


def test_the_request_flow_over_real_smtp(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = create_app(app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    with app.app_context():
        create_game(app.extensions["pbem"], "red_black", people("Ann", "Bo"), HOST)
        client = app.test_client()
        assert ask(client, "  Ann@Example.org ")[0] == 200
        (mail,) = [m for m in smtp_sink.collector.to("Ann@Example.org") if "Your games" in m["Subject"]]
        text = next(p for p in mail.walk() if p.get_content_type() == "text/plain").get_payload(decode=True)
        assert isinstance(text, bytes)
        page = client.get(my_path(text.decode()))
        assert page.status_code == 200 and "Ann, Bo" in page.get_data(as_text=True)
        # the invitation's footer links to the same list, signed for its reader
        (invitation,) = [m for m in smtp_sink.collector.to(ANN) if "invited" in headline(m)]
        body = next(p for p in invitation.walk() if p.get_content_type() == "text/plain").get_payload(
            decode=True
        )
        assert "/my/" in body.decode()  # decoded: a long quoted-printable line may break inside the link


def test_no_answer_tells_whether_an_address_has_games(app: Flask, client: FlaskClient) -> None:
    rt, _ = stepping(app, MONDAY)
    create_game(rt, "red_black", people("Ann", "Bo"), HOST)
    known, unknown = ask(client, ANN), ask(client, NOBODY)
    assert known == unknown and known[0] == 200
    json_known = client.post("/api/my-games", json={"email": ANN})
    json_unknown = client.post("/api/my-games", json={"email": NOBODY})
    assert (json_known.status_code, json_known.get_json()) == (
        json_unknown.status_code,
        json_unknown.get_json(),
    )
    assert len(mails(app, to=ANN, kind="my_games")) == len(mails(app, to=NOBODY, kind="my_games"))
    nobody = client.get(my_path(link_mail(app, NOBODY).text_body))
    assert nobody.status_code == 200 and "No game of yours is running." in nobody.get_data(as_text=True)
    # the limit counts requests, whoever's the address
    for email in (ANN, NOBODY):
        for _ in range(ADDRESS_LIMIT - 2):
            assert client.post("/api/my-games", json={"email": email}).status_code == 202
    limited = [client.post("/api/my-games", json={"email": e}) for e in (ANN, NOBODY)]
    assert [r.status_code for r in limited] == [429, 429]
    assert limited[0].get_json() == limited[1].get_json()
    assert ask(client, "ANN@example.org")[0] == 429  # the same address, whatever its case
    assert len(mails(app, kind="my_games")) == 2 * ADDRESS_LIMIT


def test_the_limit_per_client_and_its_hour(app: Flask, client: FlaskClient) -> None:
    _, clock = stepping(app, MONDAY)
    answers = [client.post("/api/my-games", json={"email": f"p{n}@x.org"}).status_code for n in range(12)]
    assert answers == [202] * 10 + [429] * 2
    clock.advance(hours=1, seconds=1)
    assert client.post("/api/my-games", json={"email": "p0@x.org"}).status_code == 202


def test_bad_links_and_requests_are_refused_and_change_nothing(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    game_id = create_game(rt, "red_black", people("Ann", "Bo"), HOST)
    footer = my_path(mails(app, to=ANN, kind="invitation")[0].text_body)
    bo = my_path(mails(app, to="bo@example.org", kind="invitation")[0].text_body)
    assert client.get("/api" + bo).get_json()["email"] == "bo@example.org"  # Bo's link: Bo's games only
    assert client.get(footer).status_code == 200  # the invitation's footer link works...
    clock.advance(minutes=1)
    ask(client, ANN)
    asked = my_path(link_mail(app, ANN).text_body)
    assert client.get(footer).status_code == 200  # a request (anyone's) revokes nothing...
    clock.advance(minutes=1)
    stopped = post_form(client, asked, "/revoke")  # ...the owner does, from a link they hold
    assert stopped.status_code == 200 and "no longer works" in stopped.get_data(as_text=True)
    fresh = my_path(link_mail(app, ANN).text_body)
    for old in (footer, asked):
        revoked = client.get(old)
        assert revoked.status_code == 403 and "replaced" in revoked.get_data(as_text=True)
    assert client.get(bo).status_code == 200  # another address's link is untouched
    player = play_path(mails(app, to=ANN, kind="invitation")[0]).removeprefix("/play/")  # a seat's token
    token = fresh.removeprefix("/my/")
    for forged in (token[:-2] + "xx", player, "nonsense"):
        assert client.get(f"/my/{forged}").status_code == 403
        assert client.get(f"/api/my/{forged}").get_json()["status"] == 403
        assert client.post(f"/api/my/{forged}/settings", json={"notify": "none"}).status_code == 403
    assert client.post(f"{fresh}/settings", data={"notify": "none"}).status_code == 400  # no CSRF token
    assert rt.read_table(game_id).seats[0].notify == "turn"
    assert client.post("/api/my-games", json={"email": "not an address"}).status_code == 422
    assert client.post("/api/my-games", json={"email": ANN, "x": 1}).status_code == 400
    assert ask(client, "ann@")[0] == 422
    clock.advance(days=31)
    expired = client.get(fresh)
    assert expired.status_code == 403 and "expired" in expired.get_data(as_text=True)
    assert len(mails(app, kind="my_games")) == 2  # the one asked for, the one after the revocation


def test_a_stranger_asking_revokes_nothing_and_is_limited_by_the_day(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    create_game(rt, "red_black", people("Ann", "Bo"), HOST)
    held = my_path(mails(app, to=ANN, kind="invitation")[0].text_body)
    answers = []
    for _ in range(3):  # a stranger asks as often as the hourly limit lets them, hour after hour
        stranger = app.test_client()
        answers += [stranger.post("/api/my-games", json={"email": ANN}).status_code for _ in range(4)]
        clock.advance(hours=1, seconds=1)
    assert answers == [202, 202, 202, 429, 202, 202, 202, 429, 429, 429, 429, 429]
    assert len(mails(app, to=ANN, kind="my_games")) == ADDRESS_DAILY_LIMIT
    assert client.get(held).status_code == 200  # the owner's link still works
    clock.advance(days=1)
    assert app.test_client().post("/api/my-games", json={"email": ANN}).status_code == 202
    api = client.post("/api" + held + "/revoke")  # the JSON twin of the owner's revocation
    assert api.status_code == 202 and api.get_json()["status"] == "revoked"
    assert client.get(held).status_code == 403
    assert client.get(my_path(link_mail(app, ANN).text_body)).status_code == 200


def test_a_tag_or_a_case_does_not_make_a_new_address_to_ask_for(app: Flask) -> None:
    """ann+1@, ANN+2@ and ann@ reach one mailbox: a stranger cannot triple its hourly limit."""
    asked = [
        app.test_client().post("/api/my-games", json={"email": email}).status_code
        for email in ("ann+1@example.org", "ANN+2@example.org", "ann@example.org", "ann+3@example.org")
    ]
    assert asked == [202] * ADDRESS_LIMIT + [429]
    assert app.test_client().post("/api/my-games", json={"email": "annie@example.org"}).status_code == 202


def test_every_mail_links_to_its_readers_games(app: Flask, client: FlaskClient) -> None:
    rt, clock = stepping(app, MONDAY)
    game_id = create_game(rt, "red_black", people("Ann", "Bo"), HOST)
    table = rt.read_table(game_id)
    context = {**CONTEXT, "rotate": True, "until": "soon"}
    for kind in MailKind:
        if not kind.about_one_game:
            continue  # the digest: below; "my games" and the confirmation: their own tests
        for seat, email in ((0, ANN), (None, "host@example.org")):
            mail = draft_mail(rt, table, kind, seat, context)
            assert mail is not None
            for body in (mail.text_body, mail.html_body):
                assert client.get("/api" + my_path(body)).get_json()["email"] == email, kind
    client.post(
        f"/api{play_path(mails(app, to=ANN, kind='invitation')[0])}/settings", json={"notify": "digest"}
    )
    clock.advance(hours=24)
    send_due_digests(rt)
    (digest,) = mails(app, kind="digest")
    assert client.get("/api" + my_path(digest.html_body)).get_json()["games"][0]["game_id"] == game_id


def test_games_of_one_title_and_table_are_told_apart_your_move_first(app: Flask, client: FlaskClient) -> None:
    """Three games of Red and Black Duel between Ann and Bo, two of them a series: each item says
    where play stands, when the game began, whose move it is since when, and its place in a series."""
    rt, clock = stepping(app, MONDAY)
    first = create_game(rt, "red_black", [Player("Ann", ANN), *people("Bo")], HOST, seed=3)
    add_moves(rt, first, random.Random(3))
    assert propose_rematch(rt, first, 1, rotate=False) is None  # Bo proposes, Ann accepts
    rematch = answer_rematch(rt, first, 0, accept=True)
    assert rematch is not None
    clock.advance(days=1)
    other = create_game(rt, "red_black", [Player("Ann", ANN), *people("Bo")], HOST, seed=4)
    play(rt, other, 0)  # now it waits on Bo
    assert ask(client, ANN)[0] == 200
    body = link_mail(app, ANN).text_body  # to an address, with no name to greet
    assert "\nHello,\n" in body and "Hello ," not in body
    path = my_path(body)
    listed = {g["game_id"]: g for g in client.get("/api" + path).get_json()["games"]}
    assert listed[rematch]["your_move"] and not listed[other]["your_move"]
    assert listed[rematch]["series"] == {"match": 2, "matches": 2}
    assert listed[first]["series"] == {"match": 1, "matches": 2} and listed[other]["series"]["matches"] == 1
    assert listed[rematch]["since"] is not None and listed[other]["waiting"][0]["name"] == "Bo"
    assert all(game["stage"].startswith("Round ") for game in listed.values())  # where play stands
    html = client.get(path).get_data(as_text=True)
    items = {
        game: " ".join(
            re.sub(r"<[^>]+>", " ", html.split(f'data-game="{game}"')[1].split("</li>")[0]).split()
        )
        for game in listed
    }
    assert "Your move since " in items[rematch] and "match 2 of 2 in a series of rematches" in items[rematch]
    assert "Waiting for Bo since " in items[other] and "series" not in items[other]
    assert all("started " in item and listed[game]["stage"] in item for game, item in items.items())
    assert html.index(f'data-game="{rematch}"') < html.index(f'data-game="{other}"')  # your move first
