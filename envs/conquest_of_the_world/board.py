"""The board as data: data/board.yaml loaded once, checked against the book (43 countries in 11 zones,
each with its power base), with symmetric neighbours. Every problem names the file, entry and field."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ultimata.envs.core.errors import ConfigError

DATA = Path(__file__).parent / "data"
BOARD_FILE = DATA / "board.yaml"
BOOK_COUNTRIES = 43
BOOK_ZONES = 11


@dataclass(frozen=True)
class Board:
    names: tuple[str, ...]
    zone: tuple[int, ...]
    """Zone index 0..10 (the book's zone number minus one)."""
    value: tuple[int, ...]
    """Power base in thousands of PBU, as printed on the board."""
    neighbours: tuple[tuple[int, ...], ...]
    zone_members: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)


def _fail(path: Path, entry: str, field: str, problem: str) -> ConfigError:
    return ConfigError(f"{path.name}: entry '{entry}', field '{field}': {problem}")


def parse_board(raw: Any, path: Path = BOARD_FILE) -> Board:
    """Validate a loaded board mapping and build the tables (a separate function so tests can feed bad data)."""
    if not isinstance(raw, dict) or not {"zones", "neighbours"} <= raw.keys():
        raise _fail(path, "(file)", "zones/neighbours", "the file must map 'zones' and 'neighbours'")
    names: list[str] = []
    zone: list[int] = []
    value: list[int] = []
    zones = raw["zones"]
    if not isinstance(zones, dict) or sorted(zones) != list(range(1, BOOK_ZONES + 1)):
        raise _fail(path, "zones", "keys", f"zones must be numbered 1..{BOOK_ZONES}, got {list(zones or [])}")
    for number in range(1, BOOK_ZONES + 1):
        members = zones[number]
        if not isinstance(members, dict) or not members:
            raise _fail(path, f"zone {number}", "countries", "a zone maps at least one country to its PBU")
        for name, pbu in members.items():
            if name in names:
                raise _fail(path, f"zone {number}", name, "country listed twice")
            if not isinstance(pbu, int) or isinstance(pbu, bool) or pbu < 1:
                raise _fail(path, f"zone {number}", name, f"PBU must be a positive integer, got {pbu!r}")
            names.append(name)
            zone.append(number - 1)
            value.append(pbu)
    if len(names) != BOOK_COUNTRIES:
        raise _fail(path, "zones", "countries", f"the book has {BOOK_COUNTRIES} countries, got {len(names)}")
    adjacent: list[set[int]] = [set() for _ in names]
    links = raw["neighbours"]
    if not isinstance(links, dict):
        raise _fail(path, "neighbours", "(all)", "must map a country to a list of countries")
    for name, others in links.items():
        if name not in names:
            raise _fail(path, "neighbours", name, "unknown country")
        if not isinstance(others, list):
            raise _fail(path, "neighbours", name, "must be a list of countries")
        for other in others:
            if other not in names or other == name:
                raise _fail(path, "neighbours", name, f"unknown or self neighbour {other!r}")
            a, b = names.index(name), names.index(other)
            adjacent[a].add(b)
            adjacent[b].add(a)
    for i, near in enumerate(adjacent):
        if not near:
            raise _fail(path, "neighbours", names[i], "every country needs at least one neighbour")
    members = tuple(tuple(i for i, z in enumerate(zone) if z == k) for k in range(BOOK_ZONES))
    return Board(tuple(names), tuple(zone), tuple(value), tuple(tuple(sorted(s)) for s in adjacent), members)


@lru_cache(maxsize=1)
def board() -> Board:
    try:
        raw = yaml.safe_load(BOARD_FILE.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"{BOARD_FILE.name}: cannot be read: {err}") from None
    return parse_board(raw)
