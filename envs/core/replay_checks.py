"""What a replay file must be to be read: each field's type, the game and version this install has, its
rules, and every value against the game's sizes. A replay comes from anywhere (shared, downloaded, dropped in
a server's folder), so each refusal is one ReplayError naming the field, and cheap checks come first: a
40 MB `players` list is refused by the file's size, a long one by its length, before any item is read."""

from __future__ import annotations

import math
from typing import Any

from ultimata.envs.core import safe_json
from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import ReplayError, UltimataError

MAX_FILE_BYTES = 8 * 2**20
"""A 20,000-move game with its final state takes about 150 KB; anything this large is not a replay."""
MAX_SEED = 2**63 - 1
MAX_RULES_DEPTH = 4
"""Nesting of a rule variant: the games' rules are flat keys (a list at most); deeper is not rules, and a
1,000-deep value would exhaust the stack of the code that prints it in a refusal."""
MAX_SEATS = 16
"""More `players` than any game has seats is refused before the game is even looked up."""
MAX_NAME = 200
"""Characters in a player's name (an agent spec); longer specs are shortened when a replay is made."""


def check_fields(data: dict[str, Any], where: str) -> None:
    """Refuse `data`, a replay's JSON object, at its first bad field (ReplayError naming it and `where`)."""
    _check_types(data, where)
    game = _check_game(data, where)
    _check_values(data, game, where)


def _check_types(data: dict[str, Any], where: str) -> None:
    """Each field's JSON type, and the sizes that need no game to check."""
    expected = {"game": (str, "a game name"), "version": (int, "an integer"), "config": (dict, "a mapping of rules"),
                "seed": (int, "an integer"), "actions": (list, "a list of integers")}
    for key, (kind, what) in expected.items():
        value = data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ReplayError(f"{where}: field '{key}' must be {what}, got {_shown(value)}")
    bad = next((k for k, a in enumerate(data["actions"]) if not _is_int(a)), None)
    if bad is not None:
        raise ReplayError(f"{where}: field 'actions' must be a list of integers; action #{bad} is "
                          f"{_shown(data['actions'][bad])}")
    players = data.get("players", [])
    if not isinstance(players, list) or len(players) > MAX_SEATS or not all(isinstance(p, str) for p in players):
        got = f"{len(players)} entries" if isinstance(players, list) else _shown(players)
        raise ReplayError(f"{where}: field 'players' must be a list of agent names, one per seat; got {got}")
    if data.get("final_state") is not None and not isinstance(data["final_state"], dict):
        raise ReplayError(f"{where}: field 'final_state' must be a state (a mapping) or null")
    returns = data.get("returns")
    if returns is not None and (not isinstance(returns, list) or len(returns) > MAX_SEATS
                                or not all(_is_int(r) or isinstance(r, float) and math.isfinite(r) for r in returns)):
        raise ReplayError(f"{where}: field 'returns' must be a list of numbers (one per seat) or null, "
                          f"got {_shown(returns)}")


def _check_game(data: dict[str, Any], where: str) -> Game:
    """The game this install has under that name and version, with the replay's rules."""
    from ultimata.envs.core.registry import game_class

    try:
        cls = game_class(data["game"])
    except UltimataError as err:
        # long enough for a retired version's whole answer (its replacement and the pip command), still bounded
        # where an unknown name is echoed
        raise ReplayError(f"{where}: field 'game': {short(str(err), 600)}") from None
    if data["version"] != cls.version:
        raise ReplayError(f"{where}: field 'version': the replay is for {cls.name} v{_shown(data['version'])}, "
                          f"this install has v{cls.version}")
    if safe_json.nesting_depth(data["config"], MAX_RULES_DEPTH) > MAX_RULES_DEPTH:
        raise ReplayError(f"{where}: field 'config' is nested too deeply to be rules")
    try:
        return cls.from_config(data["config"])
    except UltimataError as err:
        raise ReplayError(f"{where}: field 'config': {short(str(err))}") from None


def _check_values(data: dict[str, Any], game: Game, where: str) -> None:
    """Seed, actions, players and returns against the game's sizes."""
    if not 0 <= data["seed"] <= MAX_SEED:
        raise ReplayError(f"{where}: field 'seed' must be an integer 0..{MAX_SEED}, got {_shown(data['seed'])}")
    n = game.num_actions
    bad = next((k for k, a in enumerate(data["actions"]) if not 0 <= a < n), None)
    if bad is not None:
        raise ReplayError(f"{where}: field 'actions': action #{bad} does not apply: {_shown(data['actions'][bad])} "
                          f"is outside {game.name}'s actions 0..{n - 1}")
    seats = game.num_players
    players = data.get("players", [])
    if len(players) > seats:
        raise ReplayError(f"{where}: field 'players' names {len(players)} players; this game has {seats} seats")
    bad = next((p for p in players if not 0 < len(p) <= MAX_NAME or not p.isprintable()), None)
    if bad is not None:
        raise ReplayError(f"{where}: field 'players': each name must be 1..{MAX_NAME} printable characters, "
                          f"got {_shown(bad)}")
    returns = data.get("returns")
    if returns is not None and len(returns) != seats:
        raise ReplayError(f"{where}: field 'returns' must hold one number per seat ({seats}), got {len(returns)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fit_name(name: str) -> str:
    """A player's name as a replay keeps it: printable, and at most MAX_NAME characters (a long checkpoint
    path keeps its start and its file name)."""
    name = "".join(c if c.isprintable() else "?" for c in str(name)) or "?"
    if len(name) <= MAX_NAME:
        return name
    half = (MAX_NAME - 3) // 2
    return f"{name[:half]}...{name[-half:]}"


def _shown(value: Any) -> str:
    """A value for a message, cut short: a refusal never echoes a large field."""
    if isinstance(value, list) and len(value) > 8:
        return f"a list of {len(value)} items"
    try:
        return short(repr(value), 60)
    except (ValueError, RecursionError):  # an int too long to print, a structure too deep to print
        return f"a {type(value).__name__}"


def short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
