"""`/healthz`: the health checks as JSON for a supervisor or load balancer (503 when one fails)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from service.health import check_health
from service.runtime import runtime

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz() -> ResponseReturnValue:
    health = check_health(runtime())
    return jsonify({"ok": health.ok, "checks": health.checks}), 200 if health.ok else 503
