"""bench/pace.py plays real matches through the service: one short Duālis match per mode (same
deal, looks and choices), each to its end, on the test's own SQLite app."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from flask import Flask

from service import create_app
from tests.conftest import app_config

PACE_PATH = Path(__file__).resolve().parents[2] / "bench" / "pace.py"


def load_pace() -> ModuleType:
    """bench/pace.py as a module (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("pace", PACE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_one_short_match_per_mode(tmp_path: Path) -> None:
    pace = load_pace()
    match = pace.Match("short", "Duālis short", "dualis", 4, {"short": True})
    app: Flask = create_app(app_config(tmp_path, None))
    with app.app_context():
        rt = app.extensions["pbem"]
        clock = rt.clock = pace.SimClock()
        hand, auto, queued = (pace.play_match(rt, clock, match, 0, 3.0, mode) for mode in pace.MODES)
    for outcome in (hand, auto, queued):
        assert outcome.days > 0
        assert outcome.by_hand > 0
    assert hand.auto == hand.queued == 0  # auto-play off: even forced moves wait for a look
    assert auto.auto > 0 and auto.queued == 0
    assert queued.queued > 0  # AheadPlay rows made as the player's move
    assert hand.by_hand == auto.by_hand + auto.auto  # the same moves, forced ones made for the player
