"""The map and the rules data (data/map.yaml, data/rules.yaml), validated with pydantic and checked
against the book: 37 nations in four alliances of 11/10/10/6, six Worldpowers outside the Oil Alliance,
14 blockades, 9 anchors, 6 laser stations, 72 cards, a connected world. Every error names the file, the
entry and the field. Places at sea are indexed after the nations' own index: blockades 0-13, anchors 14-22."""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ultimata.envs.core.errors import ConfigError

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.config import WorldConfig

DATA = Path(__file__).parent / "data"
ALLIANCES = ("Western", "Communist", "Peace", "Oil")
WESTERN, COMMUNIST, PEACE, OIL = range(4)
"""Each alliance's index in ALLIANCES."""
BOOK_ALLIANCE_SIZES = {"Western": 11, "Communist": 10, "Peace": 10, "Oil": 6}
BOOK_WORLDPOWERS = {"U.S.A.", "Great Britain", "France", "U.S.S.R.", "China", "Japan"}
BOOK_BLOCKADES, BOOK_ANCHORS, BOOK_STATIONS, BOOK_CARDS, MAX_PLAYERS = 14, 9, 6, 72, 6
BRANCHES = ("army", "navy", "air")
GREEN = ("WIN", "LOSE", "DRAW")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NationSpec(_Strict):
    alliance: Literal["Western", "Communist", "Peace", "Oil"]
    worldpower: bool = False
    seas: list[int] = Field(default_factory=list)
    """Numbers of the blockades on this nation's coasts."""
    borders: list[str]
    via: dict[str, str] = Field(default_factory=dict)
    """Borders that run through a country not on the board (documentation of a simplification)."""
    at: tuple[int, int]
    label: tuple[int, int] = (0, 24)
    """Where the nation's name is centred on the picture, from `at` (placed clear of every other mark)."""


class SeaSpec(_Strict):
    name: str
    at: tuple[int, int]


class AnchorSpec(_Strict):
    numbers: list[int] = Field(min_length=2)
    name: str
    at: tuple[int, int]


class MapSpec(_Strict):
    nations: dict[str, NationSpec]
    blockades: dict[int, SeaSpec]
    anchors: list[AnchorSpec]
    stations: list[SeaSpec]


class DiceSpec(_Strict):
    black: list[int] = Field(min_length=1)
    red: list[int] = Field(min_length=1)
    green: list[Literal["WIN", "LOSE", "DRAW"]] = Field(min_length=1)


class CardSpec(_Strict):
    branch: Literal["army", "navy", "air"]
    count: int = Field(ge=0)
    user: Literal["attacker", "defender", "both"]
    troops: int = Field(0, ge=0)
    battleships: int = Field(0, ge=0)
    submarines: int = Field(0, ge=0)


CARD_KINDS = (
    "troops_5",
    "troops_10",
    "helicopter_commando",
    "minefield",
    "army_intelligence",
    "battleships_2",
    "submarine_1",
    "ocean_mine",
    "navy_intelligence",
    "jet_bomber",
    "anti_aircraft_missile",
    "airlift",
    "air_intelligence",
)
"""The card kinds the rules know; the data gives each its branch, count and what it reinforces."""
CARD_INDEX = {name: k for k, name in enumerate(CARD_KINDS)}
"""Each card kind's index in CARD_KINDS (the hands count cards by it)."""


class PriceSpec(_Strict):
    """The book's prices, in billions of dollars."""

    troop: int = Field(ge=1)
    battleship: int = Field(ge=1)
    submarine: int = Field(ge=1)
    laser: int = Field(ge=1)


class RulesSpec(_Strict):
    prices: PriceSpec
    dice: DiceSpec
    cards: dict[str, CardSpec]


@dataclass(frozen=True)
class World:
    """The map as index tables: nations 0..36, sea places 0..22 (blockades 0-13 then anchors 14-22)."""

    names: tuple[str, ...]
    alliance: tuple[int, ...]
    worldpower: tuple[bool, ...]
    borders: tuple[tuple[int, ...], ...]
    seas: tuple[tuple[int, ...], ...]
    """Blockade indexes (number - 1) on each nation's coasts."""
    members: tuple[tuple[int, ...], ...]
    """Nations of each alliance."""
    sea_names: tuple[str, ...]
    sea_links: tuple[tuple[int, ...], ...]
    """For each sea place, the places one battleship move away (blockade <-> anchor by shared number)."""
    coast: tuple[tuple[int, ...], ...]
    """For each blockade, the nations that carry its number."""
    nation_at: tuple[tuple[int, int], ...]
    nation_label: tuple[tuple[int, int], ...]
    """Where each nation's name is centred, from its position."""
    sea_at: tuple[tuple[int, int], ...]
    station_at: tuple[tuple[int, int], ...]
    anchor_numbers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[tuple[int, int], ...], ...] = ()
    """For each nation, (other nation, blockade index or -1 for a land border): every way a troop attack
    can go, precomputed because legal moves ask for it thousands of times a game."""

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def sea_size(self) -> int:
        return len(self.sea_names)

    def nation(self, name: str) -> int:
        return self.names.index(name)

    def blockade(self, number: int) -> int:
        return number - 1

    def is_blockade(self, place: int) -> bool:
        return place < BOOK_BLOCKADES

    def place_name(self, place: int) -> str:
        """A place by its index: nations first, then the sea places."""
        nations = len(self.names)
        return self.names[place] if place < nations else self.sea_names[place - nations]


@dataclass(frozen=True)
class Rules:
    prices: PriceSpec
    black: tuple[int, ...]
    red: tuple[int, ...]
    green: tuple[str, ...]
    deck: tuple[int, ...]
    """One entry per card: the index of its kind in CARD_KINDS (72 entries)."""
    cards: tuple[CardSpec, ...]
    """Per kind in CARD_KINDS."""


def _fail(file: str, entry: str, field: str, problem: str) -> ConfigError:
    return ConfigError(f"{file}: entry '{entry}', field '{field}': {problem}")


def _validated(model: type[BaseModel], raw: Any, file: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        e = err.errors()[0]
        loc = [str(p) for p in e["loc"]]
        entry = "/".join(loc[:-1]) or "(file)"
        raise _fail(file, entry, loc[-1] if loc else "(file)", e["msg"]) from None


def parse_world(raw: Any, file: str = "map.yaml") -> World:
    """Validate a loaded map and check it against the book (a separate function so tests feed bad maps)."""
    spec: MapSpec = _validated(MapSpec, raw, file)
    names = tuple(spec.nations)
    for alliance, size in BOOK_ALLIANCE_SIZES.items():
        got = [n for n, s in spec.nations.items() if s.alliance == alliance]
        if len(got) != size:
            raise _fail(
                file, "nations", "alliance", f"the book's {alliance} Alliance has {size} nations, got {len(got)}"
            )
    wps = {n for n, s in spec.nations.items() if s.worldpower}
    if wps != BOOK_WORLDPOWERS:
        raise _fail(
            file, "nations", "worldpower", f"the book's Worldpowers are {sorted(BOOK_WORLDPOWERS)}, got {sorted(wps)}"
        )
    if any(spec.nations[n].alliance == "Oil" for n in wps):
        raise _fail(file, "nations", "worldpower", "no Worldpower may be in the Oil Alliance")
    for alliance in ALLIANCES:
        plain = sum(1 for s in spec.nations.values() if s.alliance == alliance and not s.worldpower)
        if plain < MAX_PLAYERS:
            raise _fail(
                file, "nations", "alliance", f"{alliance} needs {MAX_PLAYERS} non-Worldpowers for 6 players' set-up"
            )
    if sorted(spec.blockades) != list(range(1, BOOK_BLOCKADES + 1)):
        raise _fail(file, "blockades", "numbers", f"blockades are numbered 1..{BOOK_BLOCKADES}")
    if len(spec.anchors) != BOOK_ANCHORS:
        raise _fail(file, "anchors", "count", f"the book has {BOOK_ANCHORS} anchors, got {len(spec.anchors)}")
    if len(spec.stations) != BOOK_STATIONS:
        raise _fail(file, "stations", "count", f"the book has {BOOK_STATIONS} laser stations, got {len(spec.stations)}")
    borders: list[set[int]] = [set() for _ in names]
    for i, (name, nation) in enumerate(spec.nations.items()):
        for other in nation.borders:
            if other not in spec.nations or other == name:
                raise _fail(file, f"nations/{name}", "borders", f"unknown or self border {other!r}")
            borders[i].add(names.index(other))
            borders[names.index(other)].add(i)
        for number in nation.seas:
            if number not in spec.blockades:
                raise _fail(file, f"nations/{name}", "seas", f"no blockade numbered {number}")
    coast = tuple(
        tuple(i for i, s in enumerate(spec.nations.values()) if number in s.seas)
        for number in range(1, BOOK_BLOCKADES + 1)
    )
    for number, shore in enumerate(coast, 1):
        if len(shore) < 2:
            raise _fail(
                file, f"blockades/{number}", "coast", "a blockade lies between at least two nations carrying its number"
            )
    for k, anchor in enumerate(spec.anchors):
        for number in anchor.numbers:
            if number not in spec.blockades:
                raise _fail(file, f"anchors/{k}", "numbers", f"no blockade numbered {number}")
    links: list[set[int]] = [set() for _ in range(BOOK_BLOCKADES + BOOK_ANCHORS)]
    for k, anchor in enumerate(spec.anchors):
        for number in anchor.numbers:
            links[BOOK_BLOCKADES + k].add(number - 1)
            links[number - 1].add(BOOK_BLOCKADES + k)
    for number in range(1, BOOK_BLOCKADES + 1):
        if not links[number - 1]:
            raise _fail(file, f"blockades/{number}", "anchors", "every blockade is on at least one anchor")
    world = World(
        names=names,
        alliance=tuple(ALLIANCES.index(s.alliance) for s in spec.nations.values()),
        worldpower=tuple(s.worldpower for s in spec.nations.values()),
        borders=tuple(tuple(sorted(b)) for b in borders),
        seas=tuple(tuple(sorted(n - 1 for n in s.seas)) for s in spec.nations.values()),
        members=tuple(tuple(i for i, s in enumerate(spec.nations.values()) if s.alliance == a) for a in ALLIANCES),
        sea_names=tuple(f"blockade {n} ({spec.blockades[n].name})" for n in range(1, BOOK_BLOCKADES + 1))
        + tuple(f"anchor {','.join(map(str, a.numbers))} ({a.name})" for a in spec.anchors),
        sea_links=tuple(tuple(sorted(s)) for s in links),
        coast=coast,
        nation_at=tuple(s.at for s in spec.nations.values()),
        nation_label=tuple(s.label for s in spec.nations.values()),
        sea_at=tuple(spec.blockades[n].at for n in range(1, BOOK_BLOCKADES + 1)) + tuple(a.at for a in spec.anchors),
        station_at=tuple(s.at for s in spec.stations),
        anchor_numbers=tuple(tuple(a.numbers) for a in spec.anchors),
    )
    crossings = []
    for a in range(len(names)):
        ways = {(b, -1) for b in world.borders[a]}
        ways |= {(b, t) for t in world.seas[a] for b in world.coast[t] if b != a and b not in world.borders[a]}
        crossings.append(tuple(sorted(ways)))
    world = dataclasses.replace(world, crossings=tuple(crossings))
    if not _connected(world):
        raise _fail(file, "nations", "borders/seas", "the world must be connected by borders and blockades")
    return world


def _connected(world: World) -> bool:
    """Every nation reachable from the first by land borders or a shared blockade number."""
    seen, todo = {0}, deque([0])
    while todo:
        a = todo.popleft()
        near = set(world.borders[a]) | {b for s in world.seas[a] for b in world.coast[s]}
        for b in near - seen:
            seen.add(b)
            todo.append(b)
    return len(seen) == world.size


def parse_rules(raw: Any, file: str = "rules.yaml") -> Rules:
    spec: RulesSpec = _validated(RulesSpec, raw, file)
    if set(spec.cards) != set(CARD_KINDS):
        missing, extra = set(CARD_KINDS) - set(spec.cards), set(spec.cards) - set(CARD_KINDS)
        raise _fail(
            file,
            "cards",
            "kinds",
            f"the card kinds are {list(CARD_KINDS)} (missing {sorted(missing)}, unknown {sorted(extra)})",
        )
    total = sum(c.count for c in spec.cards.values())
    if total != BOOK_CARDS:
        raise _fail(file, "cards", "count", f"the book's deck has {BOOK_CARDS} cards, the counts add up to {total}")
    for name in ("black", "red"):
        faces = getattr(spec.dice, name)
        if any(f < 1 for f in faces):
            raise _fail(file, "dice", name, "faces are positive numbers")
    deck = tuple(k for k, kind in enumerate(CARD_KINDS) for _ in range(spec.cards[kind].count))
    return Rules(
        spec.prices,
        tuple(spec.dice.black),
        tuple(spec.dice.red),
        tuple(spec.dice.green),
        deck,
        tuple(spec.cards[k] for k in CARD_KINDS),
    )


def _load(name: str) -> Any:
    path = DATA / name
    try:
        return yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"{name}: cannot be read: {err}") from None


@lru_cache(maxsize=1)
def world() -> World:
    return parse_world(_load("map.yaml"))


@lru_cache(maxsize=1)
def default_rules_raw() -> dict[str, Any]:
    return _load("rules.yaml")


def configured_rules(config: WorldConfig) -> Rules:
    """rules.yaml with the rule variant's own dice and card counts, if it sets them, checked as the file is."""
    raw = dict(default_rules_raw())
    if config.dice is not None:
        raw["dice"] = config.dice.model_dump()
    if config.cards is not None:
        unknown = set(config.cards) - set(raw["cards"])
        if unknown:
            raise ConfigError(f"unknown card kind(s) {sorted(unknown)} in cards; kinds: {sorted(raw['cards'])}")
        raw["cards"] = {k: {**v, "count": config.cards.get(k, v["count"])} for k, v in raw["cards"].items()}
    return parse_rules(raw, "config" if config.dice or config.cards else "rules.yaml")
