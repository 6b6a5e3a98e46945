"""How the service presents each game: titles, option labels, and which moves ask for confirmation.

Presentation only: every rule stays in `rules/`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _l

from rules import GAMES, get_game


@dataclass(frozen=True)
class GameOption:
    """A boolean option of a game: its label (create form, rules page) and its short name in the
    title of a table that plays with it ("Duālis · Iso, High-Low, short")."""

    label: Any
    short: Any


@dataclass(frozen=True)
class GameEntry:
    """One game as the pages show it."""

    name: str
    title: Any
    blurb: Any
    options: dict[str, GameOption] = field(default_factory=dict)  # in the order titles name them
    confirm_keys: frozenset[str] = frozenset()  # actions with one of these keys are confirmed first
    report_events: frozenset[str] = frozenset()  # events that earn everyone a report mail

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return get_game(self.name).seat_counts

    @property
    def option_labels(self) -> dict[str, Any]:
        """Each boolean option's label."""
        return {key: option.label for key, option in self.options.items()}

    def variant_title(self, options: dict[str, Any]) -> str:
        """The game's title with the options a table plays with ("Duālis · Iso, High-Low, short")."""
        chosen = [str(option.short) for key, option in self.options.items() if options.get(key)]
        return " · ".join([str(self.title), ", ".join(chosen)]) if chosen else str(self.title)

    def rules_query(self, options: dict[str, Any]) -> dict[str, str]:
        """The query of a table's link to the rules page: the table's options switched on, as "1"."""
        return {"table": "1", **{key: "1" for key in self.option_labels if options.get(key)}}

    def needs_confirmation(self, action: dict[str, Any], legal_actions: list[dict[str, Any]]) -> bool:
        """Whether a mistap of this action is costly enough to ask first: never for a seat's only
        legal move (it cannot be wrong)."""
        return len(legal_actions) > 1 and any(action.get(key) for key in self.confirm_keys)


OPEN_HISTORY = GameOption(_l("Open history: played tricks stay visible"), _l("open history"))

CATALOG: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry(
            "dualis",
            _l("Duālis"),
            _l("Partnership trick-taking where coins on your cards decide the trump colour."),
            {
                "iso": GameOption(_l("Iso Play: 3 or 4 players, no partners"), _l("Iso")),
                "high_low": GameOption(_l("High-Low: a blue lead makes low numbers strong"), _l("High-Low")),
                "short": GameOption(_l("Short game (9 cards, 5 + 5 coins)"), _l("short")),
                "open_history": OPEN_HISTORY,
            },
            frozenset({"coin"}),
        ),
        GameEntry(
            "double_side",
            _l("Double Side Play"),
            _l("Hit your dice with your trick count; the cards turn over halfway."),
            {
                "trump": GameOption(_l("Trump: the highest dice choose a trump colour"), _l("trump")),
                "open_history": OPEN_HISTORY,
            },
            frozenset({"trump"}),
        ),
        GameEntry(
            "dupli",
            _l("Dupli"),
            _l("Set two policy cards in secret each war; the strongest pair takes the field. Four wars."),
            {},
            frozenset({"cancel"}),
            frozenset({"WarResolved"}),
        ),
        GameEntry(
            "red_black",
            _l("Red and Black Duel"),
            _l("A two-player bluffing duel for chips: win three plays in your camp's colour."),
            {},
            frozenset({"fold"}),
        ),
    )
}
assert set(CATALOG) == set(GAMES)


def entry(name: str) -> GameEntry:
    """The catalog entry of a game."""
    return CATALOG[name]
