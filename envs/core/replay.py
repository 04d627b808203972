"""A game is fully described by (env name, config, seed, actions). Saving and replaying reproduces it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ultimata.envs.core import safe_json
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import IllegalActionError, ReplayError, UltimataError
from ultimata.envs.core.io import atomic_write_json
from ultimata.envs.core.rng import Rng

FORMAT = "ultimata-replay/1"
MAX_FILE_BYTES = 8 * 2**20
"""A 20,000-move game with its final state takes about 150 KB; anything this large is not a replay."""
MAX_SEED = 2**63 - 1
MAX_SEATS = 16
"""More `players` than any game has seats is refused before the game is even looked up."""
MAX_NAME = 200
"""Characters in a player's name (an agent spec); longer specs are shortened when a replay is made."""


@dataclass
class Replay:
    game: str
    version: int
    config: dict[str, Any]
    seed: int
    actions: list[int] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    """Who sat where (agent specs), for the reader; not needed to reproduce the game."""
    final_state: dict[str, Any] | None = None
    returns: list[float] | None = None
    """Each seat's result, for listings; replaying recomputes it."""

    @classmethod
    def of_game(cls, state: State, seed: int, actions: list[int], players: list[str],
                returns: list[float] | None = None) -> Replay:
        """The replay of a game played from `seed` to `state`, with how it ended: the final state, and
        each seat's result if the game is over (a game quit or cut at the decision cap has none).
        `returns` overrides the state's: a game an illegal move forfeited ends with the arena's verdict."""
        game = state.game
        return cls(
            game=game.name, version=game.version, config=game.config.model_dump(mode="json"), seed=seed,
            actions=list(actions), players=[_fit_name(p) for p in players], final_state=state.state_dict(),
            returns=list(returns) if returns is not None else list(state.returns()) if state.is_terminal() else None,
        )

    def settled(self) -> Replay:
        """An unfinished game cut back to its last position where no choice waits hidden: a game left in
        the middle of a battle must not store the other side's unseen first pick. A finished game, or one
        left at a settled position, is returned as it is."""
        if self.returns is not None or self.final_state is None:
            return self
        cut = None
        for step, (state, _) in enumerate(self.states()):
            if not state.hidden_choice_pending():
                cut = step
        if cut is None or cut == len(self.actions):
            return self
        settled = record(self.seed, self.game, self.config, self.actions[:cut])
        settled.players = list(self.players)
        return settled

    @property
    def result(self) -> str:
        """How the game ended, for listings: 'won by player_1', 'draw', 'unfinished', or 'not recorded'
        for files saved before replays recorded their end."""
        if self.returns:
            best = max(self.returns)
            winners = [f"player_{p}" for p, r in enumerate(self.returns) if r == best]
            return "draw" if len(winners) == len(self.returns) else f"won by {', '.join(winners)}"
        return "unfinished" if self.final_state is not None else "not recorded"

    def save(self, path: str | Path) -> None:
        atomic_write_json(path, {"format": FORMAT, **asdict(self)})

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """A replay file, checked field by field (`from_dict`). Errors name the file, never its folder: a
        server shows them. A file over MAX_FILE_BYTES is refused before it is read."""
        path = Path(path)
        where = path.name
        try:
            if not path.is_file():
                raise ReplayError(f"cannot read replay {where}: it is not a file")
            with path.open("rb") as file:
                raw = file.read(MAX_FILE_BYTES + 1)
        except OSError as err:
            raise ReplayError(f"cannot read replay {where}: {err.strerror or type(err).__name__}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise ReplayError(f"replay {where} is over the {MAX_FILE_BYTES // 2**20} MB a replay may be")
        try:
            data = safe_json.loads(raw.decode("utf-8"))
        except ValueError as err:  # JSON, UTF-8, nesting and number errors alike
            raise ReplayError(f"cannot read replay {where}: not valid JSON ({_short(str(err))})") from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "replay") -> Replay:
        """A replay from its JSON, refused with one ReplayError naming the first bad field: the types, then
        the game and version (this install's), the rules, and every value against them."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"{where} is not an ultimata replay (expected format {FORMAT!r})")
        _check_types(data, where)
        game = _check_game(data, where)
        _check_values(data, game, where)
        return cls(
            game=data["game"],
            version=data["version"],
            config=data["config"],
            seed=data["seed"],
            actions=list(data["actions"]),
            players=list(data.get("players", [])),
            final_state=data.get("final_state"),
            returns=data.get("returns"),
        )

    def states(self) -> Iterator[tuple[State, int | None]]:
        """Yield (state, action taken from it) through the game, then (final state, None)."""
        from ultimata.envs.core.registry import game_class

        try:
            cls = game_class(self.game)
        except UltimataError as err:
            raise ReplayError(str(err)) from None
        if self.version != cls.version:
            raise ReplayError(f"replay is for {self.game} v{self.version}, this install has v{cls.version}")
        try:
            game = cls.from_config(self.config)
        except UltimataError as err:
            raise ReplayError(f"replay config: {err}") from None
        state = game.new_initial_state(Rng(self.seed))
        for step, action in enumerate(self.actions):
            try:
                state.check_legal(action)  # before the caller narrates it: describing code expects a legal move
            except IllegalActionError as err:
                raise ReplayError(f"replay action #{step} does not apply: {err}") from None
            yield state, action
            state.apply(action)
        self.check_final(state)
        yield state, None

    def final(self) -> State:
        """Replay to the end, checking every move and the stored final state (as `states` does)."""
        *_, (state, _) = self.states()
        return state

    def check_final(self, state: State) -> None:
        """`state`, the end of a replay, must be the stored final state if there is one. `states` checks
        this before it yields the end, so the CLI, the web and `final` all make this one check."""
        if self.final_state is not None and state.state_dict() != self.final_state:
            raise ReplayError("replayed game does not end in the stored final state (rules changed?)")


def record(seed: int, game_name: str, config: dict[str, Any], actions: list[int]) -> Replay:
    """A replay of `actions` from `seed`, with its final state filled in."""
    from ultimata.envs.core.registry import game_class

    cls = game_class(game_name)
    replay = Replay(game=game_name, version=cls.version, config=config, seed=seed, actions=actions)
    replay.final_state = replay.final().state_dict()
    return replay


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
        raise ReplayError(f"{where}: field 'game': {_short(str(err))}") from None
    if data["version"] != cls.version:
        raise ReplayError(f"{where}: field 'version': the replay is for {cls.name} v{_shown(data['version'])}, "
                          f"this install has v{cls.version}")
    if safe_json.nesting_depth(data["config"], 4) > 4:
        raise ReplayError(f"{where}: field 'config' is nested too deeply to be rules")
    try:
        return cls.from_config(data["config"])
    except UltimataError as err:
        raise ReplayError(f"{where}: field 'config': {_short(str(err))}") from None


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


def _fit_name(name: str) -> str:
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
        return _short(repr(value), 60)
    except (ValueError, RecursionError):  # an int too long to print, a structure too deep to print
        return f"a {type(value).__name__}"


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
