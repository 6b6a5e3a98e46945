"""A prefork worker's pool children, and which of them is inside a database transaction (playing a
move), read from /proc and PostgreSQL's pg_stat_activity: the child a fault kills under a move."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, text

BUSY_PORTS = text(
    "SELECT client_port FROM pg_stat_activity"
    " WHERE state IN ('active', 'idle in transaction') AND pid <> pg_backend_pid()"
    " AND client_port IS NOT NULL"
)


def children(pid: int) -> list[int]:
    """The child processes of `pid`."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(child) for child in task.read_text().split()]
    return found


def child_in_transaction(pid: int, engine: Engine) -> int | None:
    """A child of `pid` whose PostgreSQL connection is running a statement or holds a transaction
    open, if one is."""
    with engine.connect() as connection:
        busy = {port for (port,) in connection.execute(BUSY_PORTS)}
    if not busy:
        return None
    ports = socket_ports()
    for child in children(pid):
        if busy & {ports[inode] for inode in socket_inodes(child) if inode in ports}:
            return child
    return None


def socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets `pid` holds open (none if it has gone)."""
    inodes = set()
    try:
        for fd in os.scandir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    except OSError:
        pass
    return inodes


def socket_ports() -> dict[int, int]:
    """The local port of each TCP socket on the machine, by inode."""
    ports = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            ports[int(fields[9])] = int(fields[1].rsplit(":", 1)[1], 16)
    return ports
