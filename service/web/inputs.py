"""The edge's checks on raw input, before any rule or query sees it: integers in URLs and forms are
SQL integers, request JSON is strict JSON of bounded depth, and no text holds a NUL character.

Every `<int:...>` of a route is an `SqlInteger`: a whole number from 0 to the largest SQL integer, so
an id, a step or a seat out of that range names no page (404) instead of reaching the database.

PostgreSQL refuses a NUL character in any text it is given (`psycopg.DataError`), and no id, token,
name or move of this service holds one: a path part with a NUL names no page (404), a query, form or
JSON value with one is a bad request (400), before any view runs. Request JSON with a lone surrogate
(`"\\ud800"`, half a UTF-16 pair, no character at all) is refused as broken JSON: it could not be
stored nor echoed in an answer.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, abort, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _
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


def json_strings(value: Any) -> list[str]:
    """Every string of a parsed JSON value: its keys and its texts, at any depth."""
    strings, level = [], [value]
    while level:
        strings += [item for item in level if isinstance(item, str)]
        strings += [key for item in level if isinstance(item, dict) for key in item]
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item if isinstance(item, list) else ())
        ]
    return strings


def unstorable(text: str) -> bool:
    """Whether a text holds what no database column takes: a NUL, or a lone surrogate (UTF-8 has
    no encoding for it)."""
    return "\x00" in text or any("\ud800" <= char <= "\udfff" for char in text)


class StrictJSONProvider(DefaultJSONProvider):
    """Request JSON as RFC 8259 has it: no NaN or Infinity, no nesting past JSON_DEPTH, no NUL or
    lone surrogate in a string, and a ValueError (a 400 from `request.get_json`) for any of it, as
    for broken JSON."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            value = json.loads(s, parse_constant=_no_constant, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if json_depth(value) > JSON_DEPTH:
            raise ValueError("JSON nested too deeply")
        if any(unstorable(text) for text in json_strings(value)):
            raise ValueError("JSON text holds a NUL character or a lone surrogate")
        return value


def refuse_nul_characters() -> None:
    """Before any view: 404 for a path part with a NUL (no id or token has one), 400 for a query or
    form value or name with one."""
    if any("\x00" in value for value in (request.view_args or {}).values() if isinstance(value, str)):
        abort(404)
    sent = (*request.args.items(multi=True), *request.form.items(multi=True))
    if any("\x00" in name or "\x00" in value for name, value in sent):
        abort(400, _("What was sent holds a NUL character, which no field takes."))


def init_inputs(app: Flask) -> None:
    """Bounded URL integers, strict JSON and no NUL characters for every route of the app."""
    app.url_map.converters["int"] = SqlInteger
    app.json = StrictJSONProvider(app)
    app.before_request(refuse_nul_characters)
