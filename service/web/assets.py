"""Static files under versioned URLs: each URL carries a hash of the file's content, so that browsers
keep a file for a year and still fetch a changed one at once (its URL changed with it)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from flask import Flask

STATIC_MAX_AGE = 365 * 24 * 3600


def content_version(folder: Path, filename: str) -> str:
    """A short hash of a static file's content ("" when there is no such file: Flask answers 404)."""
    path = (folder / filename).resolve()
    if not path.is_file() or folder.resolve() not in path.parents:
        return ""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def init_assets(app: Flask) -> None:
    """Version every `url_for('static', ...)` and let browsers cache static files for a year."""
    folder = Path(app.static_folder or "")
    versions: dict[str, str] = {}  # files do not change while the process runs

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values:
            name = values["filename"]
            if name not in versions:
                versions[name] = content_version(folder, name)
            if versions[name]:
                values.setdefault("v", versions[name])

    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = STATIC_MAX_AGE
