"""The scripted bot: always legal, takes the strongest homeland and its in-zone allies, picks weapons
by the matchup table against what the enemy still has."""

import random

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.conquest_of_the_world.scripted import choose_action
from ultimata.envs.core.rng import Rng

from .positions import c, fight, new_state, opening


def test_always_legal_over_many_games():
    for n in (2, 3, 5):
        game = ConquestGame.from_config({"num_players": n})
        for seed in range(4):
            s, rng, pick = game.new_initial_state(Rng(seed)), Rng(seed), random.Random(seed)
            while not s.is_terminal():
                a = choose_action(s, rng) if s.current_player % 2 == 0 else pick.choice(s.legal_actions())
                s.apply(a)


def test_takes_a_strong_homeland_and_allies_greedily_in_its_zone():
    s = new_state(2)
    s.apply(choose_action(s, Rng(0)))
    assert s.homeland[0] == c("United States")  # 30, with Canada and Mexico to ally
    s.apply(A.PICK + c("West Germany"))
    s.apply(choose_action(s, Rng(0)))
    assert s.holder[c("Canada")] == 0


def test_picks_the_weapon_that_beats_what_the_enemy_has_left():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [99, 0, 99, 99, 0, 0], (0, 1), (0, 1), (1, 1), (1, 1))  # defender loses its tank, then a tie
    s._mask = None
    # the defender has only the plane left: the attacker's best answer is the tank (45 vs 20)
    assert (choose_action(s, Rng(0)) - A.WEAPON) // 3 == 0
