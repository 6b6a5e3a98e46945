"""Action shapes: what a game's actions look like as JSON (RULINGS.md, "Actions"), declared once
next to each game's rules. `Game.act` checks an action against them before any rule reads it, so a
rule only ever sees well-formed values, and anything else is an IllegalAction naming what is wrong;
the service checks the same shapes at its edge and publishes them as JSON Schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rules.messages import N_, IllegalAction

Action = dict[str, Any]

SCALARS = (str, int, float, bool, type(None))  # the hashable JSON values; a list or object is no choice


@dataclass(frozen=True)
class Choice:
    """One of a fixed set of JSON scalars (card codes, colours, seats, true); `refusal` is the msgid
    for any other value, with %(value)s."""

    values: tuple[Any, ...]
    refusal: str

    @cached_property
    def accepted(self) -> frozenset[tuple[type, Any]]:
        """The values with their types (so that true is not 1), for a lookup in one step: a search
        bot's rollouts check an action for every move they play."""
        return frozenset((type(v), v) for v in self.values)

    def check(self, value: object) -> None:
        if not isinstance(value, SCALARS) or (type(value), value) not in self.accepted:
            raise IllegalAction(self.refusal, value=shown(value))

    def example(self) -> Any:
        return self.values[0]

    def schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}


@dataclass(frozen=True)
class Several:
    """A list of exactly `size` items of one choice; `refusal` is the msgid for anything else."""

    item: Choice
    size: int
    refusal: str

    def check(self, value: object) -> None:
        if not isinstance(value, list) or len(value) != self.size:
            raise IllegalAction(self.refusal, value=shown(value))
        for item in value:
            self.item.check(item)

    def example(self) -> Any:
        return [self.item.example()] * self.size

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.schema(), "minItems": self.size, "maxItems": self.size}


@dataclass(frozen=True)
class Record:
    """An object with exactly these fields, or null when `nullable`; `refusal` for anything else."""

    fields: Mapping[str, Choice]
    refusal: str
    nullable: bool = False

    def check(self, value: object) -> None:
        if value is None and self.nullable:
            return
        if not isinstance(value, dict) or set(value) != set(self.fields):
            raise IllegalAction(self.refusal, value=shown(value))
        for key, node in self.fields.items():
            node.check(value[key])

    def example(self) -> Any:
        return {key: node.example() for key, node in self.fields.items()}

    def schema(self) -> dict[str, Any]:
        record = object_schema(self.fields, {})
        return {"anyOf": [record, {"type": "null"}]} if self.nullable else record


Node = Choice | Several | Record


@dataclass(frozen=True)
class Shape:
    """One kind of action: an object with its required fields (the first names the kind) and the
    fields it may also have."""

    required: Mapping[str, Node]
    optional: Mapping[str, Node] = field(default_factory=dict)

    def example(self) -> Action:
        return {key: node.example() for key, node in self.required.items()}

    def schema(self) -> dict[str, Any]:
        return object_schema(self.required, self.optional)


def object_schema(required: Mapping[str, Node], optional: Mapping[str, Node]) -> dict[str, Any]:
    """The JSON Schema of an object with these fields and no others."""
    return {
        "type": "object",
        "properties": {key: node.schema() for key, node in {**required, **optional}.items()},
        "required": list(required),
        "additionalProperties": False,
    }


def shown(value: object) -> str:
    """A value as JSON in a message, cut short (any JSON value may arrive here)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):  # an integer past Python's digits limit, or deep nesting
        return "…"
    return text if len(text) <= 40 else text[:39] + "…"


def check_action(shapes: tuple[Shape, ...], action: object) -> Action:
    """The action, once it has one of the shapes; IllegalAction naming what is wrong otherwise."""
    if not isinstance(action, dict):
        raise IllegalAction(N_("An action is a JSON object: %(examples)s."), examples=examples_of(shapes))
    shape = next((s for s in shapes if next(iter(s.required)) in action), None)
    if shape is None:
        raise IllegalAction(N_("Unknown action: send %(examples)s."), examples=examples_of(shapes))
    for key in action:
        if key not in shape.required and key not in shape.optional:
            raise IllegalAction(
                N_("%(key)s has no place in this action: send %(example)s."),
                key=shown(key),
                example=examples_of((shape,)),
            )
    for key, node in shape.required.items():
        if key not in action:
            raise IllegalAction(
                N_("This action lacks %(key)s: send %(example)s."),
                key=shown(key),
                example=examples_of((shape,)),
            )
        node.check(action[key])
    for key, node in shape.optional.items():
        if key in action:
            node.check(action[key])
    return action


def examples_of(shapes: tuple[Shape, ...]) -> str:
    """An example of each shape, as JSON, for a refusal's message (written only then: a search bot's
    rollouts check every move they play)."""
    return " or ".join(json.dumps(shape.example(), ensure_ascii=False) for shape in shapes)


def actions_schema(shapes: tuple[Shape, ...]) -> dict[str, Any]:
    """The JSON Schema every action of a game matches."""
    return {"anyOf": [shape.schema() for shape in shapes]}
