"""Database tables: games and seats, the append-only event log, commands, the mail outbox, and the
turn clocks and vacations of games played against the clock."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index, Integer, UniqueConstraint, text
from sqlmodel import Field, SQLModel


class GameStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TimeoutPolicy(StrEnum):
    """What happens when a player's time for a move runs out."""

    BOT = "bot"  # the seat-keeper plays for the absent player until they return (the default)
    FORFEIT = "forfeit"  # the absent player forfeits and the game ends
    HOST = "host"  # the host is asked: the seat-keeper plays this move, a forfeit, or more days


class GameRecord(SQLModel, table=True):
    """One game: which rules, its options and status. The truth about play is in `events`."""

    __tablename__ = "games"

    id: str = Field(primary_key=True, max_length=32)
    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=GameStatus.ACTIVE, max_length=16)
    host_name: str = Field(default="", max_length=100)
    host_email: str = Field(max_length=254)
    host_key_version: int = Field(default=1)
    created_at: datetime
    finished_at: datetime | None = None
    # Hashed with the seed into the commitment shown at the start; revealed with the seed at the end.
    seed_salt: str = Field(default="", max_length=64)
    public_replay: bool = Field(default=False)  # the host lets anyone with the replay link see it
    watch_key_version: int = Field(default=1)  # bumped to revoke the spectator link
    # The host's notices about play by mail; the unsubscribe link of a host mail turns them off.
    host_notify: bool = Field(default=True)
    # Time control (service/deadlines.py): days per move (0: no limit), the clock stopped on
    # Saturdays and Sundays in the game's IANA time zone, and the reminder's hours before the
    # deadline (None: 24 h, or half the time for 1-day games; 0: no reminder).
    move_days: int = Field(default=0)
    weekend_pause: bool = Field(default=False)
    timezone: str = Field(default="UTC", max_length=64)
    remind_hours: int | None = None
    timeout: str = Field(default=TimeoutPolicy.BOT, max_length=16)
    vacation_days: int = Field(default=14)  # each seat's allowance per calendar year
    language: str = Field(default="", max_length=8)  # the table's language, chosen by the host ("": none)
    replies_from_any: bool = Field(default=False)  # a reply may come from another address (forwarding)
    # Mail to the host's address does not arrive, as for a seat (SeatRecord.unreachable_at): derived
    # from the bounce records of the host's mails; cleared when the host gives a new address.
    host_unreachable_at: datetime | None = None
    host_unreachable_reason: str = Field(default="", max_length=500)
    # The seq of the log's last event, kept by every append in its transaction: a reader whose folded
    # log is that long reads no events.
    version: int = Field(default=0)


class NotifyMode(StrEnum):
    """How a player hears that a game waits on them."""

    TURN = "turn"  # a mail at each turn (the default)
    DIGEST = "digest"  # one mail a day listing every game waiting on them
    NONE = "none"


class SeatKeeper(StrEnum):
    """Who makes a seat's moves."""

    PLAYER = "player"  # the player, by hand
    BOT = "bot"  # the seat-keeper, from the start: nobody's seat, never mailed
    STAND_IN = "stand_in"  # the seat-keeper, for a player who ran out of time, until they return


class SeatRecord(SQLModel, table=True):
    """A player's seat: name, email, the version of their link (bumped to revoke it) and the
    player's own settings."""

    __tablename__ = "seats"
    # The seats in digest mode (the digest's query every minute): without it, PostgreSQL read every
    # seat of every game to find the few.
    __table_args__ = (
        Index(
            "ix_seats_digest",
            "game_id",
            postgresql_where=text("notify = 'digest'"),
            sqlite_where=text("notify = 'digest'"),
        ),
    )

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=32)
    seat: int = Field(primary_key=True)
    name: str = Field(max_length=100)
    email: str = Field(max_length=254)
    key_version: int = Field(default=1)
    auto_play: bool = Field(default=True)  # play a forced move (the only legal one) for the player
    notify: str = Field(default=NotifyMode.TURN, max_length=16)
    timezone: str = Field(default="", max_length=64)  # IANA name for their pages; "" = the game's
    language: str = Field(default="", max_length=8)  # their pages' and mails' language; "" = the table's
    # How the table's group chat calls the player (<@id>, @name), after their name there; "" = none.
    mention: str = Field(default="", max_length=64)
    keeper: str = Field(default=SeatKeeper.PLAYER, max_length=16)
    # The level of the bot that plays the seat while the seat-keeper has it (bots.LEVELS); None is
    # the seat-keeper itself (every seat before levels, and what an absent level in the log means).
    bot_level: str | None = Field(default=None, max_length=16)
    # Mail to the seat's address does not arrive (a permanent bounce, or temporary ones over 72 hours):
    # since when, and the receiving server's reason. Derived by service/mail/unreachable.py from the
    # seat's bounce records, in the transaction that stores the bounce; cleared with a new address.
    unreachable_at: datetime | None = None
    unreachable_reason: str = Field(default="", max_length=500)


class EventOrigin(StrEnum):
    """Who made the move an event records (pages and the replay mark moves not made by hand)."""

    PLAYER = "player"
    GAME = "game"  # the opening events, and the game's own decisions (a forfeit on timeout)
    BOT = "bot"  # the seat-keeper played for the seat
    AUTO = "auto"  # the only legal move, played for the player by their setting
    HOST = "host"  # a decision of the host: a forfeit declared, a cancellation


class EventRecord(SQLModel, table=True):
    """One event of a game's append-only log; `(game_id, seq)` is unique, so a concurrent append
    conflicts instead of overwriting."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_events_game_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seq: int
    type: str = Field(max_length=64)
    v: int
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seat: int | None = None
    created_at: datetime
    # On the first event of each move: the action that caused it, so that the log can be re-run
    # from the revealed seed (service/fairness.py) to show the deals were not tampered with.
    action: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    origin: str = Field(default=EventOrigin.PLAYER, max_length=16)


class SnapshotRecord(SQLModel, table=True):
    """A game's fold stored at one version (service/eventlog/snapshots.py): a disposable cache of its
    log, one row per game, replaced as the log grows; never the truth."""

    __tablename__ = "snapshots"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=32)
    version: int  # the seq of the last event folded into it
    format: int  # snapshots.FORMAT when it was written: another one is ignored
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # the state and who owes


# SQLite numbers only an INTEGER primary key by itself (its rowid, 64 bits there).
CHANGE_ID = BigInteger().with_variant(Integer(), "sqlite")


class PictureChange(SQLModel, table=True):
    """A change to one of a game's rows that a seat's page or JSON shows, noted by the database's own
    triggers (migration 0028), never by the code, so that no writer can forget one. The sum of a
    game's weights is its picture stamp (service/eventlog/stamps.py); the sweep folds a game's many
    rows into one of their summed weight, which leaves the sum as it was."""

    __tablename__ = "picture_changes"
    __table_args__ = (Index("ix_picture_changes_game", "game_id", "weight"),)

    id: int | None = Field(default=None, sa_column=Column(CHANGE_ID, primary_key=True, autoincrement=True))
    game_id: str = Field(max_length=32)  # no foreign key: a trigger's insert stays one index write
    weight: int = Field(default=1, sa_column=Column(BigInteger, nullable=False, server_default="1"))


class CommandStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class CommandRecord(SQLModel, table=True):
    """A move as submitted, before and after the worker decided on it."""

    __tablename__ = "commands"
    __table_args__ = (
        UniqueConstraint("game_id", "key", name="uq_commands_game_key"),
        Index("ix_commands_status_created", "status", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int
    seq: int
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    key: str = Field(max_length=64)
    # The words sent with the move, kept at its step in the move's own transaction (so the mails the
    # move causes carry them); private: a note only its writer sees.
    talk: str | None = Field(default=None, max_length=500)
    talk_private: bool = Field(default=False)
    status: str = Field(default=CommandStatus.PENDING, max_length=16)
    reason: str | None = None
    created_at: datetime
    decided_at: datetime | None = None


class MailStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    KEPT = "kept"  # embedded mode without SMTP: listed on the outbox page
    CAPPED = "capped"  # over MAILS_PER_ADDRESS_PER_DAY for its address: kept, never sent
    REFUSED = "refused"  # the relay refused its address for good (5xx to RCPT TO): never sent
    HELD = "held"  # drafted before its seat's address was found unreachable: never sent
    FAILED = (
        "failed"  # can never be sent (say, a UTF-8 address and a relay without SMTPUTF8): why in last_error
    )


MAIL = "mail"  # the outbox row's channel for a mail (the other channels: service/channels)


class OutboxMail(SQLModel, table=True):
    """A mail written in the same transaction as the events that caused it; sent until it goes."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str | None = Field(default=None, foreign_key="games.id", max_length=32)  # None: a digest
    kind: str = Field(max_length=32)
    seat: int | None = None
    to_name: str = Field(default="", max_length=100)
    to_email: str = Field(max_length=254)
    subject: str = Field(max_length=300)
    text_body: str
    html_body: str
    message_id: str = Field(max_length=200)
    thread_id: str = Field(max_length=200)
    # Set at drafting time for the List-Unsubscribe header, so that delivery stays a pure send.
    unsubscribe_url: str = Field(default="")
    language: str = Field(default="en", max_length=8)  # the reader's, drafted in (Content-Language)
    reply_to: str = Field(default="", max_length=254)  # a seat's signed reply address: answering moves
    status: str = Field(default=MailStatus.PENDING, max_length=16)
    attempts: int = Field(default=0)
    last_error: str | None = None
    created_at: datetime
    next_attempt_at: datetime
    # The lease of the one worker delivering the row: its token, and when the lease runs out.
    claimed_until: datetime | None = None
    claim_token: str | None = Field(default=None, max_length=32)
    sent_at: datetime | None = None
    # Where the row goes: "mail" (by SMTP to to_email), or a channel kind of service/channels with the
    # channel's row, and what it says there (drafted in the reader's language, like a mail's bodies).
    channel: str = Field(default=MAIL, max_length=16)
    channel_id: int | None = None  # the channels row (never deleted: a removed one's address is erased)
    payload: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # A mail written by a move without its bodies: what they are drafted from, after the commit, by
    # the worker that sends it (service/mail/move_mails.py); None once drafted (and for other rows).
    draft: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )


class Channel(SQLModel, table=True):
    """A place other than mail where a seat (or, with seat None, the whole table) is told of its
    game: a chat or phone app by URL, a signed JSON webhook or a browser's push subscription. Its
    address is a secret, kept sealed with a key derived from SECRET_KEY (service/channels/sealing.py);
    `label` is what its owner sees of it. Paused after CHANNEL_MAX_FAILURES failures in a row."""

    __tablename__ = "channels"
    __table_args__ = (Index("ix_channels_game", "game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int | None = None  # None: the table's group channel, set by the host
    key_version: int  # the seat's (or host's) link version when added: a new player starts without it
    kind: str = Field(max_length=16)
    sealed: str  # the channel's address (URL, or push subscription as JSON), encrypted
    label: str = Field(max_length=200)
    failures: int = Field(default=0)  # failed deliveries in a row
    paused_at: datetime | None = None
    created_at: datetime
    last_sent_at: datetime | None = None


class TableTalk(SQLModel, table=True):
    """A message of a seat to the table, kept with the step of the game it was written at: public to
    every seat and onlooker, or a private note to oneself. Append-only like the log: nobody edits or
    deletes one; the host may hide an abusive one, which leaves its trace ("hidden by the host")."""

    __tablename__ = "table_talk"
    __table_args__ = (Index("ix_table_talk_game", "game_id", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int
    step: int  # the game's version when it was written: it shows at that step of the replay
    text: str = Field(max_length=500)
    private: bool = Field(default=False)  # a note to oneself, shown to nobody else
    created_at: datetime
    hidden_at: datetime | None = None  # hidden by the host


class InboundStatus(StrEnum):
    """What became of a mail received at a reply address."""

    RECEIVED = "received"  # being read
    MOVED = "moved"  # its move was submitted (the command's outcome was mailed back)
    REFUSED = "refused"  # it named no legal move, or came from the wrong address: the reason was mailed
    IGNORED = "ignored"  # an automatic mail (auto-reply, bounce, list), or a forged address: no answer
    LIMITED = "limited"  # over the seat's rate of replies: not read
    TALKED = "talked"  # no move asked of the seat: its text went to the table talk
    AHEAD = "ahead"  # it chose plays ahead of the seat's turn: they were stored (and it was told)
    BOUNCE = (
        "bounce"  # a delivery report or complaint at a return path, recorded (service/replies/bounces.py)
    )
    DROPPED = "dropped"  # at a return path but not trusted (forged, expired, replayed, not ours): no effect


class InboundMail(SQLModel, table=True):
    """A mail received at a reply address, kept once per Message-ID (the same mail delivered twice is
    read once) with what became of it; the rate of replies per seat is counted from these rows."""

    __tablename__ = "inbound_mails"
    __table_args__ = (
        UniqueConstraint("message_id", name="uq_inbound_mails_message_id"),
        Index("ix_inbound_mails_seat", "game_id", "seat", "received_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(max_length=300)
    game_id: str | None = Field(default=None, max_length=32)
    seat: int | None = None
    received_at: datetime
    status: str = Field(max_length=16)
    command_id: int | None = None


class DigestRecord(SQLModel, table=True):
    """One address's daily digest: unique per address and local day, so that overlapping or
    catching-up runs draft it once. Written even when nothing waited (then without a mail)."""

    __tablename__ = "digests"
    __table_args__ = (UniqueConstraint("email", "day", name="uq_digests_email_day"),)

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254)  # lower-cased: one reader whatever the spelling
    day: date  # the reader's local day
    created_at: datetime
    mail_id: int | None = Field(default=None, foreign_key="outbox.id")


class TurnClock(SQLModel, table=True):
    """One owed move of one seat against the clock: since when the seat owes it (derived from the
    log by service/clocks.py, in the same transaction as the events), when the reminder and the
    timeout are due, and whether they happened. `(game_id, seat, owed_since_seq)` names the owed
    move, so the beat task acts on each exactly once."""

    __tablename__ = "turn_clocks"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", "owed_since_seq", name="uq_turn_clocks_owed"),
        Index("ix_turn_clocks_remind", "settled_at", "remind_at"),
        Index("ix_turn_clocks_due", "settled_at", "due_at"),
        # A game's open clocks (read by every page and move): without it, PostgreSQL read every clock
        # the game's log ever had (one per owed move) to find the few open ones.
        Index(
            "ix_turn_clocks_open",
            "game_id",
            postgresql_where=text("settled_at IS NULL"),
            sqlite_where=text("settled_at IS NULL"),
        ),
        # With ix_turn_clocks_remind and _due, the beat's query for due clocks (a reminder, a timeout or an
        # automatic move) is a union of three index scans; without, it read every open clock of every game.
        Index(
            "ix_turn_clocks_automatic",
            "settled_at",
            postgresql_where=text("automatic"),
            sqlite_where=text("automatic"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int
    owed_since_seq: int  # the event after which the seat began to owe this move
    owed_since: datetime
    remind_at: datetime | None = None  # None: no reminder (no time control, or none wanted)
    due_at: datetime | None = None  # None: no time limit
    # The host gave `granted_days` more days at `granted_at`: a fresh clock for this move from then
    # (a cache of the log's latest DeadlineExtended for this move).
    granted_at: datetime | None = None
    granted_days: int = Field(default=0)
    automatic: bool = Field(default=False)  # the seat-keeper or auto-play makes this move
    reminded_at: datetime | None = None
    timed_out_at: datetime | None = None
    settled_at: datetime | None = None  # the seat no longer owes this move


class Vacation(SQLModel, table=True):
    """Days a player declared away: their clocks stop from `starts_at` to `ends_at` (UTC), the
    local dates `start_date` and `days` in the game's time zone count against the allowance."""

    __tablename__ = "vacations"
    __table_args__ = (Index("ix_vacations_game_seat", "game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int
    start_date: date
    days: int
    starts_at: datetime
    ends_at: datetime
    created_at: datetime


class GameRequest(SQLModel, table=True):
    """A game asked for on the create page, waiting for its host to confirm their address: until
    then the only mail is the host's request to confirm. Confirming creates the game (`game_id`)."""

    __tablename__ = "game_requests"

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(max_length=32)
    players: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))  # name, email, bot
    host_name: str = Field(max_length=100)
    host_email: str = Field(max_length=254)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    control: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))  # TimeControl.columns()
    language: str = Field(default="", max_length=8)  # the table's language
    created_at: datetime
    game_id: str | None = Field(default=None, foreign_key="games.id", max_length=32)
    confirmed_at: datetime | None = None


class AddressRequest(SQLModel, table=True):
    """Someone asked for the "my games" link of an address (lower-cased) from a client, or its owner
    revoked its links (`revokes`, from a link they held): what the rate limit counts (both mail the
    address a link); the newest revocation stops every link of the address signed before it."""

    __tablename__ = "address_requests"
    __table_args__ = (
        Index("ix_address_requests_email", "email", "created_at"),
        Index("ix_address_requests_client", "client", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=254)
    client: str = Field(max_length=64)
    created_at: datetime
    revokes: bool = False


class RematchStatus(StrEnum):
    OPEN = "open"  # waiting for answers (until it lapses, 7 days after it was made)
    ACCEPTED = "accepted"  # every player accepted: `next_game_id` is the new game
    DECLINED = "declined"
    LAPSED = "lapsed"  # not answered in time (marked when the next proposal is made)


class RematchProposal(SQLModel, table=True):
    """A player's proposal to play the next match of a finished game with the same table: the seats
    as they were or rotated by one, each player's answer, and the game it started."""

    __tablename__ = "rematches"
    __table_args__ = (Index("ix_rematches_game", "game_id"), Index("ix_rematches_next", "next_game_id"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    proposer: int  # the proposing seat
    rotate: bool  # each player moves one seat on, so the first leader or dealer changes
    # The seats' answers by seat number (as a string: JSON keys): true to accept, false to decline.
    answers: dict[str, bool] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=RematchStatus.OPEN, max_length=16)
    created_at: datetime
    decided_at: datetime | None = None
    next_game_id: str | None = Field(default=None, foreign_key="games.id", max_length=32)


class AheadStatus(StrEnum):
    """What became of a play chosen ahead of the turn."""

    CHOSEN = "chosen"  # waiting for its situation
    PLAYED = "played"  # made when the seat owed it, as the player's own move
    DROPPED = "dropped"  # it did not fit (or was replaced, cancelled, or the seat changed hands)


class AheadPlay(SQLModel, table=True):
    """A play a seat chose ahead of its turn for one situation of its coming play (the seat's secret:
    only that seat's page, JSON and mails show it). `key_version` is the seat's link version when it
    was chosen: a seat given to a new player never plays the old player's choice. `situation` is
    the one of the play it answers as that play is owed ("led:R"), and in the games that number a
    seat's plays, `play_number` is that play's (so a choice for the trick after the coming one waits
    for it). Once settled,
    `seq` names the event it made, or `reason` (a rules message as JSON) why it did not fit, until a
    mail to the seat has told it (`told`)."""

    __tablename__ = "queued_plays"
    __table_args__ = (Index("ix_queued_plays_game_status", "game_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=32)
    seat: int
    key_version: int
    situation: str = Field(max_length=32)
    play_number: int | None = None
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(default=AheadStatus.CHOSEN, max_length=16)
    chosen_at: datetime
    settled_at: datetime | None = None
    seq: int | None = None
    reason: list[Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    told: bool = Field(default=False)


class BounceKind(StrEnum):
    PERMANENT = "permanent"  # a 5.x.x: the address does not take mail (or the relay refused it)
    TEMPORARY = "temporary"  # a 4.x.x or "delayed": the mail is still being tried
    COMPLAINT = "complaint"  # the reader marked it as spam (an ARF feedback report)


class BounceRecord(SQLModel, table=True):
    """A delivery report about one mail we sent, as its return path named it: which row, which
    address, permanent or temporary or a complaint, the status and the server's reason. A seat's
    reachability is derived from these and the outbox rows they name."""

    __tablename__ = "bounces"
    __table_args__ = (Index("ix_bounces_seat", "game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    mail_id: int = Field(foreign_key="outbox.id")
    game_id: str | None = Field(default=None, max_length=32)
    seat: int | None = None  # None: a mail to the host (or a digest)
    key_version: int = Field(default=0)  # the seat's link version then: a corrected address starts anew
    email: str = Field(max_length=254)  # the address the mail went to, lower-cased
    kind: str = Field(max_length=16)
    status: str = Field(default="", max_length=16)  # RFC 3463, e.g. 5.1.1
    reason: str = Field(default="", max_length=500)  # the receiving server's words (Diagnostic-Code)
    received_at: datetime


class ClubRecord(SQLModel, table=True):
    """A club: a standing group of members who keep playing. The truth about it is in `club_events`;
    `version` is the seq of its log's last event, kept by every append in its transaction."""

    __tablename__ = "clubs"

    id: str = Field(primary_key=True, max_length=32)
    created_at: datetime
    version: int = Field(default=0)


class ClubEventRecord(SQLModel, table=True):
    """One event of a club's append-only log (founded, a member invited, confirmed, gone, the host
    handed over, a season planned, a table started, talk); `(club_id, seq)` is unique, so a
    concurrent append conflicts. `email` is the address an event is about (lower-cased), so that an
    address's clubs are found without reading every log (it is never shown to other members), and
    `game_id` the table it started, so that a table's end finds its club."""

    __tablename__ = "club_events"
    __table_args__ = (
        UniqueConstraint("club_id", "seq", name="uq_club_events_club_seq"),
        Index("ix_club_events_email", "email"),
        Index("ix_club_events_game", "game_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="clubs.id", max_length=32)
    seq: int
    type: str = Field(max_length=64)
    v: int
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    email: str | None = Field(default=None, max_length=254)
    game_id: str | None = Field(default=None, max_length=32)
    created_at: datetime
