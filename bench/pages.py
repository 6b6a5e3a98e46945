"""The table page of each game mid-round: server time, bytes, requests per load, and where the move is.

For each game a table is created in the embedded service (SQLite, tasks in-process) and played by
random legal moves into its first round, to a position where a person owes a move. Then:

* server time: the seat's page fetched through the Flask test client, p50/p95 over many requests,
  and its size in bytes;
* a phone (Debian's chromium at 390x844, driven by Playwright) loads the page from a local server:
  the requests the load makes (HTML + static), the page's height, and the top of the first legal
  move's button in CSS pixels, with the number of screens it lies down (1.0 = just below the first).

    .venv/bin/python bench/pages.py [--requests 200] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from werkzeug.serving import make_server

from rules import get_game
from service import create_app
from service.mail.drafting import player_url
from service.play.hosting import Player, create_game
from service.play.moves import MoveStatus, submit_move

PHONE = {"width": 390, "height": 844}
# Moves into the first round, before measuring: the table then shows play in progress.
WARM_UP = {"dualis": 9, "double_side": 9, "dupli": 3, "red_black": 5}
SEATS = {"dualis": 4, "double_side": 4, "dupli": 4, "red_black": 2}
NAMES = ("Ann", "Bo", "Cy", "Di")
# The first control that makes a move: a hand card that plays (the table), else a move button.
MOVE_SELECTOR = "[data-legal-move], form.moves button[type=submit]:not([disabled])"


@dataclass(frozen=True)
class Table:
    game: str
    path: str  # the page of a seat that owes a move, relative to the server


def warmed_table(app: Flask, game: str, seed: int) -> Table:
    """A game played by random legal moves into its first round; the page of a seat it waits on."""
    rt = app.extensions["pbem"]
    rules = get_game(game)
    rng = random.Random(seed)
    players = [Player(name, f"{name.lower()}@example.org") for name in NAMES[: SEATS[game]]]
    game_id = create_game(rt, game, players, players[0], {}, seed)
    for _ in range(WARM_UP[game]):
        table = rt.read_table(game_id)
        seat = min(rules.to_act(table.state))
        action = rng.choice(rules.legal_actions(table.state, seat))
        outcome = submit_move(rt, game_id, seat, table.version, action)
        assert outcome.status == MoveStatus.ACCEPTED, outcome
    table = rt.read_table(game_id)
    seat = min(rules.to_act(table.state))
    return Table(game, player_url(rt, table, seat).removeprefix(rt.settings["BASE_URL"].rstrip("/")))


def server_times(app: Flask, path: str, count: int) -> tuple[list[float], int]:
    """Milliseconds per GET of the page, and its size in bytes."""
    client = app.test_client()
    size = len(client.get(path).data)
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, path
    return times, size


@dataclass(frozen=True)
class PhoneLoad:
    requests: int
    height: float
    first_move_y: float | None


def phone_loads(base: str, tables: list[Table], chromium: str) -> dict[str, PhoneLoad]:
    """Each table page loaded on a phone-sized chromium: requests, page height, first move's top."""
    from playwright.sync_api import sync_playwright

    loads = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        for table in tables:
            context = browser.new_context(viewport=PHONE)
            page = context.new_page()
            requested: list[str] = []
            page.on("request", lambda request, into=requested: into.append(request.url))
            page.goto(base + table.path, wait_until="load")
            move = page.locator(MOVE_SELECTOR).first
            box = move.bounding_box() if move.count() else None
            height = page.evaluate("document.documentElement.scrollHeight")
            loads[table.game] = PhoneLoad(len(requested), height, box["y"] if box else None)
            context.close()
        browser.close()
    return loads


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no request log between the figures
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "SECRET_KEY": "bench"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        base = f"http://127.0.0.1:{server.server_port}"
        app.config["PBEM"]["BASE_URL"] = base
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with app.app_context():
            tables = [warmed_table(app, game, args.seed) for game in SEATS]
        loads = phone_loads(base, tables, args.chromium) if Path(args.chromium).exists() else {}
        print(f"table page mid-round, {args.requests} GETs each (server time); phone 390x844 (chromium)")
        for table in tables:
            times, size = server_times(app, table.path, args.requests)
            line = (
                f"{table.game:12} p50 {statistics.median(times):6.1f} ms  p95 {percentile(times, 95):6.1f} ms"
                f"  {size:7,} bytes"
            )
            load = loads.get(table.game)
            if load is not None:
                y = load.first_move_y
                where = "no move button found"
                if y is not None:
                    where = f"first move at y={y:5.0f} px ({y / PHONE['height']:.1f} screens)"
                line += f"  {load.requests} requests  page {load.height:5.0f} px  {where}"
            print(line)
        server.shutdown()


if __name__ == "__main__":
    main()
