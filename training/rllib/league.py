"""The league: `main` learns; frozen snapshots of it join as opponents as training goes on.

Two RLlib traps are handled here, both measured on ray 2.60:
- `algo.get_module()` is an env runner's inference copy, which lags the learner; snapshots are taken
  from the learner group's state.
- Env runners ignore a weight push whose sequence number is not newer than theirs, so a snapshot added
  with `add_module` and then `set_state` could play a whole iteration with its random initial weights.
  The snapshot's weights are therefore written into every env runner's copy directly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

MAIN = "main"


@dataclass(frozen=True)
class LeagueMapping:
    """Role -> module: `main` is always trained; each league seat drawn among the snapshots (evenly,
    per episode and role), or `main` itself until the first snapshot exists (mirror self-play).

    This is the one draw that does not go through `OpponentPool` (training/pool.py), which the league env
    uses to pick league seats and fixed agents: a snapshot here is an RLlib module inside the algorithm,
    and RLlib asks this policy_mapping_fn, on each env runner, which module plays an agent; the env never
    holds the snapshots. Two consequences differ from the SB3 pool: a snapshot seat is main itself until
    the first snapshot (the SB3 pool hands the weight to the other kinds instead), and the draw is keyed
    by episode id and role, since RLlib gives this function no random generator of ours."""

    snapshots: tuple[str, ...] = ()

    def __call__(self, agent_id: str, episode: Any = None, **kwargs: Any) -> str:
        if agent_id == MAIN or not self.snapshots:
            return MAIN
        key = f"{getattr(episode, 'id_', '')}/{agent_id}"
        return random.Random(key).choice(self.snapshots)


def learner_weights(algo: Algorithm, module_id: str = MAIN) -> dict[str, Any]:
    """The trained weights of `module_id`, read from the learner group (not an env runner's copy)."""
    state = algo.learner_group.get_state(components=f"learner/rl_module/{module_id}")
    return state["learner"]["rl_module"][module_id]


def push_weights(algo: Algorithm, module_id: str, weights: dict[str, Any]) -> None:
    """Write `weights` into `module_id` on the learners and on every env runner, bypassing the
    sequence-number check that would drop a push to a module that is new to the runners."""
    algo.learner_group.set_state({"learner": {"rl_module": {module_id: weights}}})

    def write(runner: Any) -> None:
        runner.module[module_id].set_state(weights)

    algo.env_runner_group.foreach_env_runner(write, local_env_runner=True)


def add_snapshot(algo: Algorithm, module_id: str, weights: dict[str, Any], snapshots: tuple[str, ...]) -> LeagueMapping:
    """Add a frozen copy of main with `weights` under `module_id`; returns the new mapping."""
    mapping = LeagueMapping(tuple(snapshots) + (module_id,))
    spec = algo.config.rl_module_spec.rl_module_specs[MAIN]
    algo.add_module(
        module_id=module_id,
        module_spec=RLModuleSpec(
            module_class=spec.module_class,
            model_config=spec.model_config,
            observation_space=spec.observation_space,
            action_space=spec.action_space,
        ),
        new_agent_to_module_mapping_fn=mapping,
        new_should_module_be_updated=[MAIN],
    )
    push_weights(algo, module_id, weights)
    return mapping


def drop_snapshot(algo: Algorithm, module_id: str, snapshots: tuple[str, ...]) -> LeagueMapping:
    """Remove the oldest snapshots beyond the pool's `keep` (the mapping first, then the module)."""
    mapping = LeagueMapping(tuple(s for s in snapshots if s != module_id))
    algo.remove_module(module_id, new_agent_to_module_mapping_fn=mapping, new_should_module_be_updated=[MAIN])
    return mapping
