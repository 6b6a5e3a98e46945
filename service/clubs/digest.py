"""The club's weekly digest: once a week (by the service's clock, counted from the club's founding or
its last digest, an event of its log so that overlapping runs send it once), each confirmed member
is mailed the standings of the seasons still being played, who owes moves at their running tables and
what the members said to the club since the last digest: names only, nothing any hand holds. Each
member as they read the club's mail (`readers.py`): in their language, only if they want it, with
their reply address to the club's talk and their unsubscribe link."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlmodel import Session

from service.catalog import entry
from service.clubs.log import DIGEST_SENT, Club, ClubEvent, Member, Standing, club_ids, in_club
from service.clubs.readers import club_mail, member_language, wants_digest
from service.clubs.seasons import player_name, running_tables
from service.clubs.standings import standings
from service.eventlog.models import OutboxMail
from service.eventlog.store import load_table
from service.localtime import as_utc
from service.mail.drafting import my_games_url
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
        talk = _new_talk(club)
        readers = [m for m in club.members if m.standing == Standing.MEMBER and wants_digest(session, m)]
        mails = [_digest_mail(rt, session, club, member, week, talk) for member in readers]
        return len(mails), [ClubEvent(DIGEST_SENT, {}, now)], mails

    return in_club(rt, club_id, decide)


def _new_talk(club: Club) -> list[dict[str, str]]:
    """What the members said to the club since the last digest (in the log's order), by name."""
    names = club.names()
    return [{"name": names[t.member], "text": t.text} for t in club.talk[club.talk_digested :]]


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
        title = entry(season.game).title  # lazy: said in the reader's language as the mail is drafted
        week.append({"number": season.number + 1, "game": title, "standings": lines, "owing": owing})
    return week


def _digest_mail(
    rt: Runtime,
    session: Session,
    club: Club,
    member: Member,
    week: list[dict[str, Any]],
    talk: list[dict[str, str]],
) -> OutboxMail:
    values = {
        "club": club.name,
        "seasons": week,
        "talk": talk,
        "link": f"{my_games_url(rt, member.email)}/club/{club.club_id}",
    }
    language = member_language(session, club, member)
    return club_mail(rt, club, MailKind.CLUB_DIGEST, values, (member.name, member.email), language, member)
