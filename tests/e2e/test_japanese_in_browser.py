"""A table in Japanese, played in the browser: the player's page, the rules page and a mail read in
Japanese show no English word outside proper names (the players' names here are in kana, so any
Latin word on the page is English that did not go through the catalogue); screenshots of each."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, sync_playwright

from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from tests.conftest import unavailable
from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.test_first_screen import api_state, tap_a_move
from tests.helpers import mails

NAMES = ["あおい", "ひかる", "さくら", "はると"]
SEATS = {"dualis": 4, "double_side": 3, "dupli": 3, "red_black": 2}
MOVES = 4
LATIN_WORD = re.compile(r"[A-Za-zÀ-ɏ]{2,}")
# Not words: the seed commitment (a SHA-256 in hex), addresses (links in a mail, the mail's recipient).
NOT_WORDS = re.compile(r"\b[0-9a-f]{16,}\b|https?://\S+|\S+@\S+")
# Proper names that stay Latin in a Japanese text: the language switch names English in English, the
# hash function and the time zone their standard names, Dupli keeps its title (the catalogue's), and
# the rules pages' worked examples have players of their own.
PROPER = {"English", "SHA", "UTC", "Dupli", "Ann", "Bo", "Cy", "Di"}


@pytest.fixture
def ja_page() -> Iterator[Page]:
    """A headless chromium page on a phone whose browser asks for Japanese."""
    if not Path(CHROMIUM).exists():
        unavailable("chromium", FileNotFoundError(CHROMIUM))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
        yield context.new_page()
        browser.close()


def english_words(page: Page) -> set[str]:
    """The lines of the page's visible text (document.body.innerText) with a Latin word in them."""
    text = NOT_WORDS.sub("", page.evaluate("document.body.innerText"))
    return {line.strip() for line in text.splitlines() if set(LATIN_WORD.findall(line)) - PROPER}


def japanese_table(app: Flask, game: str) -> str:
    """A game created with Japanese as the table's language; its id."""
    players = [Player(name, f"p{i}@example.org") for i, name in enumerate(NAMES[: SEATS[game]])]
    with app.app_context():
        return create_game(app.extensions["pbem"], game, players, players[0], {}, seed=5, language="ja")


def link_of_seat_to_move(app: Flask, game_id: str) -> str:
    """The page of the first seat the game waits on."""
    rt = app.extensions["pbem"]
    with app.app_context():
        table = rt.read_table(game_id)
        return player_url(rt, table, min(table.rules.to_act(table.state)))


def play_in_japanese(page: Page, app: Flask, game_id: str, game: str) -> dict[str, set[str]]:
    """MOVES moves tapped on the players' pages; the lines with English each page showed, by page."""
    found: dict[str, set[str]] = {}
    for move in range(MOVES):
        link = link_of_seat_to_move(app, game_id)
        page.goto(link)
        assert page.locator("html").get_attribute("lang") == "ja"
        found[f"table before move {move + 1}"] = english_words(page)
        tap_a_move(page, game, api_state(app, link))
        page.wait_for_load_state()
        if page.locator("[name=confirmed]").count():
            page.locator("button[name=confirmed]").first.click()
            page.wait_for_load_state()
        found[f"table after move {move + 1}"] = english_words(page)
    return found


def a_mail_in_japanese(app: Flask) -> int:
    """The id of the newest "your move" mail, drafted in Japanese."""
    mail = mails(app, kind="your_turn")[-1]
    assert mail.language == "ja" and mail.id is not None
    return mail.id


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_japanese_table_shows_no_english(live_server: tuple[str, Flask], ja_page: Page, game: str) -> None:
    base, app = live_server
    game_id = japanese_table(app, game)
    found = play_in_japanese(ja_page, app, game_id, game)
    ARTIFACTS.mkdir(exist_ok=True)
    ja_page.screenshot(path=str(ARTIFACTS / f"ja-{game}-table.png"), full_page=True)
    ja_page.goto(f"{base}/rules/{game}?lang=ja")
    found["rules page"] = english_words(ja_page)
    ja_page.screenshot(path=str(ARTIFACTS / f"ja-{game}-rules.png"), full_page=True)
    ja_page.goto(f"{base}/outbox/{a_mail_in_japanese(app)}")
    found["mail"] = english_words(ja_page)
    ja_page.screenshot(path=str(ARTIFACTS / f"ja-{game}-mail.png"), full_page=True)
    english = {where: sorted(words) for where, words in found.items() if words}
    assert not english, json.dumps(english, ensure_ascii=False, indent=1)


# Where a Japanese hint in a card button may break: between its phrases, never inside one.
PHRASES = {"小さい方が勝ち": ("小さい", "方が", "勝ち"), "大きい方が勝ち": ("大きい", "方が", "勝ち")}


def line_breaks(page: Page, element: Any) -> list[int]:
    """The character offsets at which the browser starts a new line inside `element`'s text."""
    tops: list[float] = element.evaluate(
        """e => { const text = e.firstChild, range = document.createRange(), tops = [];
          for (let i = 0; i < text.length; i++) { range.setStart(text, i); range.setEnd(text, i + 1);
            tops.push(range.getBoundingClientRect().top); }
          return tops; }"""
    )
    return [i for i in range(1, len(tops)) if tops[i] > tops[i - 1] + 1]


def test_japanese_hints_in_card_buttons_break_between_phrases(
    live_server: tuple[str, Flask], ja_page: Page
) -> None:
    _, app = live_server
    players = [Player(name, f"p{i}@example.org") for i, name in enumerate(NAMES)]
    with app.app_context():
        game_id = create_game(
            app.extensions["pbem"], "dualis", players, players[0], {"high_low": True}, seed=5, language="ja"
        )
    ja_page.goto(link_of_seat_to_move(app, game_id))
    hints = ja_page.locator("ul.hand-cards button small", has_text="方が勝ち")
    assert hints.count() >= 2
    for n in range(hints.count()):
        hint = hints.nth(n)
        phrases = PHRASES[hint.inner_text().replace("\u200b", "")]
        allowed = {len("".join(phrases[:k])) for k in range(1, len(phrases))}
        breaks = line_breaks(ja_page, hint.element_handle())
        assert set(breaks) <= allowed, (hint.inner_text(), breaks)
        inside = "e => e.getBoundingClientRect().right <= e.closest('button').getBoundingClientRect().right"
        assert hint.evaluate(inside), hint.inner_text()
