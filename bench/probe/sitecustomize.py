"""Counts the SQL statements of every process of the stack that bench/load.py starts.

bench/load.py puts this folder on PYTHONPATH, so Python imports it at start in the web and worker
processes, which run their Procfile commands unchanged. Each process (forked children included)
counts the statements its SQLAlchemy engines execute and writes the running total to
`$PBEM_PROBE_DIR/<pid>` twice a second.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

PROBE_DIR = os.environ.get("PBEM_PROBE_DIR")
_count = 0
_writer_pid = 0


def _write_forever(path: Path) -> None:
    while True:
        path.write_text(str(_count))
        time.sleep(0.5)


def _counted(*_: Any) -> None:
    global _count, _writer_pid
    _count += 1
    if _writer_pid != os.getpid():  # the first statement of this process (or of a forked child)
        _writer_pid = os.getpid()
        _count = 1
        assert PROBE_DIR is not None
        path = Path(PROBE_DIR) / str(_writer_pid)
        threading.Thread(target=_write_forever, args=(path,), daemon=True).start()


if PROBE_DIR:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    event.listen(Engine, "before_cursor_execute", _counted)
