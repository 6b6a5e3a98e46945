"""Golden playthroughs: every case of `golden_play` played again from its seed shows every observer,
at every step, exactly what its checked-in record says (regenerate deliberately with
`.venv/bin/python -m tests.rules.golden_play --write`)."""

from __future__ import annotations

import pytest

from tests.rules.golden_play import CASES, Case, loaded, playthrough


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_a_playthrough_shows_what_its_golden_record_says(case: Case) -> None:
    expected, now = loaded(case), playthrough(case)
    assert now["case"] == expected["case"]
    assert len(now["steps"]) == len(expected["steps"])
    for number, (seen, wanted) in enumerate(zip(now["steps"], expected["steps"], strict=True)):
        assert seen == wanted, f"{case.name}: step {number} ({wanted['event']['type']}) differs"
    assert {k: v for k, v in now.items() if k != "steps"} == {
        k: v for k, v in expected.items() if k != "steps"
    }
