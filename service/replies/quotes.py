"""The new text of a reply's plain text: quoted history and signatures dropped, wherever the writer
put their words (above the quote, below it, or between its parts).

What counts as a quote is what mail programs write, in the languages they write it in:
`>` lines; an attribution line ("On … wrote:", "2026年11月24日(火) 10:00 Ann <a@x>:", "Am … schrieb …:")
followed by `>` lines; and the unmarked quotes of Outlook and its kin, which run to the end of the
mail: a block of `From:/Sent:/To:/Subject:` lines in any language (`差出人:/送信日時:/宛先:/件名:`), a
separator (`-----Original Message-----`, `-------- 元のメッセージ --------`, a line of underscores).
The attribution and header patterns are mail-parser-reply's for its languages, extended with those it
lacks (Japanese Outlook, Portuguese, Chinese Outlook). A signature is cut from its `-- ` (or a line of
dashes) to the next quote, and the mobile mail programs' footers ("Sent from my iPhone",
"iPhoneから送信") are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mailparser_reply.constants import MAIL_LANGUAGES

QUOTE_LANGUAGES = ("en", "ja", "de", "fr", "es", "it", "nl", "zh", "sv", "da", "pl", "cs", "ko")


def _library_patterns(key: str) -> list[re.Pattern[str]]:
    return [
        re.compile(MAIL_LANGUAGES[language][key], re.IGNORECASE | re.MULTILINE)
        for language in QUOTE_LANGUAGES
        if MAIL_LANGUAGES[language].get(key)
    ]


# "On … wrote:" and its kin, one per language (a line, or two when a program wrapped it).
LIBRARY_ATTRIBUTIONS = _library_patterns("wrote_header")
# How an attribution line ends, in the languages mail programs write it in, where the library has
# no pattern (Portuguese, Japanese Apple Mail and Thunderbird, Chinese Outlook, French with a space).
ATTRIBUTION_ENDS = re.compile(
    r"(wrote|writes|schrieb|a écrit|escribió|ha scritto|escreveu|schreef|skrev|napisał|写道|寫道"
    r"|書きました|のメール|のメッセージ|>)\s*[:：]\s*$",
    re.IGNORECASE,
)
# The fields of a quoted mail's header block, in each language (first the sender's field).
SENDER_FIELDS = (
    "From|差出人|送信者|Von|De|Da|Van|Fra|Från|Od|发件人|發件人|寄件者|보낸 사람|Remitente|Expéditeur"
)
OTHER_FIELDS = (
    "Sent|Date|To|Subject|Cc|送信日時|日付|宛先|件名|CC|Gesendet|Datum|An|Betreff|Envoyé|Objet|À|Enviado|Enviada"
    "|Fecha|Para|Asunto|Assunto|Data|Inviato|Oggetto|A|Verzonden|Aan|Onderwerp|Sendt|Til|Emne|Skickat|Till|Ämne"
    "|发送时间|收件人|主题|抄送|日期|寄件日期|收件者|主旨|副本|받는 사람|보낸 날짜|제목"
)
SENDER_LINE = re.compile(rf"^[*\s]*(?:{SENDER_FIELDS})[*\s]*[:：]", re.IGNORECASE)
HEADER_LINE = re.compile(rf"^[*\s]*(?:{SENDER_FIELDS}|{OTHER_FIELDS})[*\s]*[:：]", re.IGNORECASE)
SEPARATOR = re.compile(
    r"^\s*(?:-{2,}|—+)?\s*(?:Original Message|Forwarded Message|Forwarded message|Begin forwarded message"
    r"|Message d'origine|Message transféré|Ursprüngliche Nachricht|Weitergeleitete Nachricht"
    r"|Mensaje original|Mensaje reenviado|Messaggio originale|Messaggio inoltrato|Mensagem original"
    r"|Oorspronkelijk bericht|Doorgestuurd bericht|元のメッセージ|転送メッセージ|転送されたメッセージ"
    r"|原始邮件|原始郵件|转发的邮件|Reply message|Original)\s*(?:-{2,}|—+|[:：])\s*$"
    r"|^\s*_{10,}\s*$",
    re.IGNORECASE,
)
SIGNATURE_START = re.compile(r"^\s*(?:--|[-_=―─━]{2,})\s*$")
# The footers mobile mail programs add, in their users' languages: mail-parser-reply's ("Sent from
# my", "Get Outlook for", "Gesendet von", …) and the Japanese ones it lacks.
MOBILE_FOOTERS = [
    re.compile(rf"^\s*(?:{MAIL_LANGUAGES[language]['sent_from']})\b.{{0,60}}$", re.IGNORECASE)
    for language in QUOTE_LANGUAGES
    if MAIL_LANGUAGES[language].get("sent_from")
] + [
    re.compile(r"^\s*\S.{0,40}(?:から送信|より送信|から送信されました|で送信)\s*$"),
    re.compile(r"^\s*Sent (?:from|with|via|using) \S.{0,50}$", re.IGNORECASE),
    re.compile(r"^\s*Envoyé de mon .{0,50}$", re.IGNORECASE),
    re.compile(r"^\s*Enviado (?:do|de) meu .{0,50}$", re.IGNORECASE),
]


@dataclass(frozen=True)
class Cut:
    """Where the new text stops: `rest` when everything from this line on is quoted."""

    lines: int  # lines this quote mark takes
    rest: bool = False


def new_lines(text: str) -> list[str]:
    """The lines the writer wrote this time, in order: quotes, attributions and signatures dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    in_signature = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if is_quoted(line):
            in_signature = False  # a signature ends where the quote it sat above begins
            index += 1
            continue
        cut = quote_mark(lines, index)
        if cut is not None:
            if cut.rest:
                break
            in_signature = False
            index += cut.lines
            continue
        if SIGNATURE_START.match(line):
            in_signature = True
        elif not in_signature and not is_mobile_footer(line):
            kept.append(line.rstrip())
        index += 1
    return trimmed(kept)


def is_quoted(line: str) -> bool:
    return line.lstrip().startswith((">", "＞", "|"))


def is_mobile_footer(line: str) -> bool:
    return any(footer.match(line) for footer in MOBILE_FOOTERS)


def quote_mark(lines: list[str], index: int) -> Cut | None:
    """The quote that begins at this line, if one does: an attribution (of its one or two lines,
    with the `>` lines after it, or the rest of the mail if they are not marked), a header block or a
    separator (the rest of the mail)."""
    line = lines[index].strip()
    if not line:
        return None
    if SEPARATOR.match(line) or is_header_block(lines, index):
        return Cut(0, rest=True)
    for size in (1, 2):
        joined = " ".join(part.strip() for part in lines[index : index + size])
        if size == 2 and (index + 1 >= len(lines) or not lines[index + 1].strip()):
            break
        if is_attribution(joined):
            return Cut(size, rest=not next_is_quoted(lines, index + size))
    return None


def is_attribution(line: str) -> bool:
    """Whether a line introduces a quote: "On Tue, 24 Nov 2026 at 10:00, Ann <a@x> wrote:"."""
    if any(pattern.match(line) for pattern in LIBRARY_ATTRIBUTIONS):
        return True
    # A line of talk may end "wrote:" too: an attribution also names when, or whose address.
    return bool(ATTRIBUTION_ENDS.search(line)) and bool(re.search(r"\d|@", line)) and len(line) < 300


def is_header_block(lines: list[str], index: int) -> bool:
    """A quoted mail's header block: its sender's field, then at least one more field within the
    next four lines (some programs wrap a long field)."""
    if not SENDER_LINE.match(lines[index]):
        return False
    return any(HEADER_LINE.match(line) for line in lines[index + 1 : index + 5])


def next_is_quoted(lines: list[str], index: int) -> bool:
    """Whether the first non-blank line from `index` on is a `>` line (or the mail ends)."""
    for line in lines[index:]:
        if line.strip():
            return is_quoted(line)
    return True


def trimmed(lines: list[str]) -> list[str]:
    """Lines without blank ones at either end or more than one blank in a row."""
    out: list[str] = []
    for line in lines:
        if line.strip() or (out and out[-1].strip()):
            out.append(line if line.strip() else "")
    while out and not out[-1].strip():
        out.pop()
    return out
