"""Signed links (itsdangerous), one salt per purpose.

A player link names a game, a seat and that seat's key version; bumping the version in the database
revokes every earlier link of the seat. A host link names a game and the host key version; a
spectator (watch) link, which the host may share, names a game and its watch key version. A
confirm link names a game asked for on the web, whose host confirms their address with it. An
unsubscribe link names what one mail was sent for: a seat, a game's host, a daily digest (whose
row knows the address, so that no address shows in a URL), or a club's weekly digest to a member.
A "my games" link names an email address and when it was signed: asking for the address's games
again revokes every earlier one. A reply
address names a seat and the game's version its mail told of, a club's reply address a member of
the club; a return path (envelope sender) names the outbox row of the mail it was sent with.
Several secret keys can be configured: links are signed with the newest and verified with all of
them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

PLAY_SALT = "pbem.link.play"
HOST_SALT = "pbem.link.host"
UNSUBSCRIBE_SALT = "pbem.link.unsubscribe"
WATCH_SALT = "pbem.link.watch"
CONFIRM_SALT = "pbem.link.confirm"
CONFIRM_MAX_AGE_SECONDS = 7 * 86400  # a game asked for is confirmed within a week, or never
ADDRESS_SALT = "pbem.link.address"
CALENDAR_SALT = "pbem.link.calendar"  # an address's calendar feed: its own salt, so it opens no page
CLUB_SALT = "pbem.link.club"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SQL_INT_MAX = 2**31 - 1  # the largest SQL integer: ids, seats, steps, versions
MAX_ID_LENGTH = 64  # a game id is 12 characters; a payload's strings are ids


class LinkError(Exception):
    """A link that cannot be used; `reason` is forged, expired or revoked."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class PlayerLink:
    game_id: str
    seat: int
    key_version: int


@dataclass(frozen=True)
class GameLink:
    """A host or spectator link: a game and the key version it was signed with."""

    game_id: str
    key_version: int


@dataclass(frozen=True)
class DigestLink:
    """A daily digest, read by its address as a whole."""

    digest_id: int


@dataclass(frozen=True)
class AddressLink:
    """The games of an email address (lower-cased), as signed at `issued` (microseconds since the
    epoch, by the service's clock)."""

    email: str
    issued: int


@dataclass(frozen=True)
class ClubLink:
    """A club's invitation of one member: the club, the member's number and the seq of the
    invitation in the club's log (a later invitation or a removal makes it stale)."""

    club_id: str
    member: int
    invited_seq: int


@dataclass(frozen=True)
class ClubReader:
    """A member of a club as a reader of its mail (whose unsubscribe link stops the weekly digest)."""

    club_id: str
    member: int


def address_key(email: str) -> str:
    """One reader per address, whatever its spelling's case."""
    return email.strip().lower()


def mailbox(address: str) -> str:
    """The mailbox an address reaches, for the limits per address: its case and a "+tag" of its
    local part do not change it (ann+1@x.org and ANN+2@x.org are ann@x.org), so plus-addressing does
    not make one mailbox many."""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return address.strip().lower()
    return f"{local.split('+', 1)[0]}@{domain}"


def issued_at(when: datetime) -> int:
    """A time as an address link carries it: microseconds since the epoch."""
    return (when - EPOCH) // timedelta(microseconds=1)


def day_number(when: datetime) -> int:
    """A time as a reply address carries it: whole days since the epoch."""
    return (when - EPOCH).days


# Who a mail is for: a seat, a game's host (as its host link), or a digest's address.
MailReader = PlayerLink | GameLink | DigestLink


class LinkSigner:
    """Makes and reads the signed tokens that stand in for logins."""

    def __init__(self, secret_keys: list[str], max_age_seconds: int) -> None:
        self._play = URLSafeTimedSerializer(secret_keys, salt=PLAY_SALT)
        self._host = URLSafeTimedSerializer(secret_keys, salt=HOST_SALT)
        self._unsubscribe = URLSafeTimedSerializer(secret_keys, salt=UNSUBSCRIBE_SALT)
        self._watch = URLSafeTimedSerializer(secret_keys, salt=WATCH_SALT)
        self._confirm = URLSafeTimedSerializer(secret_keys, salt=CONFIRM_SALT)
        self._address = URLSafeTimedSerializer(secret_keys, salt=ADDRESS_SALT)
        self._calendar = URLSafeTimedSerializer(secret_keys, salt=CALENDAR_SALT)
        self._club = URLSafeTimedSerializer(secret_keys, salt=CLUB_SALT)
        self._replies = ReplyAddresses(secret_keys)
        self._bounces = BounceAddresses(secret_keys)
        self._club_replies = ClubReplyAddresses(secret_keys)
        self._max_age = max_age_seconds

    def reply_token(self, link: ReplyLink) -> str:
        """The token of a seat's reply address (`play+<token>@MAIL_DOMAIN`) for a mail at `link.seq`."""
        return self._replies.token(link)

    def read_reply(self, token: str) -> ReplyLink:
        """The seat and version a reply address names; LinkError if forged (revocation: the caller)."""
        return self._replies.read(token)

    def club_reply_token(self, link: ClubReplyLink) -> str:
        """The token of a member's reply address to their club (`play+<token>@MAIL_DOMAIN`)."""
        return self._club_replies.token(link)

    def read_club_reply(self, token: str) -> ClubReplyLink:
        """The club and member a club reply address names; LinkError if forged (its age: the caller's)."""
        return self._club_replies.read(token)

    def bounce_token(self, link: BounceLink) -> str:
        """The token of a mail's return path (`bounce+<token>@MAIL_DOMAIN`)."""
        return self._bounces.token(link)

    def read_bounce(self, token: str) -> BounceLink:
        """The mail a return path names; LinkError if forged (its age: the caller's)."""
        return self._bounces.read(token)

    def signs(self, token: str) -> bool:
        """Whether this service signed the token, for any purpose, with any of its keys, expired or
        not: what guards talk asks (a secret stays one once expired)."""
        serializers = (
            self._play,
            self._host,
            self._unsubscribe,
            self._watch,
            self._confirm,
            self._address,
            self._club,
        )
        for serializer in serializers:
            try:
                serializer.loads(token)  # no max_age: expiry does not matter here
                return True
            except BadSignature:
                continue
        for addresses in (self._replies, self._bounces, self._club_replies):
            try:
                addresses.read(token)
                return True
            except LinkError:
                continue
        return False

    def player_token(self, game_id: str, seat: int, key_version: int) -> str:
        """The token of a seat's personal link."""
        return self._play.dumps({"g": game_id, "s": seat, "k": key_version})

    def host_token(self, game_id: str, key_version: int) -> str:
        """The token of the host's management link."""
        return self._host.dumps({"g": game_id, "k": key_version})

    def unsubscribe_token(self, reader: MailReader | ClubReader) -> str:
        """The token of the unsubscribe link in a mail to `reader`."""
        if isinstance(reader, ClubReader):
            return self._unsubscribe.dumps({"t": "club", "c": reader.club_id, "m": reader.member})
        if isinstance(reader, PlayerLink):
            return self._unsubscribe.dumps(
                {"t": "seat", "g": reader.game_id, "s": reader.seat, "k": reader.key_version}
            )
        if isinstance(reader, GameLink):
            return self._unsubscribe.dumps({"t": "host", "g": reader.game_id, "k": reader.key_version})
        return self._unsubscribe.dumps({"t": "digest", "d": reader.digest_id})

    def watch_token(self, game_id: str, key_version: int) -> str:
        """The token of a game's spectator link (public information only)."""
        return self._watch.dumps({"g": game_id, "k": key_version})

    def confirm_token(self, request_id: int) -> str:
        """The token of the link with which a host confirms a game they asked for."""
        return self._confirm.dumps({"r": request_id})

    def read_confirm(self, token: str) -> int:
        """The game request a confirm token names; LinkError if forged or older than a week."""
        data = self._load(self._confirm, token, CONFIRM_MAX_AGE_SECONDS)
        if type(data.get("r")) is not int:
            raise LinkError("forged")
        request_id: int = data["r"]
        return request_id

    def address_token(self, link: AddressLink) -> str:
        """The token of an address's "my games" link."""
        return self._address.dumps({"e": link.email, "i": link.issued})

    def read_address(self, token: str) -> AddressLink:
        """The address a "my games" token names; LinkError if forged (expiry and revocation are the
        caller's, by the service's clock)."""
        return self._address_link(self._address, token)

    def calendar_token(self, link: AddressLink) -> str:
        """The token of an address's calendar feed."""
        return self._calendar.dumps({"e": link.email, "i": link.issued})

    def read_calendar(self, token: str) -> AddressLink:
        """The address a calendar feed's token names; LinkError if forged (revocation is the caller's)."""
        return self._address_link(self._calendar, token)

    def _address_link(self, serializer: URLSafeTimedSerializer, token: str) -> AddressLink:
        data = self._load(serializer, token)
        try:
            return AddressLink(str(data["e"]), int(data["i"]))
        except (KeyError, TypeError, ValueError):
            raise LinkError("forged") from None

    def club_token(self, link: ClubLink) -> str:
        """The token of the link with which an invited member confirms their place in a club."""
        return self._club.dumps({"c": link.club_id, "m": link.member, "s": link.invited_seq})

    def read_club(self, token: str) -> ClubLink:
        """The invitation a club token names; LinkError if forged or expired (whether it still
        stands is the club log's to say)."""
        data = typed(self._load(self._club, token), c=str, m=int, s=int)
        return ClubLink(data["c"], data["m"], data["s"])

    def read_player(self, token: str) -> PlayerLink:
        """The seat a token names; LinkError if forged or expired (revocation is checked by the caller)."""
        data = typed(self._load(self._play, token), g=str, s=int, k=int)
        return PlayerLink(data["g"], data["s"], data["k"])

    def read_host(self, token: str) -> GameLink:
        """The game a host token names; LinkError if forged or expired."""
        return self._game_link(self._host, token)

    def read_watch(self, token: str) -> GameLink:
        """The game a spectator token names; LinkError if forged or expired."""
        return self._game_link(self._watch, token)

    def _game_link(self, serializer: URLSafeTimedSerializer, token: str) -> GameLink:
        data = typed(self._load(serializer, token), g=str, k=int)
        return GameLink(data["g"], data["k"])

    def read_unsubscribe(self, token: str) -> MailReader | ClubReader:
        """The reader an unsubscribe token names; LinkError if forged or expired."""
        data = self._load(self._unsubscribe, token)
        kind = data.get("t")
        if kind == "seat":
            seat = typed(data, t=str, g=str, s=int, k=int)
            return PlayerLink(seat["g"], seat["s"], seat["k"])
        if kind == "host":
            host = typed(data, t=str, g=str, k=int)
            return GameLink(host["g"], host["k"])
        if kind == "digest":
            return DigestLink(typed(data, t=str, d=int)["d"])
        if kind == "club":
            club = typed(data, t=str, c=str, m=int)
            return ClubReader(club["c"], club["m"])
        raise LinkError("forged")

    def _load(
        self, serializer: URLSafeTimedSerializer, token: str, max_age: int | None = None
    ) -> dict[str, Any]:
        try:
            data = serializer.loads(token, max_age=max_age or self._max_age)
        except SignatureExpired:
            raise LinkError("expired") from None
        except BadSignature:
            raise LinkError("forged") from None
        if not isinstance(data, dict):
            raise LinkError("forged")
        return data


def typed(data: dict[str, Any], **fields: type) -> dict[str, Any]:
    """A token's payload with exactly these fields of these types (integers those of SQL columns, ids
    no longer than a game id can be); LinkError("forged") otherwise. Only a holder of a signing key
    could make one that fails: the check keeps its mistakes from reaching a query."""
    if set(data) != set(fields):
        raise LinkError("forged")
    for key, kind in fields.items():
        value = data[key]
        if type(value) is not kind:
            raise LinkError("forged")
        if isinstance(value, int) and not 0 <= value <= SQL_INT_MAX:
            raise LinkError("forged")
        if isinstance(value, str) and not 0 < len(value) <= MAX_ID_LENGTH:
            raise LinkError("forged")
    return data


REPLY_SALT = b"pbem.link.reply"


@dataclass(frozen=True)
class ReplyLink:
    """A reply address: the seat a mail was sent to, its key version, the version of the game the
    mail told of (a reply is a move made at that version) and the day it was made (days since the
    epoch; None in the addresses made before they carried one)."""

    game_id: str
    seat: int
    key_version: int
    seq: int
    issued_day: int | None = None


# A dated token's body: a version byte, then the game id's length and the id, then seat, key
# version, step and day as fixed-size integers. Packed as bytes, not written as text, so that the
# local part stays within 64 characters with the day in it.
REPLY_FORMAT = 2
REPLY_NUMBERS = struct.Struct(">BHIH")  # seat, key version, step, day since the epoch


class ReplyAddresses:
    """The local part of a seat's reply address, `play+<token>`: the link's fields and an HMAC, in
    lower-case base32 and hex, because mail servers may change the case of a local part, and at most
    64 characters long (RFC 5321). Signed with the newest key, read with any."""

    def __init__(self, secret_keys: list[str]) -> None:
        self._keys = [hashlib.sha256(REPLY_SALT + key.encode()).digest() for key in reversed(secret_keys)]

    def token(self, link: ReplyLink) -> str:
        game_id = link.game_id.encode()
        numbers = REPLY_NUMBERS.pack(link.seat, link.key_version, link.seq, link.issued_day or 0)
        fields = bytes([REPLY_FORMAT, len(game_id)]) + game_id + numbers
        body = base64.b32encode(fields).decode().rstrip("=").lower()
        return f"{body}.{self._mac(self._keys[0], body)}"

    def read(self, token: str) -> ReplyLink:
        """The reply link a token names; LinkError("forged") if it does not verify."""
        body, _, mac = token.strip().lower().partition(".")
        if not any(hmac.compare_digest(mac, self._mac(key, body)) for key in self._keys):
            raise LinkError("forged")
        try:
            fields = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
            return _dated_link(fields) if fields[:1] == bytes([REPLY_FORMAT]) else _undated_link(fields)
        except (ValueError, UnicodeDecodeError, struct.error):
            raise LinkError("forged") from None

    @staticmethod
    def _mac(key: bytes, body: str) -> str:
        return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()[:20]


def _dated_link(fields: bytes) -> ReplyLink:
    """A token's fields as written since addresses carry their day."""
    size = fields[1]
    game_id = fields[2 : 2 + size].decode("ascii")
    seat, key_version, seq, day = REPLY_NUMBERS.unpack(fields[2 + size :])
    return ReplyLink(game_id, seat, key_version, seq, day)


def _undated_link(fields: bytes) -> ReplyLink:
    """A token's fields as written before: `game.seat.key.seq` as text, no day."""
    game_id, seat, key_version, seq = fields.decode().split(".")
    return ReplyLink(game_id, int(seat), int(key_version), int(seq))


CLUB_REPLY_SALT = b"pbem.link.club-reply"
CLUB_REPLY_FORMAT = 3
CLUB_REPLY_NUMBERS = struct.Struct(">HH")  # member, day since the epoch


@dataclass(frozen=True)
class ClubReplyLink:
    """A member's reply address to their club: the club, the member's number, and the day it was made."""

    club_id: str
    member: int
    issued_day: int


class ClubReplyAddresses:
    """The local part of a member's reply address to the club, `play+<token>`: made like a seat's
    (lower-case base32 and an HMAC, within 64 characters) under a key of its own, so that neither
    kind of token reads as the other and a mail exchanger hands both to the same listener."""

    def __init__(self, secret_keys: list[str]) -> None:
        salted = (CLUB_REPLY_SALT + key.encode() for key in reversed(secret_keys))
        self._keys = [hashlib.sha256(material).digest() for material in salted]

    def token(self, link: ClubReplyLink) -> str:
        club_id = link.club_id.encode()
        numbers = CLUB_REPLY_NUMBERS.pack(link.member, link.issued_day)
        fields = bytes([CLUB_REPLY_FORMAT, len(club_id)]) + club_id + numbers
        body = base64.b32encode(fields).decode().rstrip("=").lower()
        return f"{body}.{ReplyAddresses._mac(self._keys[0], body)}"

    def read(self, token: str) -> ClubReplyLink:
        """The club reply link a token names; LinkError("forged") if it does not verify."""
        body, _, mac = token.strip().lower().partition(".")
        if not any(hmac.compare_digest(mac, ReplyAddresses._mac(key, body)) for key in self._keys):
            raise LinkError("forged")
        try:
            fields = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
            size = fields[1]
            club_id = fields[2 : 2 + size].decode("ascii")
            member, day = CLUB_REPLY_NUMBERS.unpack(fields[2 + size :])
        except (ValueError, IndexError, UnicodeDecodeError, struct.error):
            raise LinkError("forged") from None
        if fields[0] != CLUB_REPLY_FORMAT:
            raise LinkError("forged")
        return ClubReplyLink(club_id, member, day)


BOUNCE_SALT = b"pbem.link.bounce"
BOUNCE_FORMAT = 1
BOUNCE_NUMBERS = struct.Struct(">BIH")  # format, outbox row, day the mail was sent (since the epoch)


@dataclass(frozen=True)
class BounceLink:
    """A mail's return path: the outbox row it was sent from, and the day it was sent."""

    mail_id: int
    sent_day: int


class BounceAddresses:
    """The local part of a mail's envelope sender, `bounce+<token>`: the outbox row and the day
    packed and signed like a reply address (lower-case base32 and an HMAC, far under 64
    characters), so that a delivery report names the mail it is about and a forged one is known."""

    def __init__(self, secret_keys: list[str]) -> None:
        self._keys = [hashlib.sha256(BOUNCE_SALT + key.encode()).digest() for key in reversed(secret_keys)]

    def token(self, link: BounceLink) -> str:
        fields = BOUNCE_NUMBERS.pack(BOUNCE_FORMAT, link.mail_id, link.sent_day)
        body = base64.b32encode(fields).decode().rstrip("=").lower()
        return f"{body}.{ReplyAddresses._mac(self._keys[0], body)}"

    def read(self, token: str) -> BounceLink:
        """The mail a token names; LinkError("forged") if it does not verify (or is cut short)."""
        body, _, mac = token.strip().lower().partition(".")
        if not any(hmac.compare_digest(mac, ReplyAddresses._mac(key, body)) for key in self._keys):
            raise LinkError("forged")
        try:
            fields = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
            version, mail_id, day = BOUNCE_NUMBERS.unpack(fields)
        except (ValueError, struct.error):
            raise LinkError("forged") from None
        if version != BOUNCE_FORMAT:
            raise LinkError("forged")
        return BounceLink(mail_id, day)
