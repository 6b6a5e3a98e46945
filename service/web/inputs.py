"""The edge's checks on raw input, before any rule or query sees it: integers in URLs and forms are
SQL integers, request JSON is strict JSON of bounded depth.

Every `<int:...>` of a route is an `SqlInteger`: a whole number from 0 to the largest SQL integer, so
an id, a step or a seat out of that range names no page (404) instead of reaching the database.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import IntegerConverter, Map

from service.links import SQL_INT_MAX

JSON_DEPTH = 16  # no request of this service nests deeper


class SqlInteger(IntegerConverter):
    """A URL integer from 0 to SQL_INT_MAX (a larger one, or a sign, matches no route)."""

    def __init__(self, map: Map, fixed_digits: int = 0, min: int = 0, max: int = SQL_INT_MAX) -> None:
        super().__init__(map, fixed_digits, min, max)


def sql_int(text: str | None) -> int | None:
    """An SQL integer written in ASCII digits, or None for anything else (empty, signed, other
    scripts' digits, too large)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > len(str(SQL_INT_MAX)):
        return None
    number = int(text)
    return number if number <= SQL_INT_MAX else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def json_depth(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (a scalar: 0)."""
    depth, level = 0, [value]
    while level:
        depth += 1
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        ]
    return depth - 1


class StrictJSONProvider(DefaultJSONProvider):
    """Request JSON as RFC 8259 has it: no NaN or Infinity, no nesting past JSON_DEPTH, and a
    ValueError (a 400 from `request.get_json`) for any of it, as for broken JSON."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            value = json.loads(s, parse_constant=_no_constant, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if json_depth(value) > JSON_DEPTH:
            raise ValueError("JSON nested too deeply")
        return value


def init_inputs(app: Flask) -> None:
    """Bounded URL integers and strict JSON for every route of the app."""
    app.url_map.converters["int"] = SqlInteger
    app.json = StrictJSONProvider(app)
