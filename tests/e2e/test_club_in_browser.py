"""A member in a real browser, in English and in Japanese: from the club's invitation mail to the
join page, the club page (members, the season's standings and tables) and their seat at a season
table; every page of the way passes axe-core with no serious or critical violation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect, sync_playwright

from service.clubs.members import found_club, invite_member
from service.clubs.seasons import SeasonPlan, plan_season
from tests.conftest import unavailable
from tests.e2e.conftest import CHROMIUM
from tests.e2e.test_accessibility import serious_violations
from tests.helpers import mails

WORDS = {
    "en": {"join": "Join the club", "seat": "Your seat at this table", "standings": "Standings"},
    "ja": {"join": "クラブに参加する", "seat": "この卓のあなたの席", "standings": "順位表"},
}
LOCALES = {"en": "en-GB", "ja": "ja-JP"}


@pytest.fixture(params=["en", "ja"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def reader(language: str) -> Iterator[Page]:
    """A headless chromium page on a phone whose browser asks for the language."""
    if not Path(CHROMIUM).exists():
        unavailable("chromium", FileNotFoundError(CHROMIUM))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=LOCALES[language])
        yield context.new_page()
        browser.close()


def test_a_member_joins_from_the_mail_and_opens_a_season_table(
    live_server: tuple[str, Flask], reader: Page, language: str
) -> None:
    base, app = live_server
    rt = app.extensions["pbem"]
    with app.app_context():
        club_id = found_club(rt, "ann@example.org", "Thursday cards", "Ann", language)
        invite_member(rt, club_id, "ann@example.org", "Bo", "bo@example.org")
    invitation = mails(app, to="bo@example.org", kind="club_invitation")[0]
    assert invitation.language == language
    link = re.search(rf"{re.escape(base)}/club/join/[A-Za-z0-9_.\-]+", invitation.text_body)
    assert link is not None
    reader.goto(link.group(0))
    assert reader.locator("html").get_attribute("lang") == language
    assert serious_violations(reader) == []
    reader.get_by_role("button", name=WORDS[language]["join"]).click()
    expect(reader.get_by_role("heading", name="Thursday cards", level=1)).to_be_visible()
    with app.app_context():
        plan_season(rt, club_id, "ann@example.org", SeasonPlan("red_black", (0, 1), at_once=1))
    reader.reload()
    expect(reader.get_by_text(WORDS[language]["standings"])).to_be_visible()
    assert "ann@example.org" not in reader.content()
    assert serious_violations(reader) == []
    reader.get_by_role("link", name=WORDS[language]["seat"]).click()
    expect(reader).to_have_url(re.compile(r"/play/"))
    assert reader.locator("html").get_attribute("lang") == language
    assert serious_violations(reader) == []
