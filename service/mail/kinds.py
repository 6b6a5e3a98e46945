"""Every kind of mail the service sends: its headline, its two bodies (text and HTML templates) and
who may turn it off, decided here for each kind (applied by `drafting.wants_mail`):

- a nudge about play (`NUDGES`) follows the seat's notify mode ("turn", "digest", "none");
- a mail about the game's life (a host's decision, more time, the seat-keeper, a proposal...) goes
  to every seat but one that turned mail off ("none", which unsubscribing sets), and to the host
  while its notices are on;
- a mail its reader must get (`ESSENTIAL`) always goes: the end of their own game (game over, a
  forfeit, a cancellation), a seat's own link replaced or lost to someone else, the host asked to
  decide, and what the reader asked for themselves (a confirmation, "my games", a reply's answer).
  These cannot be repeated at will by anyone else: a game ends once, a link is reissued only by the
  host, rate limited.

A mail about a game has the game's title as its subject, the same on every mail, so that every client
threads them (Gmail only threads mails whose subjects are equal, besides "Re:"); what the mail says
is its headline, the first line of both bodies, which clients show beside the subject."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l


class MailKind(StrEnum):
    INVITATION = "invitation"
    HOST = "host"
    YOUR_TURN = "your_turn"
    REPORT = "report"
    GAME_OVER = "game_over"
    LINK_RESENT = "link_resent"
    LINK_REISSUED = "link_reissued"
    GAME_CANCELLED = "game_cancelled"
    REMINDER = "reminder"
    SEAT_KEEPER = "seat_keeper"
    AUTO_PLAYED = "auto_played"
    FORFEIT = "forfeit"
    HOST_ASKED = "host_asked"
    DEADLINE_EXTENDED = "deadline_extended"
    VACATION = "vacation"
    VACATION_ENDED = "vacation_ended"
    DIGEST = "digest"
    CONFIRM_GAME = "confirm_game"
    HOST_DECISION = "host_decision"
    TAKEN_OVER = "taken_over"
    REPLACED = "replaced"
    MY_GAMES = "my_games"
    REMATCH_PROPOSED = "rematch_proposed"
    REMATCH_DECLINED = "rematch_declined"
    REPLY_OUTCOME = "reply_outcome"
    HOST_LINK_REISSUED = "host_link_reissued"
    UNREACHABLE = "unreachable"
    COMPLAINT = "complaint"
    CHANNEL_PAUSED = "channel_paused"
    CHANNEL_GONE = "channel_gone"
    CLUB_INVITATION = "club_invitation"
    SEASON_STARTED = "season_started"
    CLUB_DIGEST = "club_digest"

    def headline(self, values: Mapping[str, Any]) -> str:
        """What the mail says in one line, formatted with its values; with the deadline of the
        reader's move when the mail has one (`due`, a time as the reader reads it)."""
        if values.get("due") and self in DUE_HEADLINES:
            return str(DUE_HEADLINES[self]) % values
        return str(HEADLINES[self]) % values

    @property
    def unasked(self) -> bool:
        """Whether the mail can reach an address that never took part in the game: an invitation,
        a link, a confirmation, "my games", a proposal. The daily cap counts these only, so that the
        mails of a game its reader plays in are never held back."""
        return self in UNASKED

    @property
    def templates(self) -> tuple[str, str]:
        """The text and HTML body templates."""
        return f"mail/{self.value}.txt", f"mail/{self.value}.html"

    @property
    def nudge(self) -> bool:
        """Whether this is a nudge about play: sent to a seat only in the "turn" mode, to the host
        only while its notices are on. Every other kind always goes."""
        return self in NUDGES

    @property
    def about_play(self) -> bool:
        """Whether the mail is about play still to come (a move owed, the seat-keeper taking a seat,
        a reminder, the host asked to decide): never sent once the game is over."""
        return self in PLAY_TO_COME

    @property
    def essential(self) -> bool:
        """Whether the reader gets this mail even with mail turned off (see `ESSENTIAL`)."""
        return self in ESSENTIAL

    @property
    def about_one_game(self) -> bool:
        """Whether the mail is about one game, to one of its seats or its host (drafted by
        `draft_mail`); see NOT_ABOUT_ONE_GAME."""
        return self not in NOT_ABOUT_ONE_GAME

    @property
    def answerable(self) -> bool:
        """Whether its reader may answer it with a move or plays chosen ahead (a reply address and the
        line inviting one): not the mail telling a player their seat was given to someone else."""
        return self is not MailKind.REPLACED

    @property
    def carries_table(self) -> bool:
        """Whether a seat's mail of this kind carries its table and its moves (see `TABLE_MAILS`)."""
        return self in TABLE_MAILS

    @property
    def starts_thread(self) -> bool:
        """Whether the mail opens its reader's thread of this game (later mails refer to it)."""
        return self in (MailKind.INVITATION, MailKind.HOST)


HEADLINES: dict[MailKind, LazyString] = {
    MailKind.INVITATION: _l("You are invited"),
    MailKind.HOST: _l("Your game is set up"),
    MailKind.YOUR_TURN: _l("Your move"),
    MailKind.REPORT: _l("What happened"),
    MailKind.GAME_OVER: _l("Game over"),
    MailKind.LINK_RESENT: _l("Your link"),
    MailKind.LINK_REISSUED: _l("Your new link"),
    MailKind.GAME_CANCELLED: _l("Game cancelled"),
    MailKind.REMINDER: _l("Reminder: your move is due %(due)s"),
    MailKind.SEAT_KEEPER: _l("The seat-keeper is playing for you"),
    MailKind.AUTO_PLAYED: _l("Your only legal move was played for you"),
    MailKind.FORFEIT: _l("Game over: %(name)s forfeited"),
    MailKind.HOST_ASKED: _l("%(name)s ran out of time"),
    MailKind.DEADLINE_EXTENDED: _l("More time for your move: due %(due)s"),
    MailKind.VACATION: _l("%(name)s is away"),
    MailKind.VACATION_ENDED: _l("%(name)s is back"),
    MailKind.DIGEST: _l("Your daily digest: %(waiting)s"),
    # No player names here: they are the asker's words, and the address may not be theirs.
    MailKind.CONFIRM_GAME: _l("Confirm your game of %(game_name)s to send the invitations"),
    MailKind.HOST_DECISION: _l("A decision of the host"),
    MailKind.TAKEN_OVER: _l("You take over a seat"),
    MailKind.REPLACED: _l("Your seat was given to %(name)s"),
    MailKind.MY_GAMES: _l("Your games on the card table"),
    MailKind.REMATCH_PROPOSED: _l("%(name)s proposes a rematch"),
    MailKind.REMATCH_DECLINED: _l("No rematch: %(name)s declined"),
    MailKind.REPLY_OUTCOME: _l("The answer to your reply"),
    MailKind.HOST_LINK_REISSUED: _l("Your new host link"),
    MailKind.UNREACHABLE: _l("Mail to %(name)s is not arriving"),
    MailKind.COMPLAINT: _l("%(name)s marked the game's mail as spam"),
    MailKind.CHANNEL_PAUSED: _l("Your notices to %(name)s are paused"),
    MailKind.CHANNEL_GONE: _l("Your notices to %(name)s stopped"),
    MailKind.CLUB_INVITATION: _l("%(name)s invites you to the club %(club)s"),
    MailKind.SEASON_STARTED: _l("Season %(season)s of %(club)s starts"),
    MailKind.CLUB_DIGEST: _l("The week at %(club)s"),
}
# The headlines of a mail that asks for a move with a deadline (a timed game).
DUE_HEADLINES: dict[MailKind, LazyString] = {
    MailKind.INVITATION: _l("You are invited, and it is your move: due %(due)s"),
    MailKind.YOUR_TURN: _l("Your move: due %(due)s"),
}
# In "digest" mode the daily digest tells what these would (but the warnings it could bring too late
# still go: see drafting.wants_mail); the rest is the game's life (invitation, setup, game over,
# links, cancellation, the seat-keeper taking a seat, a forfeit, the host asked, the host's decisions
# about the table).
NUDGES = frozenset(
    {
        MailKind.YOUR_TURN,
        MailKind.REPORT,
        MailKind.REMINDER,
        MailKind.AUTO_PLAYED,
        MailKind.VACATION,
        MailKind.VACATION_ENDED,
    }
)
PLAY_TO_COME = frozenset(
    {
        MailKind.YOUR_TURN,
        MailKind.REMINDER,
        MailKind.SEAT_KEEPER,
        MailKind.AUTO_PLAYED,
        MailKind.HOST_ASKED,
        MailKind.DEADLINE_EXTENDED,
    }
)
# What a reader must get even after unsubscribing: their game's start or end, their own seat's
# link changed or given away, the host asked to decide or told that a seat's mail does not arrive, and
# what they asked for.
ESSENTIAL = frozenset(
    {
        MailKind.INVITATION,
        MailKind.HOST,
        MailKind.GAME_OVER,
        MailKind.FORFEIT,
        MailKind.GAME_CANCELLED,
        MailKind.LINK_REISSUED,
        MailKind.HOST_LINK_REISSUED,
        MailKind.REPLACED,
        MailKind.TAKEN_OVER,
        MailKind.HOST_ASKED,
        MailKind.CONFIRM_GAME,
        MailKind.MY_GAMES,
        MailKind.DIGEST,
        MailKind.REPLY_OUTCOME,
        MailKind.UNREACHABLE,
        MailKind.COMPLAINT,
        MailKind.CHANNEL_PAUSED,
        MailKind.CHANNEL_GONE,
        MailKind.CLUB_INVITATION,
        MailKind.SEASON_STARTED,
    }
)
# The mails that ask a seat for a move (or open its game): each carries the seat's table, as its
# page's first screen draws it, and its legal moves one tap each, so that a whole turn is played from
# the mail.
TABLE_MAILS = frozenset(
    {MailKind.INVITATION, MailKind.YOUR_TURN, MailKind.REMINDER, MailKind.DEADLINE_EXTENDED}
)
UNASKED = frozenset(
    {
        MailKind.INVITATION,
        MailKind.HOST,
        MailKind.CONFIRM_GAME,
        MailKind.LINK_RESENT,
        MailKind.LINK_REISSUED,
        MailKind.HOST_LINK_REISSUED,
        MailKind.MY_GAMES,
        MailKind.REMATCH_PROPOSED,
        MailKind.TAKEN_OVER,
        MailKind.CLUB_INVITATION,
    }
)
# The mails about no one game, drafted by their own functions: the digest lists several games, the
# confirmation asks about a game to come, "my games" lists an address's games, the club's mails are
# about the club.
NOT_ABOUT_ONE_GAME = frozenset(
    {
        MailKind.DIGEST,
        MailKind.CONFIRM_GAME,
        MailKind.MY_GAMES,
        MailKind.CLUB_INVITATION,
        MailKind.SEASON_STARTED,
        MailKind.CLUB_DIGEST,
    }
)
