"""Every kind of mail the service sends: its subject, its two bodies (text and HTML templates) and
whether it is a nudge about play, which the reader's setting may turn off (a seat's notify mode, the
host's notices switch). Every other kind is about the game's life and always goes."""

from __future__ import annotations

from enum import StrEnum

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
    MY_GAMES = "my_games"
    REMATCH_PROPOSED = "rematch_proposed"
    REMATCH_DECLINED = "rematch_declined"

    @property
    def subject(self) -> LazyString:
        """The subject, formatted with the mail's values (e.g. %(title)s)."""
        return SUBJECTS[self]

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
    def starts_thread(self) -> bool:
        """Whether the mail opens its reader's thread of this game (later mails refer to it)."""
        return self in (MailKind.INVITATION, MailKind.HOST)


SUBJECTS: dict[MailKind, LazyString] = {
    MailKind.INVITATION: _l("%(title)s: you are invited"),
    MailKind.HOST: _l("%(title)s: your game is set up"),
    MailKind.YOUR_TURN: _l("%(title)s: your move"),
    MailKind.REPORT: _l("%(title)s: what happened"),
    MailKind.GAME_OVER: _l("%(title)s: game over"),
    MailKind.LINK_RESENT: _l("%(title)s: your link"),
    MailKind.LINK_REISSUED: _l("%(title)s: your new link"),
    MailKind.GAME_CANCELLED: _l("%(title)s: game cancelled"),
    MailKind.REMINDER: _l("Reminder: your move in %(title)s — due %(due)s"),
    MailKind.SEAT_KEEPER: _l("%(title)s: the seat-keeper is playing for you"),
    MailKind.AUTO_PLAYED: _l("%(title)s: your only legal move was played for you"),
    MailKind.FORFEIT: _l("%(title)s: game over, %(name)s forfeited"),
    MailKind.HOST_ASKED: _l("%(title)s: %(name)s ran out of time"),
    MailKind.DEADLINE_EXTENDED: _l("%(title)s: more time for your move"),
    MailKind.VACATION: _l("%(title)s: %(name)s is away"),
    MailKind.VACATION_ENDED: _l("%(title)s: %(name)s is back"),
    MailKind.DIGEST: _l("Your daily digest: %(waiting)s"),
    MailKind.MY_GAMES: _l("Your games on the card table"),
    MailKind.REMATCH_PROPOSED: _l("%(title)s: %(name)s proposes a rematch"),
    MailKind.REMATCH_DECLINED: _l("%(title)s: no rematch, %(name)s declined"),
}
# In "digest" mode the daily digest tells what these would; the rest is the game's life (invitation,
# setup, game over, links, cancellation, the seat-keeper taking a seat, a forfeit, the host asked).
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
