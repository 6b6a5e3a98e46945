"""An HTML mail as plain text, its quoted history marked as a plain mail marks it ("> " lines), and
nothing a reader cannot see: what mail programs hide (`<style>`, `<template>`, `display:none`) is
dropped. Built on the standard library's tokenizer; the quote markers are the ones each mail program
writes (the same markers quotequail and talon look for)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

# Elements whose content is never text a person reads in a mail.
UNSEEN_TAGS = frozenset({"head", "title", "style", "script", "template", "noscript", "xml", "svg", "object"})
VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
BLOCK_TAGS = frozenset(
    {"p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section"}
)
# Quoted history, each as a mail program marks it: Gmail, Yahoo, Thunderbird's attribution, Apple
# Mail's and everyone's blockquote, Samsung and K-9's quote divs, Zimbra.
QUOTE_CLASSES = frozenset(
    {
        "gmail_quote",
        "gmail_attr",
        "yahoo_quoted",
        "moz-cite-prefix",
        "quote",
        "zmail_extra",
        "protonmail_quote",
    }
)
# Outlook (desktop, web, mobile) writes its quoted mail after these, as siblings, not inside them.
REST_QUOTED_IDS = frozenset({"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"})
HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all", re.IGNORECASE)


@dataclass
class _Open:
    """An element open now, and whether its text is unseen or quoted: by itself or by an element it
    lies in (so that the innermost one tells, whatever closes)."""

    tag: str
    unseen: bool
    quoted: bool


class TextReader(HTMLParser):
    """Collects the text, line by line, each line marked quoted or not; `text()` once fed and closed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[bool, str]] = []  # (quoted, text)
        self.current: list[str] = []
        self.current_quoted = False
        self.stack: list[_Open] = []
        self.rest_quoted = False  # past Outlook's quoted-mail marker: everything after is quoted

    def unseen(self) -> bool:
        return bool(self.stack) and self.stack[-1].unseen

    def quoted(self) -> bool:
        return self.rest_quoted or (bool(self.stack) and self.stack[-1].quoted)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): (value or "") for name, value in attrs}
        classes = set(values.get("class", "").lower().split())
        if values.get("id", "").lower() in REST_QUOTED_IDS:
            self.break_line()
            self.rest_quoted = True
        if tag in ("br", "hr") or tag in BLOCK_TAGS:
            self.break_line()
        if tag in VOID_TAGS:
            return
        hidden = "hidden" in values or bool(HIDDEN_STYLE.search(values.get("style", "")))
        unseen = tag in UNSEEN_TAGS or hidden or self.unseen()
        inside_quote = bool(self.stack) and self.stack[-1].quoted
        quoted = tag == "blockquote" or bool(classes & QUOTE_CLASSES) or inside_quote
        self.stack.append(_Open(tag, unseen, quoted))

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCK_TAGS or tag == "blockquote":
            self.break_line()
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth].tag == tag:  # close it and whatever was left open inside it
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        if not self.unseen():
            if self.current and self.current_quoted != self.quoted():
                self.break_line()
            self.current_quoted = self.quoted()
            self.current.append(data)

    def text(self) -> str:
        """What was read, one line per block; quoted history as "> " lines."""
        self.break_line()
        lines = [("> " + text if quoted and text else text) for quoted, text in self.lines]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()

    def break_line(self) -> None:
        text = re.sub(r"[ \t\r\n\xa0]+", " ", "".join(self.current)).strip()
        if text:  # one line per block that shows text: nested blocks make no blank lines
            self.lines.append((self.current_quoted, text))
        self.current = []


def html_to_text(markup: str) -> str:
    """The text of an HTML mail, one line per block; quoted history as "> " lines, unseen parts
    dropped."""
    reader = TextReader()
    reader.feed(markup)
    reader.close()
    return reader.text()
