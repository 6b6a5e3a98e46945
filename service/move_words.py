"""Moves in words: each game's ways of writing a legal action, in English and Japanese and by its
card codes (the rules' own card names and action words, said in each language by the catalogue), so
that a reply reads the words the pages and mails show. The reply reader
(`service/replies/move_reader.py`) matches a reply against these phrases; a mail writes a move with
`move_in_words`, the text its `mailto:` links put in a reply's body, which the reader reads back as
exactly that move.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import force_locale, get_locale

from rules import card_name
from rules.double_side import cards as double_side
from rules.dualis import cards as dualis
from rules.dupli import cards as dupli
from rules.messages import N_, Message, is_message, word
from rules.red_black import cards as red_black
from service.eventlog.store import Table
from service.i18n import DEFAULT_LANGUAGE, LANGUAGES, say

# A way to write one action: words that must all appear (a word twice: twice), words that must not.
Words = tuple[str, ...]


@dataclass(frozen=True)
class Phrase:
    words: Words
    absent: Words = ()
    codes: Words = ()  # card codes, matched in their own case (a code like "AS" is also a word)
    language: str | None = None  # the language of its words (None: codes only)
    text: str = ""  # the words as the pages write them ("8 of hearts"), for a refusal's list


def move_in_words(table: Table, seat: int, action: dict[str, Any]) -> str:
    """A move as the reader's language writes it, with its codes: "Moon 3 Blue coin (M3B)"."""
    return example(PHRASINGS[table.record.game](table, seat, action), speaking_language())


def move_label_and_words(table: Table, seat: int, action: dict[str, Any]) -> tuple[str, str]:
    """A move's `move_label` and `move_in_words`, its phrases made once (a mail offers every legal
    move both ways)."""
    phrases = PHRASINGS[table.record.game](table, seat, action)
    language = speaking_language()
    return label(phrases, language), example(phrases, language)


def speaking_language() -> str:
    """The language being spoken now: the request's, or a mail's while it is drafted (`force_locale`,
    in a worker too, where `i18n.reader_language` answers English)."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def normalised(text: str) -> str:
    """Full-width letters and digits as ASCII (NFKC), punctuation as spaces."""
    return re.sub(r"[^\w\s]", " ", unicodedata.normalize("NFKC", text))


def score(phrase: Phrase, folded: str, coded: str) -> int:
    """How many words of the phrase the text holds (0 unless it holds all, and none of the absent)."""
    needed = Counter(word.lower() for word in phrase.words)
    if any(count_of(word, folded) < times for word, times in needed.items()):
        return 0
    if any(count_of(word.lower(), folded) for word in phrase.absent):
        return 0
    if any(count_of(code, coded) < times for code, times in Counter(phrase.codes).items()):
        return 0  # a pair of the same card is written with its code twice
    return sum(needed.values()) + len(phrase.codes)


def count_of(word: str, text: str) -> int:
    """How often a word stands in the text: a whole word for Latin letters and digits, anywhere for
    Japanese (written without spaces)."""
    if word.isascii():
        return len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", text))
    return text.count(word)


def example(phrases: Iterable[Phrase], language: str) -> str:
    """An action as a refusal lists it: its words in the reader's language, and its codes."""
    ways = list(phrases)
    words = next((p.text or " ".join(p.words) for p in ways if p.language == language and p.words), "")
    codes = next((" ".join(p.codes) for p in ways if p.codes), "")
    if words.lower() == codes.lower():  # codes that are the words (Dupli's): written once, so that
        return words  # a reply does not name each card twice (read as a pair of the same card)
    return f"{words} ({codes})" if words and codes else words or codes


def in_each_language(*messages: Message, absent: Message | None = None) -> list[Phrase]:
    """Messages said in each language: the words a person writes for an action (a card's name says
    its parameters: "Star", "9", "Blue"), none of `absent`'s words in the text."""
    said = []
    never = tuple(said_everywhere(absent)) if absent else ()
    for language in LANGUAGES:
        with force_locale(language):
            words = tuple(word for message in messages for word in words_of(message))
            text = " ".join(say(message) for message in messages)
            said.append(Phrase(words, never, language=language, text=text))
    return said


def said_everywhere(message: Message) -> list[str]:
    said = []
    for language in LANGUAGES:
        with force_locale(language):
            said.extend(words_of(message))
    return said


def words_of(message: Message) -> list[str]:
    _, params = message
    if not params:
        return [say(message)]
    said = (words_of(value) if is_message(value) else [str(value)] for value in params.values())
    return [word for words in said for word in words]


def card_phrases(
    game: str, cards: list[str], *how: str | None, extra: Message | None = None, absent: Message | None = None
) -> list[Phrase]:
    """A card play (or a pair) written by its codes or its names, with an extra word (a coin)."""
    names = [card_name(game, card, *how) for card in cards]
    extras = (extra,) if extra else ()
    # A bare code is the play without the extra (a coin is written out: "S9B coin").
    ways = [[say_in(language, extra)] for language in LANGUAGES] if extra else [[]]
    by_code = [
        Phrase(tuple(words), tuple(said_everywhere(absent)) if absent else (), codes=tuple(cards))
        for words in ways
    ]
    return [*in_each_language(*names, *extras, absent=absent), *by_code]


def say_in(language: str, message: Message) -> str:
    with force_locale(language):
        return say(message)


# --- each game's ways of writing its actions ------------------------------------------------------------

COIN = word(N_("coin"))
FOLD = word(N_("fold"))
TRUMP = word(N_("trump"))
AIM = word(N_("aim"))
NOTHING = word(N_("nothing"))
SPEND = word(N_("spend"))
KEEP = word(N_("keep"))


def dualis_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if action.get("coin"):
        return card_phrases("dualis", [action["card"]], extra=COIN)
    return card_phrases("dualis", [action["card"]], absent=COIN)


def double_side_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if "trump" in action:
        return in_each_language(TRUMP, word(double_side.COLOUR_NAMES[action["trump"]]))
    side = table.rules.view(table.state, seat)["side"]
    return card_phrases("double_side", [action["card"]], side)


def dupli_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if "set" in action:
        return card_phrases("dupli", list(action["set"]))
    if "target" in action:
        target = action["target"]
        if target is None:
            return in_each_language(AIM, NOTHING)
        owner = table.names[target["seat"]]
        return in_each_language(AIM, word(owner), word(str(target["slot"] + 1)))
    return in_each_language(SPEND if action["cancel"] else KEEP)


def red_black_phrases(table: Table, seat: int, action: dict[str, Any]) -> list[Phrase]:
    if action.get("fold"):
        return in_each_language(FOLD)
    return card_phrases("red_black", [action["card"]])


DECKS: dict[str, Iterable[str]] = {
    "dualis": dualis.CARDS,
    "double_side": double_side.DECK,
    "dupli": dupli.CARD_NAMES,
    "red_black": red_black.DECK,
}

PHRASINGS: dict[str, Callable[[Table, int, dict[str, Any]], list[Phrase]]] = {
    "dualis": dualis_phrases,
    "double_side": double_side_phrases,
    "dupli": dupli_phrases,
    "red_black": red_black_phrases,
}


def move_label(table: Table, seat: int, action: dict[str, Any]) -> str:
    """A move in the reader's words only, as a mail's button names it: "Moon 3 Blue coin"."""
    return label(PHRASINGS[table.record.game](table, seat, action), speaking_language())


def label(phrases: Iterable[Phrase], language: str) -> str:
    """The words of the phrases in `language`, as the pages write them."""
    return next((p.text or " ".join(p.words) for p in phrases if p.language == language and p.words), "")
