"""A new host in the browser: the rules are one tap from the home page and the create form, a host
who switched the pages to 日本語 gets a Japanese table (the form preselects it, the confirmation,
the invitations and the host page follow), and a host who plays too types name and address once."""

from __future__ import annotations

import re

from flask import Flask
from playwright.sync_api import Page, expect
from sqlmodel import Session, select

from service.eventlog.models import GameRecord
from tests.helpers import mails


def test_the_rules_are_linked_from_the_home_page_and_the_create_form(
    live_server: tuple[str, Flask],
    page: Page,
) -> None:
    base, _ = live_server
    page.goto(base)
    page.get_by_role("link", name="How to play Dupli").click()
    expect(page).to_have_url(f"{base}/rules/dupli")
    page.goto(f"{base}/new/red_black")
    page.get_by_role("link", name="How to play Red and Black Duel").click()
    expect(page).to_have_url(f"{base}/rules/red_black")


def test_a_host_browsing_in_japanese_who_plays_too_gets_a_japanese_table(
    live_server: tuple[str, Flask],
    page: Page,
) -> None:
    base, app = live_server
    page.goto(base)  # the browser asks for English
    page.get_by_role("button", name="日本語").click()
    page.goto(f"{base}/new/red_black")
    expect(page.locator("select[name=language]")).to_have_value("ja")
    page.fill("[name=host_name]", "Ann")
    page.fill("[name=host_email]", "ann@example.org")
    page.check("[name=host_plays]")
    page.fill("[name=players-0-name]", "Bo")
    page.fill("[name=players-0-email]", "bo@example.org")
    page.get_by_role("button", name="ゲームを作って招待を送る").click()
    expect(page.get_by_text("ann@example.org")).to_be_visible()

    (confirmation,) = mails(app, kind="confirm_game")
    assert (confirmation.language, confirmation.to_name) == ("ja", "Ann")
    page.goto(re.search(r"https?://\S+/confirm/\S+", confirmation.text_body).group(0))  # type: ignore[union-attr]
    page.get_by_role("button", name="確定して招待を送る").click()

    with Session(app.extensions["pbem"].engine) as session:
        (record,) = session.exec(select(GameRecord)).all()
    assert record.language == "ja"
    invitations = mails(app, kind="invitation")
    assert {m.language for m in invitations} == {"ja"}
    seats = {m.to_email: m.seat for m in invitations}
    assert seats == {"bo@example.org": 0, "ann@example.org": 1}  # the host took the first empty row
    (host_mail,) = mails(app, kind="host")
    assert host_mail.language == "ja"
    page.context.clear_cookies()  # the host page speaks the table's language, not the switch's cookie
    page.goto(re.search(r"https?://\S+/host/\S+", host_mail.text_body).group(0))  # type: ignore[union-attr]
    assert page.locator("html").get_attribute("lang") == "ja"


def test_a_host_who_plays_needs_an_empty_row(live_server: tuple[str, Flask], page: Page) -> None:
    base, app = live_server
    page.goto(f"{base}/new/red_black")
    expect(page.locator("select[name=language]")).to_have_value("en")
    page.fill("[name=host_name]", "Ann")
    page.fill("[name=host_email]", "ann@example.org")
    page.check("[name=host_plays]")
    for seat, name in enumerate(("Bo", "Cy")):
        page.fill(f"[name=players-{seat}-name]", name)
        page.fill(f"[name=players-{seat}-email]", f"{name.lower()}@example.org")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.get_by_text("Leave a row of players empty for yourself.")).to_be_visible()
    assert not mails(app)
