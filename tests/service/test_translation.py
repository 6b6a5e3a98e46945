"""Every user-facing string goes through gettext: a new language needs a catalog, not a template edit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from service import create_app
from service.play.hosting import Player, create_game
from tests.conftest import app_config
from tests.helpers import mails, play_path

ROOT = Path(__file__).resolve().parents[2]
JAPANESE = {
    "Your hand": "手札",
    "Put a camp card face down": "陣営カードを裏向きに出す",
    "Your move.": "あなたの番です。",
    "%(name)s plays first.": "%(name)sが先にプレイします。",
}


def run(command: list[str]) -> None:
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def build_catalog(directory: Path, translations: dict[str, str] = JAPANESE) -> None:
    """Extract the messages as a translator would, translate a few into Japanese and compile."""
    pot = directory / "messages.pot"
    pybabel = [str(Path(sys.executable).parent / "pybabel")]
    directory.mkdir(parents=True)
    run([*pybabel, "extract", "-F", "babel.cfg", "-k", "_l", "-k", "N_", "-o", str(pot), "."])
    with pot.open("rb") as handle:
        catalog = read_po(handle, locale="ja")
    catalog.fuzzy = False  # a template's header is fuzzy; compile skips fuzzy catalogs
    for message in catalog:
        if message.id in translations:
            message.string = translations[message.id]
    target = directory / "ja" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.po").open("wb") as handle:
        write_po(handle, catalog)
    run([*pybabel, "compile", "-d", str(directory), "-l", "ja"])


def test_a_japanese_catalog_translates_the_page_without_touching_templates(tmp_path: Path) -> None:
    build_catalog(tmp_path / "translations")
    app = create_app(app_config(tmp_path, None, TRANSLATIONS_DIR=str(tmp_path / "translations")))
    with app.app_context():
        create_game(
            app.extensions["pbem"],
            "red_black",
            [Player("Ann", "a@example.org"), Player("Bo", "b@example.org")],
            Player("Ann", "a@example.org"),
            seed=1,
        )
        link = play_path(mails(app, to="a@example.org", kind="invitation")[0])
    client = app.test_client()
    japanese = client.get(link, headers={"Accept-Language": "ja,en;q=0.5"}).get_data(as_text=True)
    english = client.get(link, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "陣営カードを裏向きに出す" in japanese and 'lang="ja"' in japanese
    assert "Put a camp card face down" in english and "陣営カード" not in english
