"""A guard over every template the tests render (pages and mails alike): the context may hold plain
values, the rules' views and lines, never a loaded Table, a Replay, a rules state or a list of events.
This is what keeps a hidden card out of a template even by mistake."""

from __future__ import annotations

import dataclasses
from typing import Any

from service.eventlog.store import FoldCache, Table
from service.replay.steps import Replay

FORBIDDEN: tuple[type, ...] = (Table, Replay, FoldCache)
PLAIN = (str, bytes, int, float, bool, type(None))


def is_rules_state(value: object) -> bool:
    """Whether `value` is a game's folded state (every hand in it)."""
    kind = type(value)
    return kind.__module__.startswith("rules.") and kind.__name__ == "State"


def is_event(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("type"), str) and "v" in value


def forbidden_in(value: Any, path: str, seen: set[int] | None = None) -> str | None:
    """Where in `value` a forbidden object lies (a path like "table.seats"), or None."""
    seen = set() if seen is None else seen
    if isinstance(value, PLAIN) or id(value) in seen:
        return None
    seen.add(id(value))
    if isinstance(value, FORBIDDEN) or is_rules_state(value) or is_event(value):
        return f"{path} ({type(value).__name__})"
    if isinstance(value, dict):
        children = [(f"{path}[{key!r}]", item) for key, item in value.items()]
    elif isinstance(value, list | tuple | set | frozenset):
        children = [(f"{path}[{n}]", item) for n, item in enumerate(value)]
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        children = [(f"{path}.{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value)]
    else:
        return None
    for child_path, child in children:
        found = forbidden_in(child, child_path, seen)
        if found:
            return found
    return None


class ReadingGuard:
    """Receives Flask's template_rendered signal and keeps every violation seen."""

    def __init__(self) -> None:
        self.violations: list[str] = []

    def __call__(self, _app: object, template: Any, context: dict[str, Any], **_extra: object) -> None:
        for key, value in context.items():
            found = forbidden_in(value, key)
            if found:
                self.violations.append(f"{template.name}: {found}")
