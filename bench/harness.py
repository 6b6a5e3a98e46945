"""What the benchmarks share: a fresh PostgreSQL database of their own and percentiles."""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from service.db import migrate

# The scripts run as `python bench/<name>.py`; the test helpers they share (a worker process) live
# in the project's tests package, which is not installed.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

PG_SERVER = os.environ.get("BENCH_POSTGRES_SERVER", "postgresql+psycopg://postgres@127.0.0.1:5432")


def fresh_database(name: str) -> str:
    """The URL of database `name`, dropped, created and migrated."""
    admin = create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    url = f"{PG_SERVER}/{name}"
    migrate(url)
    return url


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (1..99); the single value when there is one."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1]
