"""The create-game form's refusals speak to people: translated, and naming the game by its title (not
the rules' internal name), whether the service or the rules refused the seats."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service import create_app
from tests.conftest import app_config
from tests.helpers import forms, mails
from tests.service.test_translation import build_catalog

ALERT = re.compile(r"<p class=\"notice warn\" role=\"alert\"[^>]*>(.*?)</p>", re.S)


def create(client: FlaskClient, game: str, players: int, language: str = "en", **fields: str) -> TestResponse:
    """POST the create form of `game` with `players` people in the first seats and nothing else set
    but `fields`."""
    headers = {"Accept-Language": language}
    page = client.get(f"/new/{game}", headers=headers).get_data(as_text=True)
    data = {
        "csrf_token": forms(page)[0].fields["csrf_token"],
        "host_name": "Ann",
        "host_email": "a@example.org",
    }
    for seat in range(players):
        data[f"players-{seat}-name"], data[f"players-{seat}-email"] = f"P{seat}", f"p{seat}@example.org"
    return client.post(f"/new/{game}", data={**data, **fields}, headers=headers)


def refusal(response: TestResponse) -> str:
    """The page's one alert, as the reader sees it."""
    assert response.status_code == 422
    (alert,) = ALERT.findall(response.get_data(as_text=True))
    return html.unescape(alert)


def test_a_seat_count_the_game_never_has_is_refused_by_the_games_title(
    app: Flask, client: FlaskClient
) -> None:
    assert refusal(create(client, "red_black", 1)) == "Red and Black Duel is played by 2 players."
    assert not mails(app)


def test_a_seat_count_the_variant_refuses_is_told_with_the_counts_that_fit(
    app: Flask, client: FlaskClient
) -> None:
    # Three players may play Duālis only Iso: the rules say so, the page says it in words.
    assert refusal(create(client, "dualis", 3)) == "Duālis is played by 4 players with these options."
    assert not mails(app)


def test_the_refusal_is_in_the_readers_language(tmp_path: Path) -> None:
    build_catalog(
        tmp_path / "translations",
        {
            "Duālis": "ドゥアーリス",
            "%(title)s is played by %(counts)s players with these options.": (
                "%(title)sはこの設定では%(counts)s人で遊びます。"
            ),
        },
    )
    app = create_app(app_config(tmp_path, None, TRANSLATIONS_DIR=str(tmp_path / "translations")))
    client = app.test_client()
    assert refusal(create(client, "dualis", 3, "ja")) == "ドゥアーリスはこの設定では4人で遊びます。"
    assert refusal(create(client, "dualis", 3)) == "Duālis is played by 4 players with these options."
    app.extensions["pbem"].engine.dispose()


def test_an_empty_form_says_what_is_missing_and_creates_nothing(app: Flask, client: FlaskClient) -> None:
    page = client.get("/new/red_black").get_data(as_text=True)
    token = forms(page)[0].fields["csrf_token"]
    empty = client.post("/new/red_black", data={"csrf_token": token})
    assert refusal(empty) == "To create the game, fill in your name, your email, the players' emails."
    assert "Give your name." in empty.get_data(as_text=True)
    hosted = client.post(
        "/new/red_black", data={"csrf_token": token, "host_name": "Ann", "host_email": "a@x.org"}
    )
    assert refusal(hosted) == "To create the game, fill in the players' emails."
    assert not mails(app)


@pytest.mark.parametrize("digits", [40, 4000])
def test_a_seed_the_database_cannot_keep_is_refused_at_the_form(
    app: Flask, client: FlaskClient, digits: int
) -> None:
    """40 digits overflowed the database's integer; 4,000 overflowed WTForms' float comparison."""
    response = create(client, "red_black", 2, seed="9" * digits)
    assert response.status_code == 422
    assert "A seed is a whole number from 0 to 9223372036854775807." in response.get_data(as_text=True)
    assert not mails(app)
    largest = create(client, "red_black", 2, seed=str(2**63 - 1))
    assert largest.status_code == 303 and mails(app, kind="confirm_game")


@pytest.mark.parametrize(
    ("name", "wording"),
    [
        ("Р0", "“Р0” reads too much like “P0”, who sits at the table: choose another name."),  # Cyrillic Р
        ("p0", "“p0” reads too much like “P0”, who sits at the table: choose another name."),
        ("Ann (you)", "A name cannot read as a label of the page, like “(you)”, “host” or “Seat-keeper”."),
        ("Seat-keeper", "A name cannot read as a label of the page, like “(you)”, “host” or “Seat-keeper”."),
        ("Host", "A name cannot read as a label of the page, like “(you)”, “host” or “Seat-keeper”."),
        ("Bo (あなた)", "A name cannot read as a label of the page, like “(you)”, “host” or “Seat-keeper”."),
    ],
)
def test_a_name_passing_for_another_seat_or_a_label_is_refused(
    app: Flask, client: FlaskClient, name: str, wording: str
) -> None:
    assert (
        refusal(
            create(client, "red_black", 1, **{"players-1-name": name, "players-1-email": "x@example.org"})
        )
        == wording
    )
    assert not mails(app)
