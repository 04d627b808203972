"""The scripted bot beats random play; the text, picture and JSON views show what a seat may see."""

from __future__ import annotations

import random

import numpy as np

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war import view
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.scripted import choose_action


def test_heuristic_beats_random_play():
    game = UltraWarGame.from_config({})
    wins = 0
    for seed in range(6):
        st = game.new_initial_state(Rng(seed))
        pick, seat = random.Random(seed), seed % 2
        while not st.is_terminal():
            st.apply(choose_action(st, Rng(seed)) if st.current_player == seat else pick.choice(st.legal_actions()))
        wins += st.winner == seat
    assert wins >= 5


def test_ansi_text_shows_the_map_armies_and_only_the_viewers_hand():
    st = UltraWarGame.from_config({}).new_initial_state(Rng(0))
    text = st.render_text(viewer=0)
    assert "Street Clash" in text and "Justice" in text and "Vegron" in text
    assert "your hand: " + ", ".join(st.hands[0]) in text
    assert ", ".join(st.hands[1]) not in text or st.hands[1] == st.hands[0]


def test_rgb_array_picture_has_the_declared_size():
    game = UltraWarGame.from_config({})
    renderer = game.make_renderer("rgb_array", 4)
    img = renderer.render(game.new_initial_state(Rng(0)))
    assert img.shape == (renderer.size[1], renderer.size[0], 3) and img.std() > 10
    renderer.close()


def test_json_view_hides_the_other_hand_and_moves_are_legal_actions():
    st = UltraWarGame.from_config({"first_player": "player_0"}).new_initial_state(Rng(0))
    v = view.view(st, 0)
    assert v["hand"] == st.hands[0] and "hands" not in v and len(v["pawns"]) == 10
    moves = view.moves(st)
    assert sorted(m["action"] for m in moves) == st.legal_actions()
    assert all(isinstance(m["label"], str) for m in moves)


def test_observation_bounds():
    game = UltraWarGame.from_config({"scenario": "rooftop_rescue"})
    st = game.new_initial_state(Rng(3))
    pick = random.Random(3)
    for _ in range(150):
        if st.is_terminal():
            break
        obs = st.observation(st.current_player)
        assert obs.min() >= 0 and obs.max() <= 1 and obs.shape == game.observation_shape and np.isfinite(obs).all()
        st.apply(pick.choice(st.legal_actions()))
