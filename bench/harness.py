"""What the benchmarks share: a fresh PostgreSQL database of their own, percentiles, a free port
and the CPU time of processes."""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from http.client import HTTPConnection
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bench_env(pythonpath: Path, **values: str) -> dict[str, str]:
    """This environment for a started process: the project's virtual environment first on the PATH,
    `pythonpath` for its imports, and `values`."""
    return {
        **os.environ,
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}",
        "PYTHONPATH": str(pythonpath),
        **values,
    }


@contextmanager
def started(command: str, env: dict[str, str], log: Path, cwd: Path = ROOT) -> Iterator[subprocess.Popen]:
    """`command` run by the shell (which expands the Procfile's `${PORT:-8000}`) in its own process
    group, its output in `log`; on leaving, the group stopped (SIGTERM, SIGKILL after 30 s)."""
    with log.open("w") as out:
        process = subprocess.Popen(
            ["sh", "-c", "exec " + command],
            env=env,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield process
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def answers(port: int, path: str = "/") -> bool:
    """Whether a web server on this port answers `path` with 200 now."""
    try:
        connection = HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path)
        return connection.getresponse().status == 200
    except OSError:
        return False


def _processes() -> Iterator[tuple[int, str, int, float]]:
    """Every process alive now: pid, command, parent's pid, user + system CPU seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        fields = tail.split()
        yield (
            int(entry.name),
            head.split("(", 1)[1],
            int(fields[1]),
            (int(fields[11]) + int(fields[12])) / tick,
        )


def tree_cpu_seconds(root_pid: int) -> float:
    """User + system CPU seconds of a process and all its descendants, alive now."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for pid, _, parent, seconds in _processes():
        parents[pid], cpu[pid] = parent, seconds
    total, stack = 0.0, [root_pid]
    while stack:
        pid = stack.pop()
        total += cpu.get(pid, 0.0)
        stack.extend(child for child, parent in parents.items() if parent == pid)
    return total


def processes_cpu_seconds(command: str) -> float:
    """User + system CPU seconds of every process of this command (postgres, redis-server)."""
    return sum(seconds for _, name, _, seconds in _processes() if name == command)
