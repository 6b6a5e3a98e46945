"""The table in a mail: the seat's first screen of its page (whose move, the game at a glance, the
hand) drawn by the page's own partials from the reader's context, and each legal move offered with
one tap two ways: a link opening the page with that move chosen (one more tap confirms it; the GET
changes nothing) and a `mailto:` link to the seat's reply address whose body is the move in words,
which the reply reader reads back as exactly that move.

Mail programs ignore a page's stylesheet (Gmail drops <style> in many cases, Outlook most of it), so
the partials' classes are turned into inline styles here, and the text part is the same HTML read
as lines (`TextReader`, in the same pass): one source for both parts, and a rule of the game is
written once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape, unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

from flask import render_template
from markupsafe import Markup

from service.eventlog.store import Table
from service.mail.html_text import TextReader
from service.reading import MoveGroup, seat_table
from service.runtime import Runtime

# The page's classes (service/static/*.css) as inline styles that Gmail, Apple Mail and Outlook draw.
CLASS_STYLES = {
    "panel": "border:1px solid #d8d8de;border-radius:8px;padding:6px 8px;margin:8px 0;",
    "glance-line": "margin:2px 0;",
    "seat-counts": "list-style:none;padding:0;margin:4px 0;",
    "to-move": "font-weight:600;",
    "trick-row": "border-top:1px solid #e4e4ea;padding-top:3px;margin-top:3px;",
    "cards": "list-style:none;padding:0;margin:4px 0;",
    "card": "display:inline-block;border:1px solid #1d1d1f;border-radius:6px;padding:2px 5px;"
    "min-width:36px;text-align:center;background:#ffffff;color:#1d1d1f;line-height:1.25;",
    "red": "color:#b3261e;border-color:#b3261e;",
    "blue": "color:#1f5fbf;border-color:#1f5fbf;",
    "black": "color:#1d1d1f;border-color:#1d1d1f;",
    "green": "color:#1e6b35;border-color:#1e6b35;",
    "yellow": "color:#7a5a00;border-color:#b08800;",
    "dim": "border-style:dashed;background:#efeff2;",
    "win": "background:#fff4c2;",
    "down": "background:#e4e4ea;",
    "face": "font-size:17px;font-weight:700;",
    "muted": "color:#5f6368;",
    "turn": "margin:2px 0;font-weight:600;",
}
TAG_STYLES = {
    "h2": "font-size:16px;margin:4px 0;",
    "h3": "font-size:15px;margin:4px 0;",
    "p": "margin:3px 0;",
    "small": "font-size:13px;",
}
# Where mail/_table.html's moves go (the table is drawn once, the moves only in the HTML part).
MOVES_SLOT = "<!--moves-->"
# An item of a list of cards sits beside the others, as the page's flex row draws it.
CARD_ITEM = "display:inline-block;vertical-align:top;margin:0 4px 4px 0;text-align:center;font-size:13px;"
VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area", "source"})


class _Inliner(HTMLParser):
    """Re-writes HTML with each element's classes as its inline style (its own style last, so that it
    wins); the text and entities as they were."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.out: list[str] = []
        self.stack: list[set[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        style = TAG_STYLES.get(tag, "") + "".join(
            style for name, style in CLASS_STYLES.items() if name in classes
        )
        if tag == "li" and self.stack and "cards" in self.stack[-1]:
            style = CARD_ITEM + style
        own = dict(attrs).get("style") or ""
        kept = [(name, value) for name, value in attrs if name != "style"]
        if style or own:
            kept.append(("style", style + own))
        written = "".join(
            f" {name}" if value is None else f' {name}="{escape(value)}"' for name, value in kept
        )
        self.out.append(f"<{tag}{written}>")
        if tag not in VOID:
            self.stack.append(classes)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        if f"<!--{data}-->" == MOVES_SLOT:  # kept, for the moves to be put in
            self.out.append(MOVES_SLOT)


class _InlinerReading(_Inliner):
    """Styles inlined and, from the same tokens, the text read as lines for a terminal mail client:
    one line per block, list items as "- ". The tokenizer costs more than both readers of its tokens."""

    def __init__(self) -> None:
        super().__init__()
        self.reader = TextReader()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        self.reader.handle_starttag(tag, attrs)
        self._list_mark(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        super().handle_starttag(tag, attrs)
        self.reader.handle_starttag(tag, attrs)
        self.reader.handle_endtag(tag)
        self._list_mark(tag)

    def _list_mark(self, tag: str) -> None:
        if tag == "li":
            self.reader.handle_data("- ")

    def handle_endtag(self, tag: str) -> None:
        super().handle_endtag(tag)
        self.reader.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        super().handle_data(data)
        self.reader.handle_data(data)

    def handle_entityref(self, name: str) -> None:
        super().handle_entityref(name)
        self.reader.handle_data(unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        super().handle_charref(name)
        self.reader.handle_data(unescape(f"&#{name};"))


def inline_styles(markup: str) -> str:
    """The HTML with the page's classes drawn as inline styles."""
    inliner = _Inliner()
    inliner.feed(markup)
    inliner.close()
    return "".join(inliner.out)


def styled_and_read(markup: str) -> tuple[str, str]:
    """The HTML with the page's classes drawn as inline styles (the moves' slot kept), and its text
    as plain lines."""
    inliner = _InlinerReading()
    inliner.feed(markup)
    inliner.close()
    return "".join(inliner.out), inliner.reader.text()


@dataclass(frozen=True)
class MoveLinks:
    """One legal move as a mail offers it: its words, the reply line, and the two links."""

    label: str
    reply: str
    choose: str
    mailto: str


@dataclass(frozen=True)
class MoveLinkGroup:
    name: str
    moves: list[MoveLinks]


@dataclass(frozen=True)
class MailTable:
    """The seat's table, drawn for both parts of a mail, and its moves with their links."""

    html: Markup
    text: str
    moves: list[MoveLinkGroup]


def chosen_action(action: dict[str, Any]) -> str:
    """An action as a `choose=` query value carries it (the page reads it back with json)."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def mailto(address: str, subject: str, body: str) -> str:
    """A mailto: link (RFC 6068) that writes a reply: to the address, with the subject and body."""
    return f"mailto:{quote(address, safe='@')}?subject={quote(subject, safe='')}&body={quote(body, safe='')}"


def reply_subject(subject: str) -> str:
    """A proper reply's subject: one "Re: " before the mail's own."""
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def move_links(groups: list[MoveGroup], link: str, reply_to: str, subject: str) -> list[MoveLinkGroup]:
    """Each move of each group with its page link (`?choose=`) and its mailto: reply."""
    return [
        MoveLinkGroup(
            group.name,
            [
                MoveLinks(
                    move.label,
                    move.reply,
                    f"{link}?choose={quote(chosen_action(move.action), safe='')}",
                    mailto(reply_to, reply_subject(subject), move.reply),
                )
                for move in group.moves
            ],
        )
        for group in groups
    ]


def ahead_links(groups: list[MoveGroup], reply_to: str, subject: str) -> list[MoveLinkGroup]:
    """Each play the seat may choose ahead, per situation, with its mailto: reply (the line
    "<situation>: <play>", read back as exactly that play). The page has no link that preselects a
    play chosen ahead, so `choose` is empty: its panel is one tap from the page's own link."""
    return [
        MoveLinkGroup(
            group.name,
            [
                MoveLinks(play.label, play.reply, "", mailto(reply_to, reply_subject(subject), play.reply))
                for play in group.moves
            ],
        )
        for group in groups
    ]


def mail_table(rt: Runtime, table: Table, seat: int, link: str, reply_to: str, subject: str) -> MailTable:
    """The seat's table for a mail about this game: its page's first screen and its moves, each with
    its page link (`link`, the seat's own) and its reply to `reply_to` under `subject`."""
    reading = seat_table(table, seat)
    moves = move_links(reading["moves"], link, reply_to, subject)
    page = reading["page"]
    # The hand is drawn as the page draws it for a seat without a move: cards, no form (the moves
    # are the links below it).
    values = {"page": page, "hand_page": {**page, "legal_actions": []}, "viewer": seat, "moves": moves}
    styled, text = styled_and_read(render_template("mail/_table.html", **values))
    styled_moves = ""
    if moves:
        styled_moves = inline_styles(render_template("mail/_moves.html", **values))
        text += "\n\n" + render_template("mail/_moves.txt", **values)
    return MailTable(Markup(styled.replace(MOVES_SLOT, styled_moves, 1)), text.strip(), moves)
