"""`pbem club recompute`: a club's standings and ratings derived from scratch, from its log and its
tables' logs, each folded anew (no cached fold), in the shape of the club page's JSON, so that they
can be compared with what the pages show."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from service.clubs.log import load
from service.clubs.ratings import club_ratings, rating_lines
from service.clubs.standings import standings
from service.eventlog.store import load_table
from service.runtime import Runtime


def recomputed(rt: Runtime, club_id: str) -> dict[str, Any]:
    """The club's standings per season (newest first, as the page lists them) and its ratings."""
    with Session(rt.engine) as session:
        club = load(session, club_id)
        seasons = [
            standings(club, season, {i: load_table(session, g) for i, g in season.started.items()})
            for season in reversed(club.seasons)
        ]
    return {
        "club": club_id,
        "standings": [[line.as_json() for line in lines] for lines in seasons],
        "ratings": [line.as_json() for line in rating_lines(club, club_ratings(rt, club, fresh=True))],
    }
