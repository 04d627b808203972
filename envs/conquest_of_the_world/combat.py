"""The abstract battle replacing the console duel (data/battle.yaml): weapon matchups, energy spent per
exchange, and one exchange resolved by the game's Rng (two draws below 100, attacker's first)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import yaml

from ultimata.envs.conquest_of_the_world.board import DATA
from ultimata.envs.core.errors import ConfigError

BATTLE_FILE = DATA / "battle.yaml"
WEAPONS = ("tank", "submarine", "plane")
SPENDS = ("cautious", "steady", "all_out")
SPEND_WORDS = tuple(spend.replace("_", "-") for spend in SPENDS)
"""The spend levels as people read them (the data file's keys are identifiers)."""
TANK, SUB, PLANE = 0, 1, 2


@dataclass(frozen=True)
class BattleModel:
    hit: tuple[tuple[int, ...], ...]
    """hit[own][enemy]: percent chance per exchange to destroy the enemy weapon."""
    cost: tuple[tuple[int, ...], ...]
    """cost[weapon][spend]: energy paid per exchange (the spend level's cost times the weapon's burn)."""
    bonus: tuple[int, ...]
    tree_penalty: int

    def chance(self, own: int, enemy: int, spend: int, wooded: bool) -> int:
        pct = self.hit[own][enemy] + self.bonus[spend] - (self.tree_penalty if wooded and own == TANK else 0)
        return max(1, min(99, pct))

    @cached_property
    def chances(self) -> tuple:
        """chances[wooded][own][enemy][spend]: `chance` for every case, looked up in every battle."""
        return tuple(tuple(tuple(tuple(self.chance(own, enemy, spend, bool(wooded)) for spend in range(len(SPENDS)))
                                 for enemy in range(len(WEAPONS))) for own in range(len(WEAPONS)))
                     for wooded in (0, 1))


def _need(raw: dict, key: str, keys: tuple[str, ...]) -> dict:
    table = raw.get(key)
    if not isinstance(table, dict) or set(table) != set(keys):
        raise ConfigError(f"{BATTLE_FILE.name}: entry '{key}': must map exactly {', '.join(keys)}")
    for k, v in table.items():
        if not isinstance(v, (int, dict)) or isinstance(v, bool):
            raise ConfigError(f"{BATTLE_FILE.name}: entry '{key}', field '{k}': must be a number or a mapping")
    return table


def parse_battle(raw: Any) -> BattleModel:
    if not isinstance(raw, dict):
        raise ConfigError(f"{BATTLE_FILE.name}: entry '(file)': must be a mapping")
    if tuple(raw.get("weapons", ())) != WEAPONS or tuple(raw.get("spend_levels", ())) != SPENDS:
        raise ConfigError(f"{BATTLE_FILE.name}: entry 'weapons'/'spend_levels': must be {WEAPONS} and {SPENDS}")
    hit_raw = _need(raw, "hit", WEAPONS)
    hit = []
    for w in WEAPONS:
        row = hit_raw[w]
        if not isinstance(row, dict) or set(row) != set(WEAPONS) or not all(
                isinstance(row[e], int) and 0 <= row[e] <= 100 for e in WEAPONS):
            raise ConfigError(f"{BATTLE_FILE.name}: entry 'hit', field '{w}': map each weapon to a percent 0..100")
        hit.append(tuple(row[e] for e in WEAPONS))
    cost, bonus, burn = _need(raw, "cost", SPENDS), _need(raw, "bonus", SPENDS), _need(raw, "burn", WEAPONS)
    for key, table, low in (("cost", cost, 1), ("burn", burn, 1), ("bonus", bonus, -100)):
        for k, v in table.items():
            if not isinstance(v, int) or v < low:
                raise ConfigError(f"{BATTLE_FILE.name}: entry '{key}', field '{k}': must be an integer >= {low}")
    penalty = raw.get("tree_penalty")
    if not isinstance(penalty, int) or penalty < 0:
        raise ConfigError(f"{BATTLE_FILE.name}: entry 'tree_penalty': must be an integer >= 0")
    costs = tuple(tuple(max(1, cost[s] * burn[w] // 100) for s in SPENDS) for w in WEAPONS)
    return BattleModel(tuple(hit), costs, tuple(bonus[s] for s in SPENDS), penalty)


@lru_cache(maxsize=1)
def battle_model() -> BattleModel:
    try:
        raw = yaml.safe_load(BATTLE_FILE.read_text())
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"{BATTLE_FILE.name}: cannot be read: {err}") from None
    return parse_battle(raw)
