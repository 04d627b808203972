"""A game is fully described by (env name, config, seed, actions). Saving and replaying reproduces it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ultimata.envs.core import safe_json
from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import IllegalActionError, ReplayError, UltimataError
from ultimata.envs.core.io import atomic_write_json
from ultimata.envs.core.replay_checks import MAX_FILE_BYTES, check_fields, fit_name, short
from ultimata.envs.core.rng import Rng

FORMAT = "ultimata-replay/1"


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
            actions=list(actions), players=[fit_name(p) for p in players], final_state=state.state_dict(),
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
            raise ReplayError(f"cannot read replay {where}: not valid JSON ({short(str(err))})") from None
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "replay") -> Replay:
        """A replay from its JSON, refused with one ReplayError naming the first bad field: the types, then
        the game and version (this install's), the rules, and every value against them."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"{where} is not an ultimata replay (expected format {FORMAT!r})")
        check_fields(data, where)
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

