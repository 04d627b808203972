"""ULTIMADE through PettingZoo: spaces, config errors, the observation, pictures. (PettingZoo's own
api/seed/render tests run on every env in tests/test_pettingzoo_checks.py.)"""

from __future__ import annotations

import os

import numpy as np
import pytest

from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.actions import NUM_ACTIONS
from ultimata.envs.ultimade.board import FLIP, parse
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.observation import PLANES, SCALARS
from ultimata.envs.ultimade_v2 import env, raw_env

from .positions import position

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_spaces_are_exact():
    e = env()
    e.reset(seed=0)
    space = e.observation_space("player_0")
    assert space["observation"].shape == (len(PLANES) * 162 + len(SCALARS),)
    assert space["observation"].dtype == np.float32
    assert e.action_space("player_1").n == NUM_ACTIONS == 164
    obs = e.observe("player_0")
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert space.contains(obs)


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"bogus_key": 1}, "bogus_key"),
        ({"endzone_depth": 0}, "endzone_depth"),
        ({"endzone_depth": 9}, "endzone_depth"),
        ({"run_through": "walls"}, "run_through"),
        ({"monster_turn_faces": [0, 7]}, "monster_turn_faces"),
        ({"points_to_win": 0}, "points_to_win"),
    ],
)
def test_bad_config_gives_config_error_naming_the_key(config: dict, key: str):
    with pytest.raises(ConfigError, match=key):
        raw_env(**config)
    with pytest.raises(ConfigError, match=key):
        UltimadeGame.from_config(config)


def _mirror(fields: list[str]) -> list[str]:
    from ultimata.envs.ultimade.board import name

    return [name(FLIP[parse(f)]) for f in fields]


def test_observation_and_actions_are_seat_relative():
    """A position and its mirror image with the teams swapped look and play the same to the seat on offense."""
    g = UltimadeGame.from_config({})
    a, b = ["e5", "e8", "c3", "g7"], ["e6", "d9", "a14", "i16"]
    for step in ("offense", "defense", "throw"):
        one = position(g, a, b, offense=0, holder="A1", step=step)
        two = position(g, _mirror(b), _mirror(a), offense=1, holder="B1", step=step)
        assert one.current_player != two.current_player or step == "throw"
        for viewer in (0, 1):
            np.testing.assert_array_equal(one.observation(viewer), two.observation(1 - viewer))
        assert one.legal_actions() == two.legal_actions()


def test_observation_shows_both_teams_disc_and_constants():
    g = UltimadeGame.from_config({})
    state = position(g, ["e5", "e8", "c3", "g7"], ["e6", "d9", "a14", "i16"])
    planes = g.obs_layout.planes_of(state.observation(1))
    own, opp, disc, _, _, marked, own_end, attack_end, _ = planes
    assert own.sum() == 4 and opp.sum() == 4 and disc.sum() == 1
    # player_1 sees the pitch from its own end: B1 (e6, 0-based row 5) at row 17 - 5 = 12, A1 (e5) at 13
    assert own[12, 4] == 1 and opp[13, 4] == 1 and disc[13, 4] == 1
    assert marked[13, 4] == 1 and marked.sum() == 2  # A1 has B1 next to him, A2 (e8) has B2 (d9)
    assert own_end[:3].all() and not own_end[3:].any() and attack_end[15:].all()
    obs = state.observation(0)
    assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_fresh_game_observation_for_both_seats():
    state = UltimadeGame.from_config({}).new_initial_state(Rng(0))
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs.shape == UltimadeGame.from_config({}).observation_shape
        assert obs[: 2 * 162].sum() == 0


def test_dense_reward_is_zero_sum_and_off_by_default():
    assert not UltimadeGame.from_config({}).config.dense_reward
    e = env(dense_reward=True)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in e.agent_iter(400):
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        assert abs(sum(e.rewards.values())) < 1e-9


def test_ansi_render_draws_the_pitch():
    e = env(render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "ULTIMADE" in text and "B endzone" in text and "A endzone" in text
    assert len([line for line in text.splitlines() if "|" in line]) == 18


def test_rgb_array_render_is_a_picture_of_the_pitch(tmp_path):
    import pygame

    g = UltimadeGame.from_config({})
    state = position(g, ["e5", "e8", "c3", "g7"], ["e6", "d9", "a14", "i16"], step="throw")
    renderer = g.make_renderer("rgb_array", 4)
    picture = renderer.render(state)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[:2] == (renderer.size[1], renderer.size[0])
    pygame.image.save(renderer.surface, str(tmp_path / "ultimade.png"))
    assert (tmp_path / "ultimade.png").stat().st_size > 1000
    greens = ((picture[:, :, 1] > picture[:, :, 0] + 40) & (picture[:, :, 1] > picture[:, :, 2] + 30)).sum()
    assert greens > 0.3 * 9 * 18 * 34 * 34  # most of the board is grass
    renderer.close()


def test_unwrapped_state_dict_round_trip_through_the_env():
    e = env()
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(150):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    saved = e.unwrapped.state_dict()
    other = env()
    other.reset(seed=0)
    other.unwrapped.load_state_dict(saved)
    assert other.unwrapped.state_dict() == saved
    np.testing.assert_array_equal(e.observe("player_0")["observation"], other.observe("player_0")["observation"])


def test_json_view_and_moves_for_browsers():
    import json

    from ultimata.envs.ultimade.view import moves
    from ultimata.web.views import seat_view

    g = UltimadeGame.from_config({})
    state = position(g, ["e5", "e8", "c3", "g7"], ["e6", "d9", "a14", "i16"], offense=0, step="throw")
    v = seat_view("ultimade_v2", state, 0)
    json.dumps(v)
    assert v["kind"] == "ultimade" and len(v["players"]) == 8 and v["disc"]["field"] == "e5"
    assert {p["id"] for p in v["players"] if p["marked"]} == {"A1", "A2"}
    listed = moves(state)
    assert [m["action"] for m in listed] == state.legal_actions()
    assert {m["field"] for m in listed} == {"c3", "g7"} and all(m["kind"] == "throw" for m in listed)
