"""The ansi text view: readable without the source (who holds what, and what the sea notation means)."""

from __future__ import annotations

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng

from .positions import position


def test_text_view_says_unowned_and_keys_its_nation_and_sea_notation():
    fresh = game_class("ultimatum_world_v2").from_config({"num_players": 3}).new_initial_state(Rng(1))
    text = fresh.render_text(0)
    assert "p-1" not in text and "Canada unowned" in text and "Seas: all vacant" in text
    s = position(nations={"France": (1, 10)}, seas={2: (1, 3, 2)})
    text = s.render_text(0)
    key = next(line for line in text.splitlines() if line.startswith("Key: "))
    assert "'France* p1:10' = France (* a Worldpower), held by player_1 with 10 troops" in key
    assert "'blockade 2 p1:3b2s' = player_1's 3 battleships and 2 submarines there" in key
    assert "France* p1:10" in text and "blockade 2 p1:3b2s" in text, "the board uses the notation of its key"
