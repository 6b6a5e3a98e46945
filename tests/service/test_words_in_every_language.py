"""Words that used to stay English whatever the reader's language: an error page's title and
Werkzeug's own sentence, the rules page refusing `?lang=`, and "and" between winners' names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from rules.messages import is_message, plain
from rules.table import closing_line
from service import create_app
from service.i18n import say
from tests.conftest import app_config


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """The app without an outer app context: each request has its own `g`, so its own language."""
    flask_app = create_app(app_config(tmp_path, None))
    yield flask_app
    flask_app.extensions["pbem"].engine.dispose()


def test_an_error_page_is_titled_through_gettext_not_by_werkzeug(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    english = client.get("/no/such/page?lang=en")
    assert english.status_code == 404
    text = english.get_data(as_text=True)
    assert "<h1>Not found</h1>" in text and "There is no page at this address." in text
    japanese = client.get("/no/such/page?lang=ja").get_data(as_text=True)
    assert '<html lang="ja">' in japanese
    assert "Not Found" not in japanese and "requested URL" not in japanese


def test_the_rules_page_takes_the_language_of_the_link(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    page = client.get("/rules/dualis?lang=ja")
    assert page.status_code == 200 and '<html lang="ja">' in page.get_data(as_text=True)
    assert client.get("/rules/dualis?lang=ja&table=yes").status_code == 400


def test_winners_are_joined_by_a_translated_word(sqlite_app: Flask) -> None:
    event = {"type": "GameForfeited", "seat": 0, "winners": [1, 2, 3]}
    msgid, params = closing_line(event, ["Ann", "Bo", "Cy", "Di"])
    assert is_message(params["winners"]) and plain((msgid, params)) == "Ann forfeited: Bo, Cy and Di win."
    with sqlite_app.test_request_context("/?lang=en"):
        assert say((msgid, params)) == "Ann forfeited: Bo, Cy and Di win."
    one = closing_line({**event, "winners": [2]}, ["Ann", "Bo", "Cy"])
    assert plain(one) == "Ann forfeited: Cy wins."
