"""The club's weekly digest: once a week (by the service's clock, counted from the club's founding or
its last digest, an event of its log so that overlapping runs send it once), each confirmed member
is mailed the standings of the seasons still being played and who owes moves at their running tables:
names only, nothing any hand holds. A member whose every seat turned mail off gets none. In the club's
language and thread."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask_babel import force_locale
from sqlmodel import Session, func, select

from service.catalog import entry
from service.clubs.log import DIGEST_SENT, Club, ClubEvent, Member, Standing, club_ids, in_club
from service.clubs.seasons import player_name, running_tables
from service.clubs.standings import standings
from service.eventlog.models import NotifyMode, OutboxMail, SeatRecord
from service.eventlog.store import load_table
from service.localtime import as_utc
from service.mail.drafting import my_games_url, new_message_id, outbox_row
from service.mail.kinds import MailKind
from service.runtime import Runtime

WEEK = timedelta(days=7)


def send_club_digests(rt: Runtime) -> int:
    """Send every club's weekly digest now due; how many mails."""
    return sum(send_club_digest(rt, club_id) for club_id in club_ids(rt))


def send_club_digest(rt: Runtime, club_id: str) -> int:
    """The club's digest, if a week has passed since the last one (or the founding); how many mails."""
    now = rt.clock.now()

    def decide(session: Session, club: Club) -> tuple[int, list[ClubEvent], list[OutboxMail]]:
        since = club.digested or club.founded
        if since is None or as_utc(since) > now - WEEK:
            return 0, [], []
        week = _week(session, club)
        readers = [m for m in club.members if m.standing == Standing.MEMBER and _wants_mail(session, m)]
        mails = []
        for member in readers:
            with force_locale(club.language):
                mails.append(_digest_mail(rt, club, member, week))
        return len(mails), [ClubEvent(DIGEST_SENT, {}, now)], mails

    return in_club(rt, club_id, decide)


def _wants_mail(session: Session, member: Member) -> bool:
    """Whether the member's address has a seat that did not turn mail off, or no seat at all."""
    modes = set(
        session.exec(
            select(SeatRecord.notify).where(func.lower(func.trim(SeatRecord.email)) == member.email)
        ).all()
    )
    return not modes or modes != {NotifyMode.NONE}


def _week(session: Session, club: Club) -> list[dict[str, Any]]:
    """Each season still being played: its standings and, at each running table, who owes a move."""
    week = []
    for season in club.seasons:
        running = running_tables(session, season)
        if not running and len(season.started) == len(season.tables):
            continue
        tables = {i: load_table(session, game_id) for i, game_id in season.started.items()}
        owing = []
        for index in running:
            table = tables[index]
            names = [player_name(club, season, season.players[p]) for p in season.tables[index]]
            owed = [names[seat] for seat in sorted(table.rules.to_act(table.state))]
            owing.append({"names": " · ".join(names), "owed": ", ".join(owed)})
        lines = standings(club, season, tables)
        title = entry(season.game).title  # lazy: said in the club's language as the mail is drafted
        week.append({"number": season.number + 1, "game": title, "standings": lines, "owing": owing})
    return week


def _digest_mail(rt: Runtime, club: Club, member: Member, week: list[dict[str, Any]]) -> OutboxMail:
    kind = MailKind.CLUB_DIGEST
    values = {"club": club.name}
    return outbox_row(
        rt,
        kind,
        {**values, "seasons": week, "link": f"{my_games_url(rt, member.email)}/club/{club.club_id}"},
        game_id=None,
        seat=None,
        to_name=member.name,
        to_email=member.email,
        subject=kind.headline(values),
        message_id=new_message_id(rt, f"club.{club.club_id}"),
        thread_id=f"<club.{club.club_id}@{rt.settings['MAIL_DOMAIN']}>",
        unsubscribe_url="",
        language=club.language,
    )
