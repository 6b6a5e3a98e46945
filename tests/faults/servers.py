"""A PostgreSQL and a Redis server of the test's own, on spare ports, that the test may restart
(so other checkouts on the machine, and the shared servers, are undisturbed)."""

from __future__ import annotations

import glob
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.smtp_sink import free_port


class OwnPostgres:
    """`initdb` into a temporary folder and `pg_ctl` a server on a spare port (as the postgres user:
    PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found or not shutil.which("runuser"):
            raise RuntimeError("PostgreSQL's pg_ctl or runuser is missing")
        self.bin = Path(found[-1]).parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-faults-pg-"))
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, *command: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *command], check=True, capture_output=True, timeout=120
        )

    def start(self) -> None:
        if not self.data.exists():
            self._as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres")
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.dir / "server.log")
        self._as_postgres(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start"
        )

    def restart(self, pause: float = 0.0) -> None:
        """A fast shutdown (every client's connection is closed, as on a real restart), `pause`
        seconds down, then a start."""
        self.halt()
        time.sleep(pause)
        self.start()

    def halt(self) -> None:
        """A fast shutdown, keeping the data for the next start."""
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


class OwnRedis:
    """`redis-server` on a spare port, without persistence: a restart loses what it held, like a crash."""

    def __init__(self) -> None:
        if not shutil.which("redis-server"):
            raise RuntimeError("redis-server is missing")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def restart(self, pause: float = 0.5) -> None:
        self.stop()
        time.sleep(pause)
        self.start()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None
