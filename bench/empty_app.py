"""A Flask app that does nothing, served as the Procfile serves the service: the floor of one web
request (bench/floor.py)."""

from __future__ import annotations

from flask import Flask

app = Flask(__name__)


@app.get("/")
def nothing() -> str:
    return ""
