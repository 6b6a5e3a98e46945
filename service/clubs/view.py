"""A club as one of its members sees it: names and standings, who hosts, the talk; never another
member's address."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from service.clubs.log import Club, Member, Standing
from service.clubs.ratings import RatingLine
from service.clubs.standings import SeasonView
from service.localtime import as_utc


@dataclass(frozen=True)
class MemberLine:
    number: int
    name: str
    standing: Standing
    host: bool
    you: bool


@dataclass(frozen=True)
class TalkLine:
    name: str
    text: str
    at: datetime


@dataclass(frozen=True)
class YourSettings:
    """The member's own settings for the club's mail: its language ("" for that of their games) and
    whether the weekly digest comes to them."""

    language: str
    digest: bool

    def as_json(self) -> dict[str, object]:
        return {"language": self.language, "digest": self.digest}


@dataclass(frozen=True)
class ClubView:
    """The club's page for the member `you`: plain values, names only."""

    club_id: str
    name: str
    you: MemberLine
    members: tuple[MemberLine, ...]
    talk: tuple[TalkLine, ...]
    settings: YourSettings
    seasons: tuple[SeasonView, ...] = ()
    ratings: tuple[RatingLine, ...] = ()

    @property
    def hosting(self) -> bool:
        return self.you.host

    def as_json(self) -> dict[str, object]:
        return {
            "club": self.club_id,
            "name": self.name,
            "you": self.you.number,
            "host": next(m.number for m in self.members if m.host),
            "members": [
                {"number": m.number, "name": m.name, "standing": m.standing.value, "host": m.host}
                for m in self.members
            ],
            "talk": [{"name": t.name, "text": t.text, "at": t.at.isoformat()} for t in self.talk],
            "seasons": [season.as_json() for season in self.seasons],
            "ratings": [line.as_json() for line in self.ratings],
            "settings": self.settings.as_json(),
        }


def club_view(
    club: Club,
    you: Member,
    digest: bool,
    seasons: tuple[SeasonView, ...] = (),
    ratings: tuple[RatingLine, ...] = (),
) -> ClubView:
    """What the member `you` sees of the club: its members in the club now (invited or confirmed),
    the talk, oldest first, their settings (`digest`: whether the weekly digest comes to them), its
    `seasons` and its `ratings`."""
    lines = tuple(
        MemberLine(m.number, m.name, m.standing, m.number == club.host, m.number == you.number)
        for m in club.members
        if m.standing in (Standing.INVITED, Standing.MEMBER)
    )
    names = club.names()
    talk = tuple(TalkLine(names[t.member], t.text, as_utc(t.at)) for t in club.talk)
    you_line = lines[[m.number for m in lines].index(you.number)]
    settings = YourSettings(you.language, digest)
    return ClubView(club.club_id, club.name, you_line, lines, talk, settings, seasons, ratings)
