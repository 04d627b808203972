"""A game as RLlib sees it in league self-play: seats become roles, fixed opponents play inside the env.

RLlib maps agents to policies by agent id. Our agents are seats, and a learner that always sat in
seat 0 would learn one seat only. So the AEC env below names its agents by *role*: `main` (the policy
being trained) and `opponent_1..opponent_{n-1}`, and deals the roles to random seats every episode.
Each opponent role is, per episode, drawn from the pool as on the SB3 path (`OpponentPool.sample`,
training/pool.py): either a league seat (exposed to RLlib, which plays it with `main` itself or a frozen
snapshot, see league.py) or a fixed ultimata agent spec (`heuristic`, `random`, a checkpoint...), made
by `OpponentPool.make_agent` and played by this env itself with the engine state that the scripted bots
need. RLlib's own `PettingZooEnv` wrapper then turns this AEC env into a MultiAgentEnv.

The observation dict is renamed to RLlib's convention, {`observations`, `action_mask`}. The inner env is
the raw one, so an action outside the mask raises instead of being quietly punished.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from ultimata.agents.base import Agent
from ultimata.envs.core.registry import make_raw
from ultimata.training.pool import MIRROR, SNAPSHOTS, OpponentPool
from ultimata.training.rllib.module import ACTION_MASK, OBSERVATIONS


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
        self.inner = make_raw(game, **(rules or {}))
        n = self.inner.game.num_players
        self.possible_agents = role_names(n)
        inner_space = self.inner.observation_space(self.inner.possible_agents[0])
        self._observation_space = spaces.Dict(
            {OBSERVATIONS: inner_space["observation"], ACTION_MASK: inner_space["action_mask"]}
        )
        self._action_space = self.inner.action_space(self.inner.possible_agents[0])
        self.pool = OpponentPool(self.inner.game, league_pool(pool or {SNAPSHOTS: 1.0}))
        self._rng = np.random.default_rng([seed, worker_index, vector_index])
        self._made: dict[tuple[int, str], Agent] = {}
        """Fixed agents by (seat, spec): made once, reset for every game (as the batched sampler does)."""
        self.seat_of: dict[str, int] = {}
        self.fixed_seats: dict[int, Agent] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # -- episode ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal roles and play fixed seats up to the first league move. A game the fixed opponents
        finish before any league seat moves is dealt again, as in the SB3 self-play env: RLlib needs
        every agent's episode to start with a decision."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._deal()
        while self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._deal()

    def _deal(self) -> None:
        self.inner.reset(seed=int(self._rng.integers(2**31)))
        seats = self._rng.permutation(len(self.possible_agents))
        self.seat_of, self.fixed_seats, self.agents = {}, {}, []
        for index, role in enumerate(self.possible_agents):
            seat = int(seats[index])
            label = MIRROR if role == "main" else self.pool.sample(self._rng)
            if label == MIRROR:
                self.seat_of[role] = seat
                self.agents.append(role)
            else:
                agent = self._fixed_agent(seat, label)
                agent.reset(seat, seed=int(self._rng.integers(2**31)))
                self.fixed_seats[seat] = agent
        self._role_at = {seat: role for role, seat in self.seat_of.items()}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {role: {"seat": seat} for role, seat in self.seat_of.items()}
        self._play_fixed_seats()

    def _fixed_agent(self, seat: int, spec: str) -> Agent:
        if (seat, spec) not in self._made:
            self._made[seat, spec] = self.pool.make_agent(spec, seed=int(self._rng.integers(2**31)))
        return self._made[seat, spec]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.inner.observe(self.inner.possible_agents[self.seat_of[agent]])
        return {OBSERVATIONS: obs["observation"], ACTION_MASK: obs["action_mask"]}

    def step(self, action: int | None) -> None:
        role = self.agent_selection
        if self.terminations[role] or self.truncations[role]:
            self._remove_finished(role)
            return
        self._cumulative_rewards[role] = 0.0
        self._inner_step(action)
        self._play_fixed_seats()

    # -- internals -------------------------------------------------------------------------------
    def _inner_step(self, action: int | None) -> None:
        """One move in the game (raises IllegalActionError outside the mask); rewards go to the roles."""
        self.inner.step(action)
        for role, seat in self.seat_of.items():
            self._cumulative_rewards[role] += self.inner.rewards[self.inner.possible_agents[seat]]

    def _play_fixed_seats(self) -> None:
        """Fixed opponents move until a role RLlib plays is on turn, or the game is over."""
        inner = self.inner
        while True:
            selected = inner.agent_selection
            if inner.terminations[selected] or inner.truncations[selected]:
                for role, seat in self.seat_of.items():
                    agent = inner.possible_agents[seat]
                    self.terminations[role] = inner.terminations[agent]
                    self.truncations[role] = inner.truncations[agent]
                self.agent_selection = self.agents[0]
                return
            seat = inner.state.current_player
            if seat in self._role_at:
                self.agent_selection = self._role_at[seat]
                return
            obs = inner.observe(selected)
            action = self.fixed_seats[seat].act(obs["observation"], obs["action_mask"], inner.state)
            self._inner_step(action)

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
