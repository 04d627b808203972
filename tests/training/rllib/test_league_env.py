"""The league env: roles dealt to seats, fixed opponents played inside, RLlib's observation keys."""

from __future__ import annotations

import numpy as np
import pytest

from ultimata.envs.core.errors import IllegalActionError
from ultimata.training.rllib.league_env import LeagueAEC, LeagueEnv


def _play(env: LeagueEnv, rng: np.random.Generator) -> tuple[dict[str, float], set[str], int]:
    """A random masked game through RLlib's MultiAgentEnv API: (returns per role, roles seen, moves)."""
    obs, _ = env.reset(seed=int(rng.integers(1 << 30)))
    returns: dict[str, float] = {}
    seen: set[str] = set()
    moves = 0
    while True:
        ((role, ob),) = obs.items()
        assert set(ob) == {"observations", "action_mask"}
        seen.add(role)
        legal = np.flatnonzero(ob["action_mask"])
        obs, rewards, terminateds, truncateds, _ = env.step({role: int(rng.choice(legal))})
        moves += 1
        for r, value in rewards.items():
            returns[r] = returns.get(r, 0.0) + value
        if terminateds["__all__"] or truncateds["__all__"]:
            return returns, seen, moves
        obs = {r: o for r, o in obs.items() if not (terminateds.get(r) or truncateds.get(r))}


@pytest.mark.parametrize("game", ["ultimatum_cards_v3", "ultimade_v2"])
def test_only_league_seats_reach_rllib_and_every_role_gets_its_result(game):
    env = LeagueEnv({"game": game, "pool": {"snapshots": 1.0}, "seed": 3})
    rng = np.random.default_rng(0)
    returns, seen, _ = _play(env, rng)
    assert seen == set(env.possible_agents)
    assert set(returns) == set(env.possible_agents)
    assert sum(returns.values()) == pytest.approx(0.0)  # the games are zero-sum


def test_fixed_opponents_play_inside_the_env_and_main_moves_from_every_seat():
    env = LeagueEnv({"game": "ultimatum_cards_v3", "pool": {"heuristic": 1.0}, "seed": 1})
    rng = np.random.default_rng(1)
    seats = set()
    for _ in range(30):
        returns, seen, _ = _play(env, rng)
        assert seen == {"main"} and set(returns) == {"main"}
        seats.add(env.env.seat_of["main"])  # a seat drawn at random every episode
    assert seats == {0, 1, 2, 3}


def test_an_action_outside_the_mask_is_refused_by_the_env():
    aec = LeagueAEC("ultimatum_cards_v3", pool={"snapshots": 1.0})
    aec.reset(seed=5)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        aec.step(illegal)


def test_the_observation_is_the_seats_own():
    aec = LeagueAEC("ultimade_v2", pool={"snapshots": 1.0})
    aec.reset(seed=9)
    role = aec.agent_selection
    seat = aec.seat_of[role]
    state = aec.tables.states[0]
    assert state.current_player == seat
    np.testing.assert_array_equal(aec.observe(role)["observations"], state.observation(seat))
    np.testing.assert_array_equal(aec.observe(role)["action_mask"], state.legal_action_mask())
    for other, other_seat in aec.seat_of.items():
        if other != role:
            np.testing.assert_array_equal(aec.observe(other)["observations"], state.observation(other_seat))
            assert not aec.observe(other)["action_mask"].any()


def test_a_game_the_fixed_opponents_end_before_any_league_move_is_dealt_again():
    aec = LeagueAEC("ultimatum_cards_v3", pool={"snapshots": 0.3, "heuristic": 0.4, "random": 0.3})
    redealt = 0
    for seed in range(300):
        aec.reset(seed=seed)
        redealt += int(aec.tables.env.episodes[0]) - 1  # games dealt beyond the first
        role = aec.agent_selection
        assert not (aec.terminations[role] or aec.truncations[role])
        assert aec.observe(role)["action_mask"].any()
    assert redealt > 0  # some deals were finished by the fixed opponents alone, and dealt again
