"""The games as OpenSpiel games (`pip install ultimata[openspiel]`): `import ultimata.openspiel` registers every
registered env as `ultimata_<env name>`, so `pyspiel.load_game("ultimata_ultimatum_cards_v3", {"num_players":
3})` works, each scalar rule key a game parameter.

Why it is built this way:
- Chance is explicit: every deal, shuffle and die of the engines is a chance node (ultimata/openspiel_chance.py
  turns the engine's draws into nodes of at most 64 outcomes, each with its exact probability), so CFR-style
  tools, `evaluate_bots` and OpenSpiel's checks see the chance the rules have.
- A position holds no random generator, so `clone()` never carries the hidden future: a copy meets the same
  chance nodes and nothing in it says how they will fall.
- `resample_from_infostate` is the engine's own `State.sample_consistent`: the hidden parts (other hands,
  deck order, a battle's secret first choice) drawn again from what that seat may see or remember, seeded
  from the sampler OpenSpiel passes. The copy keeps the original's history (its move number and the players'
  moves), though its hidden draws differ from the chance outcomes recorded there.
- The information-state and observation tensors are both the engine's observation of the seat: it holds
  everything the seat could see or remember (the project's observation standard), so it is perfect recall.
"""

from __future__ import annotations

import hashlib
import typing
from typing import Any

import numpy as np
import pyspiel

from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.registry import GAMES, game_class
from ultimata.envs.core.rng import Rng
from ultimata.openspiel_chance import MAX_OUTCOMES, ChanceNeeded, ChanceRng

PREFIX = "ultimata_"
SCALARS = (bool, int, float, str)


def short_name(env_name: str) -> str:
    return PREFIX + env_name


def rule_parameters(game_cls: type[Game]) -> dict[str, Any]:
    """The rule keys OpenSpiel can carry (a parameter is a bool, int, float or str with a default): every key
    whose default is one. Keys defaulting to None or to a list or mapping keep their default."""
    defaults = game_cls.from_config({}).config.model_dump(mode="json")
    return {key: value for key, value in defaults.items() if isinstance(value, SCALARS)}


def _player_range(game_cls: type[Game]) -> tuple[int, int]:
    """min and max players: the `num_players` rule key's bounds where the rules vary it."""
    default = game_cls.from_config({}).num_players
    field = game_cls.config_model.model_fields.get("num_players")
    if field is None:
        return default, default
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), default)
    high = next((m.le for m in field.metadata if hasattr(m, "le")), default)
    return int(low), int(high)


def game_type(env_name: str) -> pyspiel.GameType:
    game_cls = game_class(env_name)
    low, high = _player_range(game_cls)
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION if game_cls.perfect_information
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=short_name(env_name), long_name=f"ultimata {game_cls.title or env_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, information=information,
        utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=rule_parameters(game_cls))


class UltimataGame(pyspiel.Game):
    """One rule variant of one engine game, as OpenSpiel sees it."""

    env_name: typing.ClassVar[str]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.engine = game_class(self.env_name).from_config(params)
        game = self.engine
        info = pyspiel.GameInfo(num_distinct_actions=game.num_actions, max_chance_outcomes=MAX_OUTCOMES,
                                num_players=game.num_players, min_utility=-1.0, max_utility=1.0,
                                max_game_length=int(game.config.max_decisions))
        super().__init__(game_type(self.env_name), info, params)

    def new_initial_state(self) -> UltimataState:
        return UltimataState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"ultimata's observers take no parameters, got {params}")
        return Observer(self.engine, iig_obs_type)


class UltimataState(pyspiel.State):
    """A position of the engine behind OpenSpiel's State API, with a chance node wherever the engine draws.

    `engine_state` is the last position every draw of which is settled (None before the deal); `pending`
    is the move waiting on chance, with the outcomes chosen so far and the next node's outcomes."""

    def __init__(self, game: UltimataGame, engine_state: State | None = None) -> None:
        super().__init__(game)
        self._bridge = game
        self.engine_state = engine_state
        self.pending: dict[str, Any] | None = None
        self._replaying: list[int] | None = None
        """While a copy takes over its original's history: the players of the moves still to record."""
        if engine_state is None:
            self._settle(None, [])

    def _settle(self, action: int | None, script: list[int]) -> None:
        """Play `action` (None: the deal) from the settled position with the chance outcomes in `script`:
        it either completes, or stops at the next draw, which becomes the chance node."""
        try:
            if action is None:
                candidate = self._bridge.engine.new_initial_state(ChanceRng(script))
            else:
                assert self.engine_state is not None
                candidate = self.engine_state.clone()
                candidate.rng = ChanceRng(script)
                candidate.apply(action)
        except ChanceNeeded as node:
            self.pending = {"action": action, "script": script, "outcomes": node.outcomes}
            return
        candidate.rng = ChanceRng()
        self.engine_state, self.pending = candidate, None

    def current_player(self) -> int:
        if self._replaying:
            return self._replaying[0]
        if self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        assert self.engine_state is not None
        if self.engine_state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self.engine_state.current_player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.pending is not None, "not a chance node"
        return list(self.pending["outcomes"])

    def _legal_actions(self, player: int) -> list[int]:
        if self.pending is not None:
            return [k for k, _ in self.pending["outcomes"]] if player == pyspiel.PlayerId.CHANCE else []
        assert self.engine_state is not None
        if self.engine_state.is_terminal() or player != self.engine_state.current_player:
            return []
        return self.engine_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self._replaying:  # the position is already past this move: only OpenSpiel's record moves on
            self._replaying.pop(0)
            return
        if self.pending is not None:
            self._settle(self.pending["action"], [*self.pending["script"], int(action)])
        else:
            self._settle(int(action), [])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        assert self.engine_state is not None
        # the index keeps two legal actions apart that read alike (two copies of one card in a hand)
        return f"p{player} #{action}: {self.engine_state.action_to_string(int(action))}"

    def is_terminal(self) -> bool:
        if self._replaying or self.pending is not None:
            return False
        assert self.engine_state is not None
        return self.engine_state.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._bridge.engine.num_players
        assert self.engine_state is not None
        return [float(r) for r in self.engine_state.returns()]

    def __str__(self) -> str:
        table = "(before the deal)" if self.engine_state is None else self.engine_state.render_text()
        if self.pending is None:
            return table
        move = "the deal" if self.pending["action"] is None else f"action {self.pending['action']}"
        return f"{table}\n(chance: {len(self.pending['script'])} outcomes drawn for {move})"

    def _copy(self, engine_state: State | None, pending: dict[str, Any] | None) -> UltimataState:
        """A state over `engine_state` with this one's history, so OpenSpiel's history and move number hold."""
        other = UltimataState.__new__(UltimataState)
        pyspiel.State.__init__(other, self._bridge)
        other._bridge, other.engine_state, other.pending = self._bridge, engine_state, pending
        moves = self.full_history()
        other._replaying = [move.player for move in moves]
        for move in moves:
            other.apply_action(move.action)
        other._replaying = None
        return other

    def clone(self) -> UltimataState:
        """The same position; like the original it holds no generator, so no hidden future is copied."""
        engine_state = None if self.engine_state is None else self.engine_state.clone()
        pending = None if self.pending is None else {**self.pending, "script": list(self.pending["script"])}
        return self._copy(engine_state, pending)

    def __deepcopy__(self, memo: dict[int, Any]) -> UltimataState:
        return self.clone()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> UltimataState:
        """A state `player_id` cannot tell from this one, the hidden parts drawn by the engine; the sampler
        (a callable giving a uniform number in [0, 1), as OpenSpiel passes) seeds the draw."""
        if self.engine_state is None or self.pending is not None:
            raise ValueError("resample_from_infostate is for a decision node, not a chance node")
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else None
        sampled = self.engine_state.sample_consistent(int(player_id), Rng(seed))
        sampled.rng = ChanceRng()
        return self._copy(sampled, None)


class Observer:
    """OpenSpiel's PyObserver: the engine's observation of a seat as the tensor (information state and
    observation alike), the seat's own table as the observation string."""

    def __init__(self, engine: Game, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(engine.observation_shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UltimataState, player: int) -> None:
        if state.engine_state is None:  # before the deal nothing is seen
            self.tensor.fill(0)
            return
        self.tensor[:] = state.engine_state.observation(player)

    def string_from(self, state: UltimataState, player: int) -> str:
        if state.engine_state is None:
            return f"p{player} (before the deal)"
        table = state.engine_state.render_text(viewer=player)
        if not self.perfect_recall:
            return table
        # the tensor holds the seat's memory too; two positions the seat tells apart differ in it
        seen = np.ascontiguousarray(state.engine_state.observation(player), dtype=np.float32)
        return f"p{player} {hashlib.sha1(seen.tobytes()).hexdigest()}\n{table}"


def _register(env_name: str) -> None:
    name = f"UltimataGame_{env_name}"
    cls = type(name, (UltimataGame,), {"env_name": env_name, "__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # found by name, so a game pickles (OpenSpiel's serialisation does)
    pyspiel.register_game(game_type(env_name), cls)


REGISTERED = [short_name(name) for name in GAMES]
for _name in GAMES:
    if short_name(_name) not in pyspiel.registered_names():
        _register(_name)
