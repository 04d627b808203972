"""The game's content (maps, characters, decks, scenarios) as pydantic-validated YAML in data/.

One loader: any problem raises ContentError naming the file, the entry and the field. Cross-file checks
(a scenario's map and army exist, armies keep the book's army rule) run after each file is valid."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.ultra_war.abilities import ABILITIES, ATTACK_TAGS, DUAL_WIELD, GENERAL_ABILITIES, STATUS_TAGS

DATA = Path(__file__).parent / "data"
SIZE = 12
"""Every map is SIZE x SIZE (the action space is fixed for this maximum)."""
MAX_ARMY = 8
HAND_SLOTS = 8

RESERVES = ("magic", "crystal_magic", "electrical", "fuel", "alien", "ammunition")
Reserve = Literal["magic", "crystal_magic", "electrical", "fuel", "alien", "ammunition"]


class ContentError(UltimataError):
    """A data file breaks its schema or a cross-file rule."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Cost(Strict):
    reserve: Reserve
    amount: int = Field(ge=1, le=10)


class AttackSpec(Strict):
    name: str
    kind: Literal["melee", "ranged"]
    range: int = Field(1, ge=1, le=SIZE * 2)
    attack: int | None = Field(None, ge=0, le=15)
    bonus: int = Field(0, ge=-5, le=5)
    tags: dict[str, int | None] = {}
    cost: Cost | None = None

    @model_validator(mode="after")
    def _known_tags(self) -> AttackSpec:
        unknown = set(self.tags) - ATTACK_TAGS
        if unknown:
            raise ValueError(f"unknown attack tag(s) {sorted(unknown)}; known: {sorted(ATTACK_TAGS)}")
        if self.kind == "melee" and self.range != 1:
            raise ValueError("a melee attack has range 1")
        return self


class SourceAbility(Strict):
    """A power source's own paid ability (book: Power Source Abilities): paid only from that source's points.
    All ours (the scan has no power source cards). One effect each."""

    name: str
    cost: int = Field(ge=1, le=10)
    heal: int = Field(0, ge=0, le=10)
    """The bearer (a crystal) regains this much life."""
    defense: int = Field(0, ge=0, le=5)
    """In a quick window: + this to the defence of a defender of the source's side within `range` of it
    (a crystal: its bearer)."""
    reboot: bool = False
    """Every powered-down robot droid of the side within the source's control range comes back online."""
    recharge: int = Field(0, ge=0, le=10)
    """Every character of the side within `range` of the token regains this much of its energy reserves."""
    range: int = Field(0, ge=0, le=12)

    @model_validator(mode="after")
    def _one_effect(self) -> SourceAbility:
        if sum(map(bool, (self.heal, self.defense, self.reboot, self.recharge))) != 1:
            raise ValueError("a power source ability has exactly one effect: heal, defense, reboot or recharge")
        return self


class PowerSource(Strict):
    """A kind of power source (book: Power Sources and their Functions). Crystals are carried; the others
    stand on the map as tokens that can be attacked (life, defence); a tripod controls robot droids within
    `control` spaces (a Minion Hub)."""

    kind: Literal["crystal", "tripod", "generator"]
    max: int = Field(10, ge=1, le=20)
    life: int = Field(4, ge=1, le=20)
    defense: int = Field(3, ge=0, le=10)
    control: int = Field(0, ge=0, le=12)
    ability: SourceAbility | None = None

    @model_validator(mode="after")
    def _fits_kind(self) -> PowerSource:
        if self.ability is not None:
            a = self.ability
            if (a.heal and self.kind != "crystal") or ((a.reboot or a.recharge) and self.kind == "crystal"):
                raise ValueError("heal is a crystal's (its bearer); reboot and recharge are a token's")
            if a.reboot and not self.control:
                raise ValueError("reboot needs a control range")
        return self


class Faction(Strict):
    title: str
    power: str
    """The faction's power source (a `power_sources` entry)."""


class Character(Strict):
    faction: str
    race: str
    rank: Literal["General", "Troop", "Minion"]
    value: int = Field(ge=0, le=20)
    offense: int = Field(ge=0, le=10)
    defense: int = Field(ge=0, le=10)
    magic: int = Field(ge=0, le=10)
    energy: int = Field(ge=0, le=10)
    movement: int = Field(ge=0, le=8)
    life: int = Field(ge=1, le=20)
    reserves: dict[Reserve, int] = {}
    abilities: dict[str, int | None] = {}
    general_ability: dict[str, int | None] = {}
    upgrades: int = Field(0, ge=0, le=5)
    minion_limit: int = Field(0, ge=0, le=8)
    tags: list[str] = []
    attacks: list[AttackSpec] = Field(min_length=1, max_length=2)

    @model_validator(mode="after")
    def _known_names(self) -> Character:
        for label, names, known in (
            ("abilities", self.abilities, ABILITIES),
            ("general_ability", self.general_ability, GENERAL_ABILITIES),
            ("tags", self.tags, STATUS_TAGS),
        ):
            unknown = set(names) - known
            if unknown:
                raise ValueError(f"unknown {label} {sorted(unknown)}; known: {sorted(known)}")
        if self.rank == "Minion" and self.minion_limit < 1:
            raise ValueError("a Minion needs minion_limit >= 1")
        if DUAL_WIELD in self.abilities and len(self.attacks) != 1:
            raise ValueError("a Dual Wield character has one own attack (its second weapon takes attack slot 1)")
        return self


class Card(Strict):
    kind: Literal["weapon", "armor", "standard", "upgrade", "enhancement", "feat", "quick"]
    cost: int = Field(ge=0, le=10)
    count: int = Field(ge=1, le=50)
    ultra: bool = False
    attack: AttackSpec | None = None
    offense: int = 0
    defense: int = 0
    movement: int = 0
    heal: int = 0
    regenerate: int = 0
    flight: bool = False
    """Equipment that grants Flight (not innate: its wearer starts grounded and takes off)."""
    feat: Literal["magic", "energy", "any"] | None = None
    range: int = Field(0, ge=0, le=SIZE * 2)
    damage: int = 0
    stun: bool = False
    void: int = Field(0, ge=0, le=4)
    """A feat that sends its target to the Void for this many of its controller's turn starts (ours)."""
    cancel: bool = False

    @model_validator(mode="after")
    def _fits_kind(self) -> Card:
        if self.kind == "weapon" and self.attack is None:
            raise ValueError("a weapon needs an attack")
        if self.kind == "feat" and (self.feat is None or self.range < 1 or not (self.damage or self.stun or self.void)):
            raise ValueError("a feat needs feat (magic/energy/any), range >= 1 and damage, stun or void")
        if self.flight and self.kind != "standard":
            raise ValueError("only standard equipment grants flight")
        if self.kind == "quick" and not (self.defense or self.offense or self.cancel):
            raise ValueError("a quick card needs defense, offense or cancel")
        return self


class MapSpec(Strict):
    title: str
    exterior: bool
    terrain: list[str] = Field(min_length=SIZE, max_length=SIZE)
    levels: list[str] = Field(min_length=SIZE, max_length=SIZE)
    marks: list[str] = Field(min_length=SIZE, max_length=SIZE)

    @model_validator(mode="after")
    def _grids(self) -> MapSpec:
        for name, rows, alphabet in (
            ("terrain", self.terrain, ".#oDBs"), ("levels", self.levels, "01"), ("marks", self.marks, ".Aa*ep")
        ):
            for r, row in enumerate(rows):
                if len(row) != SIZE or set(row) - set(alphabet):
                    raise ValueError(f"{name} row {r} must be {SIZE} characters of {alphabet!r}, got {row!r}")
        return self


class Scenario(Strict):
    title: str
    map: str
    objective: Literal["defeat_general", "hold", "rescue"]
    factions: tuple[str, str]
    army_total: int = Field(ge=1, le=100)
    power_sources: int = Field(ge=0, le=4)
    power_start: int = Field(0, ge=0, le=10)
    rounds: int = Field(ge=1, le=50)
    hold_points: int = Field(3, ge=1, le=20)
    prisoner: str | None = None
    armies: tuple[list[str], list[str]]


class Content(Strict):
    factions: dict[str, Faction]
    power_sources: dict[str, PowerSource]
    characters: dict[str, Character]
    decks: dict[str, dict[str, Card]]
    maps: dict[str, MapSpec]
    scenarios: dict[str, Scenario]


def _read(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise ContentError(f"{path.name}: cannot read: {err}") from None
    if not isinstance(data, dict):
        raise ContentError(f"{path.name}: must be a mapping")
    return data


def _entries(path: Path, section: dict, model: type[BaseModel], where: str) -> dict:
    """Validate each entry of one section, naming the file, the entry and the field on error."""
    if not isinstance(section, dict):
        raise ContentError(f"{path.name}: '{where}' must be a mapping of names to entries")
    out = {}
    for name, raw in section.items():
        try:
            out[str(name)] = model.model_validate(raw)
        except ValidationError as err:
            problems = "; ".join(
                f"field '{'.'.join(str(p) for p in e['loc']) or '(entry)'}': {e['msg']}" for e in err.errors()
            )
            raise ContentError(f"{path.name}: {where} entry '{name}': {problems}") from None
    return out


def load_content(folder: Path = DATA) -> Content:
    """Read and check every data file in `folder`."""
    chars_path, cards_path = folder / "characters.yaml", folder / "cards.yaml"
    maps_path, scen_path = folder / "maps.yaml", folder / "scenarios.yaml"
    chars_raw = _read(chars_path)
    factions = _entries(chars_path, chars_raw.get("factions", {}), Faction, "factions")
    power_sources = _entries(chars_path, chars_raw.get("power_sources", {}), PowerSource, "power_sources")
    characters = _entries(chars_path, chars_raw.get("characters", {}), Character, "characters")
    for name, fac in factions.items():
        if fac.power not in power_sources:
            raise ContentError(f"{chars_path.name}: factions entry '{name}': field 'power': unknown {fac.power!r}")
    decks_raw = _read(cards_path).get("decks", {})
    decks = {f: _entries(cards_path, cards, Card, f"decks.{f}") for f, cards in decks_raw.items()}
    maps = _entries(maps_path, _read(maps_path), MapSpec, "maps")
    scenarios = _entries(scen_path, _read(scen_path).get("scenarios", {}), Scenario, "scenarios")
    for name, ch in characters.items():
        if ch.faction not in factions:
            raise ContentError(f"{chars_path.name}: characters entry '{name}': field 'faction': unknown {ch.faction!r}")
    for faction in factions:
        if len([c for c in characters.values() if c.faction == faction]) > MAX_ARMY:
            raise ContentError(f"{chars_path.name}: factions entry '{faction}': more than {MAX_ARMY} characters "
                               "(a draft chooses one with SELECT 0..7)")
    for faction, cards in decks.items():
        if faction not in factions:
            raise ContentError(f"{cards_path.name}: decks entry '{faction}': unknown faction")
        total = sum(c.count for c in cards.values())
        if total != 50 or len(cards) < 12:
            raise ContentError(
                f"{cards_path.name}: decks entry '{faction}': needs 50 cards of >= 12 kinds, has {total}/{len(cards)}"
            )
    for name, sc in scenarios.items():
        _check_scenario(scen_path.name, name, sc, characters, maps, decks)
    return Content(factions=factions, power_sources=power_sources, characters=characters, decks=decks, maps=maps,
                   scenarios=scenarios)


def _check_scenario(file: str, name: str, sc: Scenario, characters: dict, maps: dict, decks: dict) -> None:
    def fail(field: str, msg: str) -> None:
        raise ContentError(f"{file}: scenarios entry '{name}': field '{field}': {msg}")

    if sc.map not in maps:
        fail("map", f"unknown map {sc.map!r}")
    grid = maps[sc.map].marks
    for side, (faction, army) in enumerate(zip(sc.factions, sc.armies)):
        if faction not in decks:
            fail(f"factions.{side}", f"no deck for faction {faction!r}")
        if not 1 <= len(army) <= MAX_ARMY:
            fail(f"armies.{side}", f"an army has 1..{MAX_ARMY} characters")
        for who in army:
            if who not in characters or characters[who].faction != faction:
                fail(f"armies.{side}", f"{who!r} is not a {faction} character")
        if sum(characters[w].value for w in army) > sc.army_total:
            fail(f"armies.{side}", f"army value exceeds the army total {sc.army_total}")
        if not any(characters[w].rank == "General" for w in army):
            fail(f"armies.{side}", "an army needs at least one General")
        for who in set(army):
            ch = characters[who]
            limit = ch.minion_limit if ch.rank == "Minion" else 1
            if army.count(who) > limit:
                fail(f"armies.{side}", f"{who!r} appears {army.count(who)} times (limit {limit})")
        starts = sum(row.count("Aa"[side]) for row in grid)
        if starts < len(army) + sc.power_sources:
            fail(f"armies.{side}", "not enough start spaces for the army and its power tokens")
        generals = [c.value for n, c in characters.items() if c.faction == faction and c.rank == "General"
                    and n != sc.prisoner]
        if not generals or min(generals) > sc.army_total:
            fail("army_total", f"a drafted {faction} army could not afford a General")
    if sc.objective == "rescue":
        if sc.prisoner not in characters or characters[sc.prisoner].faction != sc.factions[0]:
            fail("prisoner", "a rescue needs a prisoner of side 0's faction")
        if sum(row.count("p") for row in grid) != 1 or not sum(row.count("e") for row in grid):
            fail("map", "a rescue map needs one prisoner space and escape spaces")
    if sc.objective == "hold" and not sum(row.count("*") for row in grid):
        fail("map", "a hold scenario needs objective spaces")


@lru_cache(maxsize=1)
def content() -> Content:
    return load_content()


@lru_cache(maxsize=16)
def roster(faction: str, prisoner: str | None = None) -> tuple[str, ...]:
    """The characters a drafted army of `faction` chooses from (SELECT s drafts roster[s]): the faction's
    characters in data order, less the scenario's prisoner (who is not the player's to choose)."""
    return tuple(n for n, c in content().characters.items() if c.faction == faction and n != prisoner)
