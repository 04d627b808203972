"""The one PettingZoo AEC adapter: every game's `raw_env` (in its package's env.py, envs/<game>/env.py) is this
class with a `Game` class and its `env_metadata`, and its `env()` is that `raw_env` under `wrap`."""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.rng import Rng, checked_seed, derived_seed


class ActionSpace(spaces.Discrete):
    """`Discrete(n)` whose bounds check on a plain int skips numpy (AssertOutOfBounds runs it every step)."""

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return self.start <= x < self.start + self.n
        return super().contains(x)


class UltimataEnv(AECEnv, EzPickle):
    """AEC view of a rules engine. Agents are `player_0..player_{n-1}`; rewards are zero-sum at the end.

    An illegal action raises `IllegalActionError` here and changes nothing; the wrapped `env()` follows
    PettingZoo's convention instead and ends the game with -1 for the offender.
    """

    game_class: ClassVar[type[Game]]
    metadata: ClassVar[dict[str, Any]]

    def __init__(self, render_mode: str | None = None, **config: Any) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **config)
        super().__init__()
        self.game = self.game_class.from_config(config)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode {render_mode!r} is not supported by {self.game.name}; "
                f"allowed: {', '.join(self.metadata['render_modes'])}"
            )
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._action_space = ActionSpace(self.game.num_actions)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=self.game.observation_bounds[0],
                    high=self.game.observation_bounds[1],
                    shape=self.game.observation_shape,
                    dtype=self.game.observation_dtype,
                ),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self._zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._renderer: Any = None
        self.state: State | None = None
        self._stream: list[int] | None = None
        """[seed, games dealt since] of the last seeded reset."""

    # -- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """`reset(seed=s)` deals the game of seed `s` and starts that seed's stream: each later plain
        `reset()` deals the stream's next game (game k of seed s is `derived_seed(s, k)`), as PettingZoo's
        classic envs continue their seeded generator. Never seeded: fresh entropy each time."""
        if seed is not None:
            self._stream = [checked_seed(seed), 0]
            game_seed = self._stream[0]
        elif self._stream is not None:
            self._stream[1] += 1
            game_seed = derived_seed(*self._stream)
        else:
            game_seed = None
        self.state = self.game.new_initial_state(Rng(game_seed))
        self._start_episode()

    def _start_episode(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._potentials = self.state.potentials() if self.game.config.dense_reward else None
        self._sync_after_step(self.possible_agents[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = self._index[agent]
        state = self.state
        on_turn = i == state.current_player and not (self.terminations[agent] or self.truncations[agent])
        mask = state.legal_action_mask().copy() if on_turn else self._zero_mask.copy()
        return {"observation": state.observation(i), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._sync_after_step(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync_after_step(self, acting_agent: str) -> None:
        """Copy the engine's outcome into PettingZoo's dicts and pick the next agent."""
        state = self.state
        if self._potentials is not None:
            now = state.potentials()
            for agent, before, after in zip(self.possible_agents, self._potentials, now):
                self.rewards[agent] += after - before
            self._potentials = now
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns()):
                self.rewards[agent] += float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = acting_agent
        elif state.decisions >= self.game.config.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = acting_agent
        else:
            self.agent_selection = self.possible_agents[state.current_player]

    # -- engine access -----------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        return self.state.state_dict()

    def load_state_dict(self, d: dict[str, Any]) -> None:
        """Continue from a saved position (a fresh episode's bookkeeping, the saved game state)."""
        if self.state is None:
            self.state = self.game.new_initial_state(Rng(0))
        self.state.load_state_dict(d)
        self._start_episode()

    def action_to_string(self, action: int) -> str:
        """The move in its player's words; the state refuses anything but an action index (no int() here:
        it would turn True or 1.5 into a move)."""
        return self.state.action_to_string(action)

    def narrate(self, action: int) -> str:
        """The move in the third person, for observers and logs."""
        return self.state.narrate(action)

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' etc.")
            return None
        if self.render_mode == "ansi":
            return self.state.render_text()
        if self.render_mode == "rgb_array" or (self.render_mode == "human" and self.game.has_board):
            if self._renderer is None:
                self._renderer = self.game.make_renderer(self.render_mode, self.metadata["render_fps"])
            return self._renderer.render(self.state)
        print(self.state.render_text())
        return None

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    def __str__(self) -> str:
        return self.game.name


_HOT_ATTRIBUTES = (
    "agent_selection", "agents", "num_agents", "possible_agents",
    "rewards", "terminations", "truncations", "infos", "_cumulative_rewards",
)  # fmt: skip
_NEEDS_RESET = {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}


def _forwarding(wrapper: type) -> type:
    """The same PettingZoo wrapper, with the attributes `last()`/`step()` read on every step taken
    straight from the unwrapped env (no wrapper overrides them) instead of through a chain of
    `__getattr__` calls, which is half of connect_four's step time. OrderEnforcing's "accessed before
    reset" error is kept."""

    def forward(name: str) -> property:
        guarded = wrapper is wrappers.OrderEnforcingWrapper and name in _NEEDS_RESET

        def get(self: Any) -> Any:
            if guarded and not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self._base, name)

        return property(get)

    def __init__(self: Any, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        self._base = env.unwrapped
        wrapper.__init__(self, env, *args, **kwargs)

    namespace: dict[str, Any] = {name: forward(name) for name in _HOT_ATTRIBUTES}
    namespace.update(
        __init__=__init__,
        __module__=__name__,
        __qualname__=f"_{wrapper.__name__.removesuffix('Wrapper')}",
    )
    return type(wrapper.__name__, (wrapper,), namespace)


_TerminateIllegal = _forwarding(wrappers.TerminateIllegalWrapper)
_AssertOutOfBounds = _forwarding(wrappers.AssertOutOfBoundsWrapper)
_OrderEnforcing = _forwarding(wrappers.OrderEnforcingWrapper)


def wrap(raw: AECEnv) -> AECEnv:
    """PettingZoo's standard wrapper stack for classic games: TerminateIllegal, AssertOutOfBounds,
    OrderEnforcing (subclasses of PettingZoo's own, behaving identically)."""
    env = _TerminateIllegal(raw, illegal_reward=-1)
    env = _AssertOutOfBounds(env)
    return _OrderEnforcing(env)


def env_metadata(game_class: type[Game]) -> dict[str, Any]:
    """A `raw_env`'s PettingZoo metadata, from its game's declaration."""
    return {"name": game_class.name, "render_modes": list(game_class.render_modes), "render_fps": 4,
            "is_parallelizable": False}
