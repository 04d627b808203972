"""A game as RLlib sees it in league self-play: seats become roles, fixed opponents play inside the env.

RLlib maps agents to policies by agent id. Our agents are seats, and a learner that always sat in
seat 0 would learn one seat only. So the AEC env below names its agents by *role*: `main` (the policy
being trained) and `opponent_1..opponent_{n-1}`. Its game is one of `training/seating.py`'s `Tables`,
which seats it as the trainer's sampler seats its games: `main` at a seat drawn at random every episode,
`opponent_k` k seats after it, each opponent role drawn from the pool as on the SB3 path
(`OpponentPool.sample`): either a league seat (exposed to RLlib, which plays it with `main` itself or a
frozen snapshot, see league.py) or a fixed ultimata agent spec (`heuristic`, `random`, a checkpoint...)
played inside the tables with the engine state that the scripted bots need. RLlib's own
`PettingZooEnv` wrapper then turns this AEC env into a MultiAgentEnv.

The observation dict is renamed to RLlib's convention, {`observations`, `action_mask`}. An action
outside the mask raises instead of being quietly punished.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import derived_seed
from ultimata.training.pool import MIRROR, SNAPSHOTS, OpponentPool
from ultimata.training.rllib.module import ACTION_MASK, OBSERVATIONS
from ultimata.training.seating import Ended, Tables


def league_pool(weights: dict[str, float]) -> dict[str, float]:
    """The pool weights as this env draws them: `snapshots` and `mirror` seats are both league seats,
    drawn as `mirror` (the trained side's seat; which module plays it is RLlib's to say, league.py).
    Snapshots cannot stay a kind of their own here: they are modules in the algorithm, not files the
    env's pool could hold, so its `snapshots` kind would always be empty."""
    pool: dict[str, float] = {}
    for kind, weight in weights.items():
        key = MIRROR if kind in (SNAPSHOTS, MIRROR) else kind
        pool[key] = pool.get(key, 0.0) + weight
    return pool


def role_names(num_players: int) -> list[str]:
    return ["main"] + [f"opponent_{k}" for k in range(1, num_players)]


class LeagueAEC(AECEnv):
    """AEC env over roles; fixed-spec seats are played inside `step()` and never seen by RLlib."""

    metadata = {"render_modes": [], "name": "ultimata_league"}

    def __init__(
        self,
        game: str,
        rules: dict[str, Any] | None = None,
        pool: dict[str, float] | None = None,
        seed: int = 0,
        worker_index: int = 0,
        vector_index: int = 0,
    ) -> None:
        super().__init__()
        self.game = game_class(game).from_config(rules or {})
        n = self.game.num_players
        self.possible_agents = role_names(n)
        low, high = self.game.observation_bounds
        self._observation_space = spaces.Dict({
            OBSERVATIONS: spaces.Box(low, high, self.game.observation_shape, self.game.observation_dtype),
            ACTION_MASK: spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        self._action_space = spaces.Discrete(self.game.num_actions)
        self.pool = OpponentPool(self.game, league_pool(pool or {SNAPSHOTS: 1.0}))
        self._seed = seed
        self._id = derived_seed(worker_index, vector_index)
        """This copy's game id: copies on other env runners and vector slots deal other games."""
        self.tables: Tables | None = None
        self._final: Ended | None = None
        self.seat_of: dict[str, int] = {}
        self._zero_mask = np.zeros(self.game.num_actions, np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- episode ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A game seated by the tables, played by its fixed seats up to the first league move. A game they
        finish before any league seat moves is dealt again: RLlib needs every agent's episode to start
        with a decision."""
        if seed is not None or self.tables is None:
            self._seed = self._seed if seed is None else seed
            self.tables = Tables(self.game, 1, self.pool, seed=self._seed, ids=[self._id],
                                 designated_seats=[1.0] * self.game.num_players)
            self.tables.reset()
        elif self._final is None:  # abandoned mid-game
            self.tables.redeal(0)
        self._final = None
        while not len(self.tables.waiting()):
            self.tables.tick()
        seating = self.tables.seatings[0]
        n = self.game.num_players
        seats = {role: (seating.designated + k) % n for k, role in enumerate(self.possible_agents)}
        self.seat_of = {role: seat for role, seat in seats.items() if seating.outside(seat)}
        self._role_at = {seat: role for role, seat in self.seat_of.items()}
        self.agents = list(self.seat_of)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {role: {"seat": seat} for role, seat in self.seat_of.items()}
        self.agent_selection = self._role_at[self.tables.states[0].current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        state = self._final.state if self._final is not None else self.tables.states[0]
        on_turn = self._final is None and state.current_player == seat
        mask = state.legal_action_mask().copy() if on_turn else self._zero_mask.copy()
        return {OBSERVATIONS: state.observation(seat), ACTION_MASK: mask}

    def step(self, action: int | None) -> None:
        role = self.agent_selection
        if self.terminations[role] or self.truncations[role]:
            self._remove_finished(role)
            return
        self._cumulative_rewards[role] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        ended = self._league_move(action)
        while not ended and not len(self.tables.waiting()):  # the fixed seats move up to the next league move
            ended = self._tick(None)
        if ended:
            self._final = ended[0]
            for table in (self.terminations, self.truncations):
                is_it = (table is self.truncations) == ended[0].truncated
                for r in self.agents:
                    table[r] = is_it
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._role_at[self.tables.states[0].current_player]

    # -- internals -------------------------------------------------------------------------------
    def _league_move(self, action: int | None) -> list[Ended]:
        """A league seat's move (raises IllegalActionError outside the mask, and changes nothing)."""
        return self._tick({0: action})

    def _tick(self, actions: dict[int, int] | None) -> list[Ended]:
        ended = self.tables.tick(actions)
        for role, seat in self.seat_of.items():
            earned = float(self.tables.rewards[0, seat])
            self.rewards[role] += earned
            self._cumulative_rewards[role] += earned
        return ended

    def _remove_finished(self, role: str) -> None:
        self.agents.remove(role)
        for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            table.pop(role, None)
        if self.agents:
            self.agent_selection = self.agents[0]


class LeagueEnv(PettingZooEnv):
    """RLlib's PettingZoo wrapper over `LeagueAEC`, told every role up front (the first episode may hide
    some behind fixed opponents). `env_config`: game, rules, pool (the config's pool weights), seed."""

    def __init__(self, env_config: dict[str, Any] | None = None) -> None:
        config = dict(env_config or {})
        aec = LeagueAEC(
            config["game"],
            config.get("rules"),
            config.get("pool"),
            int(config.get("seed", 0)),
            int(getattr(env_config, "worker_index", 0)),
            int(getattr(env_config, "vector_index", 0)),
        )
        super().__init__(aec)
        self.possible_agents = list(aec.possible_agents)
        self.agents = list(aec.possible_agents)
        self._agent_ids = set(self.possible_agents)
        self.observation_spaces = {role: aec.observation_space(role) for role in self.possible_agents}
        self.action_spaces = {role: aec.action_space(role) for role in self.possible_agents}
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
