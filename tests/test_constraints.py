"""constraints.txt pins every package the service runs on: each runtime dependency of pyproject.toml
and, through the installed packages' metadata, each of theirs (extras only where asked for)."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parent.parent


def pinned() -> dict[str, str]:
    """The packages constraints.txt pins, by canonical name, with their versions."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def applies(requirement: Requirement, extras: set[str]) -> bool:
    """Whether a requirement holds on this machine for a package installed with `extras`."""
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in extras or {""})


def runtime_packages() -> set[str]:
    """pyproject's dependencies and theirs, by canonical name, as installed here."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(text) for text in project["dependencies"]]
    seen: dict[str, set[str]] = {}
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        extras = set(requirement.extras)
        if name in seen and extras <= seen[name]:
            continue
        seen[name] = seen.get(name, set()) | extras
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue  # not for this platform: nothing installed to pin
        todo += [dep for dep in map(Requirement, requires) if applies(dep, seen[name])]
    return set(seen)


def test_every_runtime_package_is_pinned_at_its_installed_version() -> None:
    pins = pinned()
    missing = sorted(runtime_packages() - set(pins))
    assert missing == [], f"constraints.txt does not pin {missing}"
    drift = {name: pins[name] for name in runtime_packages() if distribution(name).version != pins[name]}
    assert drift == {}, "constraints.txt pins other versions than the ones tested"
