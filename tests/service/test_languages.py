"""Each reader in their own language: the Japanese catalogue is complete, the table's language and a
seat's own choice decide pages and mails, and a mixed table's mails reach each reader in theirs."""

from __future__ import annotations

import email.header
import re
import subprocess
import sys
from email.message import Message
from pathlib import Path

import pytest
from babel.messages.checkers import python_format
from babel.messages.pofile import read_po
from flask import Flask, render_template_string

from service import create_app
from service.play.hosting import Player, create_game
from service.play.moves import submit_move
from tests.conftest import app_config
from tests.helpers import mails, play_path
from tests.smtp_sink import SmtpSink

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "service" / "translations" / "ja" / "LC_MESSAGES" / "messages.po"
KANA = re.compile(r"[\u3040-\u30ff]")
PARAMETER = re.compile(r"%\((\w+)\)")


def parameters(*texts: str) -> set[str]:
    return {name for text in texts for name in PARAMETER.findall(text)}


def extracted_messages(tmp_path: Path) -> list[str | tuple[str, ...]]:
    """Every message of the code and templates, extracted as a translator would."""
    pot = tmp_path / "messages.pot"
    pybabel = str(Path(sys.executable).parent / "pybabel")
    command = [pybabel, "--quiet", "extract", "-F", "babel.cfg", "-k", "_l", "-k", "N_", "-o", str(pot), "."]
    subprocess.run(command, cwd=ROOT, check=True)
    with pot.open("rb") as handle:
        return [message.id for message in read_po(handle) if message.id]


def test_the_japanese_catalogue_translates_every_message_and_keeps_its_parameters(tmp_path: Path) -> None:
    with CATALOGUE.open("rb") as handle:
        catalogue = read_po(handle, locale="ja")
    untranslated = [
        message_id
        for message_id in extracted_messages(tmp_path)
        if not (found := catalogue.get(message_id)) or not found.string or found.fuzzy
    ]
    assert untranslated == [], (
        f"{len(untranslated)} messages lack a Japanese translation: {untranslated[:10]}"
    )
    for message in catalogue:
        if not message.id or not message.python_format:
            continue
        if isinstance(message.id, str):
            python_format(catalogue, message)  # raises TranslationError for a dropped or new parameter
        else:  # Japanese has one form for every count: it needs the plural's parameters
            (translation,) = message.string
            assert parameters(message.id[1]) <= parameters(translation) <= parameters(*message.id), message.id


def mixed_table(app: Flask) -> str:
    """Ann (the table's English) and Bo, who chose Japanese from his page's switch."""
    rt = app.extensions["pbem"]
    players = [Player("Ann", "ann@example.org"), Player("ぼー", "bo@example.org")]
    game_id = create_game(rt, "red_black", players, players[0], seed=3, language="en")
    bo_page = play_path(mails(app, to="bo@example.org", kind="invitation")[0])
    client = app.test_client()
    page = client.get(bo_page).get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf, "the language switch is a form on the page"
    switched = client.post(
        "/language",
        data={"lang": "ja", "next": bo_page, "token": bo_page.rsplit("/", 1)[1], "csrf_token": csrf.group(1)},
    )
    assert switched.status_code == 303 and switched.location == bo_page
    return game_id


def play_a_move(app: Flask, game_id: str) -> None:
    rt = app.extensions["pbem"]
    table = rt.read_table(game_id)
    seat = min(table.rules.to_act(table.state))
    submit_move(rt, game_id, seat, table.version, table.rules.legal_actions(table.state, seat)[0])


def plain_text(message: Message) -> str:
    part = next(part for part in message.walk() if part.get_content_type() == "text/plain")
    return part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")


def subject(message: Message) -> str:
    return str(email.header.make_header(email.header.decode_header(message["Subject"])))


def test_a_mixed_table_mails_each_player_in_their_own_language(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    app = create_app(app_config(tmp_path, None, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_sink.port))
    with app.app_context():
        game_id = mixed_table(app)
        for _ in range(3):
            play_a_move(app, game_id)
    ann, bo = smtp_sink.collector.to("ann@example.org"), smtp_sink.collector.to("bo@example.org")
    later_to_bo = bo[1:]
    assert ann and later_to_bo, "both players were mailed after the switch"
    for message in ann:
        in_english = subject(message).replace("ぼー", "")  # the title names the players
        assert message["Content-Language"] == "en" and not KANA.search(in_english), subject(message)
    for message in later_to_bo:
        body = plain_text(message)
        assert message["Content-Language"] == "ja" and KANA.search(subject(message)), subject(message)
        assert "=?utf-8?" in message["Subject"].lower(), "a Japanese subject goes out RFC 2047-encoded"
        assert KANA.search(body) and "Hello" not in body
    assert "ぼー" in str(email.header.make_header(email.header.decode_header(bo[0]["To"])))


def test_the_switch_keeps_the_language_for_that_link_only(tmp_path: Path) -> None:
    app = create_app(app_config(tmp_path, None))
    with app.app_context():
        mixed_table(app)
        ann_page = play_path(mails(app, to="ann@example.org", kind="invitation")[0])
        bo_page = play_path(mails(app, to="bo@example.org", kind="invitation")[0])
    fresh = app.test_client()  # another browser: no cookie, so the link alone decides
    assert '<html lang="ja">' in fresh.get(bo_page).get_data(as_text=True)
    assert '<html lang="en">' in fresh.get(ann_page).get_data(as_text=True)
    api = fresh.get("/api" + ann_page + "?lang=ja")
    assert api.status_code == 200 and api.get_json()["seat"] == 0


def test_the_switch_refuses_an_unknown_language_and_changes_nothing(tmp_path: Path) -> None:
    app = create_app(app_config(tmp_path, None, WTF_CSRF_ENABLED=False))
    with app.app_context():
        mixed_table(app)
        ann_page = play_path(mails(app, to="ann@example.org", kind="invitation")[0])
    client = app.test_client()
    page = client.get(ann_page).get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf
    refused = client.post(
        "/language",
        data={
            "lang": "xx",
            "next": ann_page,
            "token": ann_page.rsplit("/", 1)[1],
            "csrf_token": csrf.group(1),
        },
    )
    assert refused.status_code == 400
    assert '<html lang="en">' in app.test_client().get(ann_page).get_data(as_text=True)


def test_a_table_created_in_japanese_invites_in_japanese_with_dates_in_japanese(tmp_path: Path) -> None:
    from service.play.time_control import TimeControl

    app = create_app(app_config(tmp_path, None))
    with app.app_context():
        rt = app.extensions["pbem"]
        players = [Player("あん", "ann@example.org"), Player("ぼー", "bo@example.org")]
        create_game(
            rt,
            "red_black",
            players,
            players[0],
            seed=3,
            control=TimeControl(move_days=1, timezone="Asia/Tokyo"),
            language="ja",
        )
    invitation = mails(app, to="ann@example.org", kind="invitation")[0]
    assert KANA.search(invitation.subject) and invitation.language == "ja"
    assert "あなた専用のリンク" in invitation.text_body
    page = app.test_client().get(play_path(invitation)).get_data(as_text=True)
    assert re.search(r"\d+月\d+日\([月火水木金土日]\)", page), (
        "times on the page are written the Japanese way"
    )


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example/",
        "/\n/evil.example/",
        "\\\\evil.example/",
        "/\\evil.example/",
        "//evil.example/",
        " //evil.example/",
        "https://evil.example/",
        "\x01https://evil.example/",
        "javascript:alert(1)",
        "evil.example",
    ],
)
def test_the_switch_goes_back_only_to_a_page_of_this_site(tmp_path: Path, target: str) -> None:
    app = create_app(app_config(tmp_path, None))
    client = app.test_client()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True))
    assert csrf
    form = {"lang": "ja", "csrf_token": csrf.group(1)}
    answer = client.post("/language", data={**form, "next": target})
    assert answer.status_code == 303 and answer.headers["Location"] == "/", target
    kept = client.post("/language", data={**form, "next": "/rules/dualis?table=1"})
    assert kept.headers["Location"] == "/rules/dualis?table=1"
    app.extensions["pbem"].engine.dispose()


def test_a_template_says_its_words_in_the_readers_language_formatted_and_escaped(tmp_path: Path) -> None:
    """Templates translate through the app's catalogues as Jinja's new-style gettext does: the text
    translated, its variables escaped, `%%` a plain `%` even in a text without variables."""
    app = create_app(app_config(tmp_path, None))
    template = (
        '{{ _("Your move") }}|{{ _("Mail to %(name)s is not arriving", name="<b>Bo</b>") }}'
        '|{{ _("All in: 100%%") }}|{{ ngettext("%(num)d draw", "%(num)d draws", 2) }}'
    )
    with app.test_request_context("/?lang=ja"):
        japanese = render_template_string(template)
    with app.test_request_context("/?lang=en"):
        english = render_template_string(template)
    assert japanese.split("|") == [
        "あなたの番",
        "&lt;b&gt;Bo&lt;/b&gt;さんへのメールが届いていません",
        "All in: 100%",
        "引き分け2回",
    ]
    assert english == "Your move|Mail to &lt;b&gt;Bo&lt;/b&gt; is not arriving|All in: 100%|2 draws"
