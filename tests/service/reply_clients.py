"""Replies as mail programs write them, each built from the program's observed layout: its MIME
structure, charset and transfer encoding, attribution line or header block, quote style, where the
writer's words go (above or below the quote) and its signature. Each builder takes the mail it
answers (one of ours, links and all) and the words to write, and returns the reply's bytes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

from service.eventlog.models import OutboxMail

SENDER = "Ann <ann@example.org>"
WHEN_EN = "Thu, Nov 26, 2026 at 9:34 AM"
FROM_US = "Card table <cards@pbem.localhost>"


@dataclass(frozen=True)
class Words:
    """What the writer writes: the move's line and their words to the table, in the order given
    (`greeting_first`: the talk's first line comes before the move)."""

    move: str
    talk: str
    greeting_first: bool = False

    def lines(self) -> list[str]:
        talk = self.talk.splitlines()
        if self.greeting_first:
            return [talk[0], self.move, *talk[1:]]
        return [self.move, *talk]

    def text(self) -> str:
        return "\n".join(self.lines())

    def html(self) -> str:
        return "".join(f"<div>{line}</div>" for line in self.lines())


Builder = Callable[[OutboxMail, Words], bytes]


def quoted(mail: OutboxMail) -> str:
    """Our mail's text, each line marked "> " as plain-text programs quote."""
    return "\n".join(f"> {line}".rstrip() for line in mail.text_body.splitlines())


def headers(mail: OutboxMail, message: EmailMessage) -> EmailMessage:
    message["From"] = SENDER
    message["To"] = mail.reply_to
    message["Subject"] = f"Re: {mail.subject}"
    message["Message-ID"] = make_msgid(domain="example.org")
    message["In-Reply-To"] = mail.message_id
    message["References"] = mail.message_id
    return message


def alternative(mail: OutboxMail, plain: str, html: str, charset: str = "utf-8") -> bytes:
    """multipart/alternative, plain part first, as most programs send."""
    message = headers(mail, EmailMessage())
    message.set_content(plain, charset=charset, cte="quoted-printable")
    message.add_alternative(html, subtype="html", charset=charset, cte="quoted-printable")
    return bytes(message)


def plain_only(mail: OutboxMail, plain: str, cte: str = "quoted-printable", flowed: bool = False) -> bytes:
    message = headers(mail, EmailMessage())
    message.set_content(plain, charset="utf-8", cte=cte)
    if flowed:
        message.set_param("format", "flowed")
    return bytes(message)


def html_only(mail: OutboxMail, html: str) -> bytes:
    message = headers(mail, EmailMessage())
    message.set_content(html, subtype="html", charset="utf-8", cte="base64")
    return bytes(message)


def japanese_mail(mail: OutboxMail, body: bytes, charset: str, cte: str = "7bit") -> bytes:
    """A Japanese mail as carriers and Windows mailers send it: a single part in a legacy charset,
    its bytes exactly as they write them."""
    head = (
        f"From: {SENDER}\r\nTo: {mail.reply_to}\r\nSubject: Re: game\r\n"
        f"Message-ID: {make_msgid(domain='example.jp')}\r\nIn-Reply-To: {mail.message_id}\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset={charset}\r\n"
        f"Content-Transfer-Encoding: {cte}\r\n\r\n"
    )
    return head.encode("ascii") + body.replace(b"\n", b"\r\n")


def gmail_web(mail: OutboxMail, words: Words) -> bytes:
    """Gmail on the web: top-posted; the attribution wrapped over two lines in the plain part; the
    HTML quote in div.gmail_quote > blockquote.gmail_quote."""
    plain = f"{words.text()}\n\nOn {WHEN_EN} Card table <cards@pbem.localhost>\nwrote:\n\n{quoted(mail)}\n"
    html = (
        f'<div dir="ltr">{words.html()}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">On {WHEN_EN} Card table &lt;cards@pbem.localhost&gt; wrote:<br></div>'
        f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid '
        f'rgb(204,204,204);padding-left:1ex">{mail.html_body}</blockquote></div>'
    )
    return alternative(mail, plain, html)


def gmail_bottom(mail: OutboxMail, words: Words) -> bytes:
    """Gmail with the words written below the quote (the quote expanded first)."""
    plain = f"On {WHEN_EN} Card table <cards@pbem.localhost> wrote:\n\n{quoted(mail)}\n\n{words.text()}\n"
    html = (
        f'<div class="gmail_quote"><div class="gmail_attr">On {WHEN_EN} Card table wrote:</div>'
        f'<blockquote class="gmail_quote">{mail.html_body}</blockquote></div>{words.html()}'
    )
    return alternative(mail, plain, html)


def gmail_app_ja(mail: OutboxMail, words: Words) -> bytes:
    """The Gmail app in Japanese: base64 UTF-8, its Japanese attribution."""
    attribution = f"2026年11月26日(木) 9:34 {FROM_US}:"
    plain = f"{words.text()}\n\n{attribution}\n\n{quoted(mail)}\n"
    message = headers(mail, EmailMessage())
    message.set_content(plain, charset="utf-8", cte="base64")
    return bytes(message)


def outlook_header_block(fields: tuple[str, str, str, str], when: str) -> str:
    sender, sent, to, subject = fields
    return f"{sender}: {FROM_US}\n{sent}: {when}\n{to}: Ann <ann@example.org>\n{subject}: Red and Black Duel"


def outlook_desktop(mail: OutboxMail, words: Words) -> bytes:
    """Outlook for Windows, English: the quote unmarked under a From/Sent/To/Subject block."""
    block = outlook_header_block(("From", "Sent", "To", "Subject"), "Thursday, November 26, 2026 9:34 AM")
    plain = f"{words.text()}\n\n{block}\n\n{mail.text_body}"
    html = (
        f'<div class="WordSection1"><p class="MsoNormal">{words.html()}</p><div><div style="border:none;'
        f'border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b>From:</b> '
        f"Card table<br><b>Sent:</b> Thursday<br><b>To:</b> Ann<br><b>Subject:</b> game</p></div></div>"
        f"{mail.html_body}</div>"
    )
    return alternative(mail, plain, html, charset="utf-8")


def outlook_desktop_ja(mail: OutboxMail, words: Words) -> bytes:
    """Outlook for Windows, Japanese: ISO-2022-JP, the quote unmarked under 差出人/送信日時/宛先/件名."""
    block = outlook_header_block(("差出人", "送信日時", "宛先", "件名"), "2026年11月26日 9:34")
    body = f"{words.text()}\n\n{block}\n\n{mail.text_body}\n"
    return japanese_mail(mail, body.encode("iso2022_jp", errors="replace"), "iso-2022-jp")


def outlook_web(mail: OutboxMail, words: Words) -> bytes:
    """Outlook.com / OWA, HTML only: the quoted mail after div#appendonsend, hr, div#divRplyFwdMsg."""
    html = (
        f'<html><head><style type="text/css">P {{margin:0}}</style></head><body dir="ltr">'
        f'<div style="font-family:Calibri">{words.html()}</div><div id="appendonsend"></div>'
        f'<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
        f'<font face="Calibri"><b>From:</b> Card table<br><b>Sent:</b> Thursday<br><b>To:</b> Ann<br>'
        f"<b>Subject:</b> game</font><div>&nbsp;</div></div><div>{mail.html_body}</div></body></html>"
    )
    return html_only(mail, html)


def apple_mail(mail: OutboxMail, words: Words) -> bytes:
    """Apple Mail on macOS: format=flowed, the attribution itself quoted; HTML blockquote type=cite."""
    plain = f"{words.text()}\n\n> On Nov 26, 2026, at 09:34, {FROM_US} wrote:\n> \n{quoted(mail)}\n"
    html = (
        f'<html><body style="overflow-wrap: break-word;">{words.html()}<div><br><blockquote type="cite">'
        f"<div>On Nov 26, 2026, at 09:34, Card table wrote:</div>{mail.html_body}</blockquote></div>"
        f"</body></html>"
    )
    return alternative(mail, plain, html)


def apple_ios(mail: OutboxMail, words: Words) -> bytes:
    """Mail on iOS: plain only, "Sent from my iPhone", then the attribution and the quote."""
    plain = (
        f"{words.text()}\n\nSent from my iPhone\n\n> On Nov 26, 2026, at 09:34, {FROM_US} wrote:\n> \n"
        f"{quoted(mail)}\n"
    )
    return plain_only(mail, plain, flowed=True)


def apple_ios_ja(mail: OutboxMail, words: Words) -> bytes:
    """Mail on iOS in Japanese: "iPhoneから送信", "2026/11/26 9:34、…のメール:"."""
    plain = f"{words.text()}\n\niPhoneから送信\n\n> 2026/11/26 9:34、{FROM_US}のメール:\n> \n{quoted(mail)}\n"
    return plain_only(mail, plain, cte="base64")


def thunderbird(mail: OutboxMail, words: Words) -> bytes:
    """Thunderbird, written below the quote, with its `-- ` signature; HTML: div.moz-cite-prefix."""
    plain = (
        f"On 11/26/26 09:34, Card table wrote:\n{quoted(mail)}\n\n{words.text()}\n\n-- \nAnn Example\n"
        "https://ann.example.org\n"
    )
    html = (
        f'<div class="moz-cite-prefix">On 11/26/26 09:34, Card table wrote:<br></div>'
        f'<blockquote type="cite" cite="mid:x">{mail.html_body}</blockquote>{words.html()}'
        f'<pre class="moz-signature" cols="72">-- \nAnn Example</pre>'
    )
    return alternative(mail, plain, html)


def yahoo(mail: OutboxMail, words: Words) -> bytes:
    """Yahoo Mail: the plain part's quote is indented, not marked; HTML: div.yahoo_quoted."""
    indented = "\n".join(f"    {line}" for line in mail.text_body.splitlines())
    plain = (
        f"{words.text()}\n\n\n    On Thursday, November 26, 2026 at 06:34:00 PM GMT+9, {FROM_US} wrote:  \n"
        f" \n \n{indented}\n"
    )
    html = (
        f'<html><body><div class="ydp1 yahoo-style-wrap">{words.html()}</div><div id="yahoo_quoted_1" '
        f'class="yahoo_quoted"><div>On Thursday, Card table wrote:</div>{mail.html_body}</div></body></html>'
    )
    return alternative(mail, plain, html)


def fastmail(mail: OutboxMail, words: Words) -> bytes:
    """Fastmail: "On Thu, 26 Nov 2026, at 09:34, … wrote:" and `>` lines."""
    plain = f"{words.text()}\n\nOn Thu, 26 Nov 2026, at 09:34, Card table wrote:\n{quoted(mail)}\n"
    html = (
        f"<!DOCTYPE html><html><body>{words.html()}<div>On Thu, 26 Nov 2026, at 09:34, Card table wrote:"
        f'</div><blockquote type="cite" id="qt">{mail.html_body}</blockquote></body></html>'
    )
    return alternative(mail, plain, html)


def k9(mail: OutboxMail, words: Words) -> bytes:
    """K-9 Mail: its footer as a `-- ` signature above the quote."""
    plain = (
        f"{words.text()}\n-- \nSent from my Android device with K-9 Mail. Please excuse my brevity.\n\n"
        f"On November 26, 2026 9:34:00 AM GMT+09:00, {FROM_US} wrote:\n{quoted(mail)}\n"
    )
    return plain_only(mail, plain)


def evolution(mail: OutboxMail, words: Words) -> bytes:
    """Evolution, written below the quote (its default), 8bit."""
    plain = f"On Thu, 2026-11-26 at 09:34 +0900, Card table wrote:\n{quoted(mail)}\n\n{words.text()}\n"
    return plain_only(mail, plain, cte="8bit")


def samsung(mail: OutboxMail, words: Words) -> bytes:
    """Samsung Email: "Sent from my Galaxy", then an unmarked quote under a dashed separator."""
    plain = (
        f"{words.text()}\n\n\n\nSent from my Galaxy\n\n\n-------- Original message --------\n"
        f"From: {FROM_US} \nDate: 11/26/26 09:34 (GMT+09:00) \nTo: Ann <ann@example.org> \n"
        f"Subject: game \n\n{mail.text_body}\n"
    )
    html = (
        f'<html><body><div dir="auto">{words.html()}</div><div dir="auto"><br></div><div id="composer_'
        f'signature" dir="auto"><div>Sent from my Galaxy</div></div><div><br></div><div align="left" '
        f'dir="auto" style="font-size:100%;color:#000000"><div>-------- Original message --------</div>'
        f"<div>From: Card table</div></div>{mail.html_body}</body></html>"
    )
    return alternative(mail, plain, html)


def carrier_iso2022jp(mail: OutboxMail, words: Words) -> bytes:
    """A Japanese carrier's mail in ISO-2022-JP: the signature below a line of dashes and a
    "-----Original Message-----" quote."""
    body = (
        f"{words.text()}\n\n―――――――\nアン\n090-0000-0000\n\n-----Original Message-----\n"
        f"From: {FROM_US}\nSent: 2026/11/26 9:34\n\n{mail.text_body}\n"
    )
    return japanese_mail(mail, body.encode("iso2022_jp", errors="replace"), "ISO-2022-JP")


def carrier_shift_jis(mail: OutboxMail, words: Words) -> bytes:
    """A Japanese carrier's mail in Shift_JIS, 8bit (its Windows characters included)."""
    body = f"{words.text()}\n--\nau携帯電話から送信\n\n-------- 元のメッセージ --------\n{mail.text_body}\n"
    return japanese_mail(mail, body.encode("cp932", errors="replace"), "Shift_JIS", cte="8bit")


def windows_cp50220(mail: OutboxMail, words: Words) -> bytes:
    """A Windows Japanese mailer (Becky!-style) labelling CP50220 as ISO-2022-JP: NEC circled digits
    in JIS row 13, the attribution over two lines."""
    text = f"{words.text()}\n\nOn Thu, 26 Nov 2026 09:34:00 +0900\n{FROM_US} wrote:\n{quoted(mail)}\n"
    return japanese_mail(mail, cp50220(text), "ISO-2022-JP")


CIRCLED = {"①": b"\x1b$B-!\x1b(B", "②": b'\x1b$B-"\x1b(B', "③": b"\x1b$B-#\x1b(B"}


def cp50220(text: str) -> bytes:
    """Text as CP50220 writes it: ISO-2022-JP, with the NEC circled digits of row 13."""
    out = b""
    for char in text:
        out += CIRCLED.get(char) or char.encode("iso2022_jp", errors="replace")
    return out


def pasted(mail: OutboxMail, words: Words) -> bytes:
    """Our mail copied under the words with no mark and no header at all (a webmail's "paste")."""
    return plain_only(mail, f"{words.text()}\n\n{mail.text_body}\n")


def quote_header_language(
    fields: tuple[str, str, str, str], when: str
) -> Callable[[OutboxMail, Words], bytes]:
    """Outlook in another language: its header block names the fields in that language."""

    def build(mail: OutboxMail, words: Words) -> bytes:
        plain = f"{words.text()}\n\n{outlook_header_block(fields, when)}\n\n{mail.text_body}\n"
        return plain_only(mail, plain)

    return build


def attribution_language(line: str) -> Builder:
    """Gmail in another language: its attribution line, then `>` lines."""

    def build(mail: OutboxMail, words: Words) -> bytes:
        return plain_only(mail, f"{words.text()}\n\n{line}\n\n{quoted(mail)}\n")

    return build


ENGLISH_TALK = "Hi Bo,\ngood luck, and may the best hand win!"
JAPANESE_TALK = "ボーさん、こんにちは\nよろしくお願いします。"
WINDOWS_TALK = "ボーさん、こんにちは\n①②、よろしくお願いします。"  # NEC signs: CP50220 and CP932 only


@dataclass(frozen=True)
class Client:
    name: str
    build: Builder
    talk: str = ENGLISH_TALK


CLIENTS = [
    Client("gmail_web", gmail_web),
    Client("gmail_bottom", gmail_bottom),
    Client("gmail_app_ja", gmail_app_ja, JAPANESE_TALK),
    Client("outlook_desktop", outlook_desktop),
    Client("outlook_desktop_ja", outlook_desktop_ja, JAPANESE_TALK),
    Client("outlook_web", outlook_web),
    Client("apple_mail", apple_mail),
    Client("apple_ios", apple_ios),
    Client("apple_ios_ja", apple_ios_ja, JAPANESE_TALK),
    Client("thunderbird", thunderbird),
    Client("yahoo", yahoo),
    Client("fastmail", fastmail),
    Client("k9", k9),
    Client("evolution", evolution),
    Client("samsung", samsung),
    Client("carrier_iso2022jp", carrier_iso2022jp, JAPANESE_TALK),
    Client("carrier_shift_jis", carrier_shift_jis, WINDOWS_TALK),
    Client("windows_cp50220", windows_cp50220, WINDOWS_TALK),
    Client("pasted", pasted),
    *(
        Client(f"outlook_{language}", quote_header_language(fields, when))
        for language, fields, when in (
            ("de", ("Von", "Gesendet", "An", "Betreff"), "Donnerstag, 26. November 2026 09:34"),
            ("fr", ("De", "Envoyé", "À", "Objet"), "jeudi 26 novembre 2026 09:34"),
            ("es", ("De", "Enviado", "Para", "Asunto"), "jueves, 26 de noviembre"),
            ("it", ("Da", "Inviato", "A", "Oggetto"), "giovedì 26 novembre 2026"),
            ("pt", ("De", "Enviada", "Para", "Assunto"), "quinta-feira, 26"),
            ("nl", ("Van", "Verzonden", "Aan", "Onderwerp"), "donderdag 26"),
            ("zh", ("发件人", "发送时间", "收件人", "主题"), "2026年11月26日 9:34"),
        )
    ),
    *(
        Client(f"gmail_{language}", attribution_language(line))
        for language, line in (
            ("fr", f"Le jeu. 26 nov. 2026 à 09:34, {FROM_US} a écrit :"),
            ("de", f"Am Do., 26. Nov. 2026 um 09:34 Uhr schrieb {FROM_US}:"),
            ("es", f"El jue, 26 nov 2026 a las 9:34, {FROM_US} escribió:"),
            ("it", f"Il giorno gio 26 nov 2026 alle ore 09:34 {FROM_US} ha scritto:"),
            ("pt", f"Em qui., 26 de nov. de 2026 às 09:34, {FROM_US} escreveu:"),
            ("nl", f"Op do 26 nov 2026 om 09:34 schreef {FROM_US}:"),
            ("zh", f"{FROM_US} 于2026年11月26日周四 09:34写道："),
        )
    ),
]
