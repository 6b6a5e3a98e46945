"""Delivery reports as each mail server writes them, about one of our mails: what a real Postfix,
Exim, Sendmail, qmail, Exchange, Gmail, Yahoo or Amazon SES sends back to a return path when an
address does not take mail (or, for the servers that say so, when delivery is delayed). Each takes
the return path, the failed address, the returned mail's headers and whether it is permanent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime, make_msgid

DATE = format_datetime(datetime(2026, 11, 26, 9, 0, tzinfo=UTC))
Format = Callable[[str, str, str, bool], bytes]


def _head(sender: str, to: str, subject: str, extra: str = "") -> str:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: {DATE}\r\n"
        f"Message-ID: {make_msgid(domain='mta.example.net')}\r\nAuto-Submitted: auto-replied\r\n"
        f"MIME-Version: 1.0\r\n{extra}"
    )


def _dsn(
    sender: str, to: str, subject: str, human: str, fields: str, original: str, returned: str = "headers"
) -> bytes:
    """A multipart/report (RFC 3464): the human part, the delivery-status, the returned mail."""
    kind = "text/rfc822-headers" if returned == "headers" else "message/rfc822"
    return (
        _head(
            sender,
            to,
            subject,
            'Content-Type: multipart/report; report-type=delivery-status;\r\n boundary="B1"\r\n',
        )
        + "\r\n--B1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n"
        + human
        + "\r\n--B1\r\nContent-Type: message/delivery-status\r\n\r\n"
        + fields
        + f"\r\n--B1\r\nContent-Type: {kind}\r\n\r\n"
        + original
        + "\r\n--B1--\r\n"
    ).encode()


def _fields(mta: str, rcpt: str, permanent: bool, status: str, diagnostic: str) -> str:
    action = "failed" if permanent else "delayed"
    return (
        f"Reporting-MTA: dns; {mta}\r\nArrival-Date: {DATE}\r\n\r\n"
        f"Final-Recipient: rfc822; {rcpt}\r\nOriginal-Recipient: rfc822;{rcpt}\r\n"
        f"Action: {action}\r\nStatus: {status}\r\nRemote-MTA: dns; mx.example.org\r\n"
        f"Diagnostic-Code: smtp; {diagnostic}\r\n"
    )


def postfix(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    status, said = (
        "5.1.1",
        "550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table",
    )
    if not permanent:
        status, said = "4.4.1", "connect to mx.example.org[192.0.2.1]:25: Connection timed out"
    said = said % rcpt if "%s" in said else said
    human = (
        "This is the mail system at host mail.example.net.\r\n\r\n"
        + (
            "I'm sorry to have to inform you that your message could not\r\nbe delivered to one or more "
            "recipients. It's attached below.\r\n\r\n"
            if permanent
            else "####################################################################\r\n"
            "# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\r\n"
            "####################################################################\r\n\r\n"
            "Your message could not be delivered for more than 4 hour(s).\r\n"
            "It will be retried until it is 5 day(s) old.\r\n\r\n"
        )
        + f"<{rcpt}>: host mx.example.org[192.0.2.1] said: {said}\r\n"
    )
    subject = "Undelivered Mail Returned to Sender" if permanent else "Delayed Mail (still being retried)"
    sender = "MAILER-DAEMON@mail.example.net (Mail Delivery System)"
    return _dsn(
        sender,
        return_path,
        subject,
        human,
        _fields("mail.example.net", rcpt, permanent, status, said),
        original,
    )


def sendmail(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    status = "5.1.1" if permanent else "4.4.7"
    said = f"550 5.1.1 <{rcpt}>... User unknown" if permanent else "451 4.4.7 Deferred: Connection refused"
    human = (
        f"The original message was received at {DATE}\r\nfrom localhost [127.0.0.1]\r\n\r\n"
        + (
            "   ----- The following addresses had permanent fatal errors -----\r\n"
            if permanent
            else "   **********************************************\r\n"
            "   **      THIS IS A WARNING MESSAGE ONLY      **\r\n"
            "   **  YOU DO NOT NEED TO RESEND YOUR MESSAGE  **\r\n"
            "   **********************************************\r\n\r\n"
            "   ----- Transcript of session follows -----\r\n"
        )
        + f"<{rcpt}>\r\n    (reason: {said})\r\n"
    )
    subject = (
        "Returned mail: see transcript for details"
        if permanent
        else "Warning: could not send message for past 4 hours"
    )
    fields = _fields("mail.example.net", rcpt, permanent, status, said)
    return _dsn(
        "Mail Delivery Subsystem <MAILER-DAEMON@mail.example.net>",
        return_path,
        subject,
        human,
        fields,
        original,
    )


def gmail(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    status = "5.1.1" if permanent else "4.2.2"
    said = (
        "550-5.1.1 The email account that you tried to reach does not exist. Please try 550-5.1.1 "
        "double-checking the recipient's email address for typos. 550 5.1.1 https://support.google.com/mail/?p=NoSuchUser"
        if permanent
        else "452-4.2.2 The recipient's inbox is out of storage space. 452 4.2.2 Please direct the recipient"
    )
    human = (
        "** Address not found **\r\n\r\nYour message wasn't delivered to "
        f"{rcpt} because the address couldn't be found, or is unable to receive mail.\r\n\r\n"
        if permanent
        else "** Message not delivered yet **\r\n\r\n"
        f"There was a temporary problem delivering your message to {rcpt}. "
        "Gmail will retry for 46 more hours.\r\n\r\n"
    ) + f"The response was:\r\n\r\n{said}\r\n"
    subject = (
        "Delivery Status Notification (Failure)" if permanent else "Delivery Status Notification (Delay)"
    )
    fields = _fields("googlemail.com", rcpt, permanent, status, said)
    return _dsn(
        "Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
        return_path,
        subject,
        human,
        fields,
        original,
        "message",
    )


def exchange(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    """Exchange Online / Outlook.com (a DSN; the older on-premises text is `exchange_classic`)."""
    status = "5.1.10" if permanent else "4.4.7"
    said = (
        "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup"
        if permanent
        else "450 4.4.7 Message delayed"
    )
    human = (
        "Delivery has failed to these recipients or groups:\r\n\r\n"
        f"{rcpt}\r\nThe email address you entered couldn't be found.\r\n\r\n"
        "Diagnostic information for administrators:\r\n\r\n"
        "Generating server: AM0PR01MB1234.eurprd01.prod.outlook.com\r\n\r\n"
        f"{rcpt}\r\nRemote Server returned '{said}'\r\n"
    )
    fields = _fields("AM0PR01MB1234.eurprd01.prod.outlook.com", rcpt, permanent, status, said)
    subject = "Undeliverable: your move" if permanent else "Delivery delayed: your move"
    return _dsn("postmaster@outlook.com", return_path, subject, human, fields, original)


def ses(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    status = "5.1.1" if permanent else "4.4.7"
    said = "550 5.1.1 user unknown" if permanent else "421 4.4.7 Temporary failure"
    human = f"An error occurred while trying to deliver the mail to the following recipients:\r\n{rcpt}\r\n"
    fields = _fields("a8-12.smtp-out.amazonses.com", rcpt, permanent, status, said)
    subject = (
        "Delivery Status Notification (Failure)" if permanent else "Delivery Status Notification (Delay)"
    )
    return _dsn("MAILER-DAEMON@amazonses.com", return_path, subject, human, fields, original, "message")


def exim(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    """Exim's own text, with its X-Failed-Recipients header (read by flufl.bounce's Exim detector)."""
    body = (
        "This message was created automatically by mail delivery software.\r\n\r\n"
        "A message that you sent could not be delivered to one or more of its\r\n"
        "recipients. This is a permanent error. The following address(es) failed:\r\n\r\n"
        f"  {rcpt}\r\n    host mx.example.org [192.0.2.1]\r\n"
        f"    SMTP error from remote mail server after RCPT TO:<{rcpt}>:\r\n"
        "    550 5.1.1 User unknown\r\n\r\n"
        "------ This is a copy of the message, including all the headers. ------\r\n\r\n" + original
    )
    head = _head(
        "Mail Delivery System <Mailer-Daemon@mail.example.net>",
        return_path,
        "Mail delivery failed: returning message to sender",
        f"X-Failed-Recipients: {rcpt}\r\n",
    )
    return (head + "Content-Type: text/plain; charset=us-ascii\r\n\r\n" + body).encode()


def qmail(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    """qmail-send's QSBMF text (read by flufl.bounce's qmail detector)."""
    body = (
        "Hi. This is the qmail-send program at mail.example.net.\r\n"
        "I'm afraid I wasn't able to deliver your message to the following addresses.\r\n"
        "This is a permanent error; I've given up. Sorry it didn't work out.\r\n\r\n"
        f"<{rcpt}>:\r\n192.0.2.1 does not like recipient.\r\n"
        "Remote host said: 550 5.1.1 No such user here\r\nGiving up on 192.0.2.1.\r\n\r\n"
        "--- Below this line is a copy of the message.\r\n\r\n" + original
    )
    head = _head("MAILER-DAEMON@mail.example.net", return_path, "failure notice")
    return (head + "Content-Type: text/plain\r\n\r\n" + body).encode()


def yahoo(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    """Yahoo's own text (read by flufl.bounce's Yahoo detector)."""
    body = (
        "Sorry, we were unable to deliver your message to the following address.\r\n\r\n"
        f"<{rcpt}>:\r\n554: delivery error: dd This user doesn't have a yahoo.com account ({rcpt}) "
        "[0] - mta1042.mail.ne1.yahoo.com 5.1.1\r\n\r\n"
        "--- Below this line is a copy of the message.\r\n\r\n" + original
    )
    head = _head("MAILER-DAEMON@yahoo.com", return_path, "Failure Notice")
    return (head + "Content-Type: text/plain\r\n\r\n" + body).encode()


def exchange_classic(return_path: str, rcpt: str, original: str, permanent: bool) -> bytes:
    """On-premises Exchange's older text (read by flufl.bounce's Exchange detector)."""
    body = (
        "Your message\r\n\r\n  To:      Bo\r\n  Subject: your move\r\n"
        "  Sent:    Thu, 26 Nov 2026 09:00:00 +0000\r\n\r\n"
        "did not reach the following recipient(s):\r\n\r\n"
        f"{rcpt} on Thu, 26 Nov 2026 09:00:05 +0000\r\n"
        "    The recipient name is not recognized\r\n"
        "    The MTS-ID of the original message is: c=us;a= ;p=example;l=EXCH0126112609000\r\n"
        "    MSEXCH:IMS:Example:Site:EXCH 0 (000C05A6) Unknown Recipient  #5.1.1\r\n"
    )
    head = _head("System Administrator <postmaster@example.net>", return_path, "Undeliverable: your move")
    return (head + "Content-Type: text/plain\r\n\r\n" + body).encode()


# Every format, and those that can also say "delayed" (a temporary failure).
PERMANENT: dict[str, Format] = {
    "postfix": postfix,
    "exim": exim,
    "sendmail": sendmail,
    "qmail": qmail,
    "exchange": exchange,
    "exchange_classic": exchange_classic,
    "gmail": gmail,
    "yahoo": yahoo,
    "ses": ses,
}
TEMPORARY: dict[str, Format] = {
    "postfix": postfix,
    "sendmail": sendmail,
    "gmail": gmail,
    "exchange": exchange,
    "ses": ses,
}


def complaint(return_path: str, rcpt: str, original: str) -> bytes:
    """An ARF feedback report (RFC 5965), as a mailbox provider's feedback loop sends it."""
    return (
        _head(
            "Feedback Loop <fbl@mail.example.org>",
            return_path,
            "Complaint about message",
            'Content-Type: multipart/report; report-type=feedback-report; boundary="F1"\r\n',
        )
        + "\r\n--F1\r\nContent-Type: text/plain\r\n\r\nThis is an email abuse report.\r\n"
        + "\r\n--F1\r\nContent-Type: message/feedback-report\r\n\r\n"
        + f"Feedback-Type: abuse\r\nUser-Agent: ExampleFBL/1.0\r\nVersion: 1\r\nOriginal-Rcpt-To: {rcpt}\r\n"
        + "\r\n--F1\r\nContent-Type: text/rfc822-headers\r\n\r\n"
        + original
        + "\r\n--F1--\r\n"
    ).encode()
