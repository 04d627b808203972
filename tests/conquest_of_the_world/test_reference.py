"""The engine against the independent model of reference.py, in lock-step over random games in every
variant: the mask equals the model's legal set, the position after every move equals the model's,
and the returns agree. ULTIMATA_FUZZ_GAMES=2000 runs thousands of games per variant."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.core.rng import Rng

from .random_play import VARIANTS, games_per_variant, lean, variant_id
from .reference import Reference

COMPARED = tuple(f for f in ConquestState.FIELDS.keys if f != "events")


def position(s: ConquestState) -> dict:
    return {f: copy.deepcopy(getattr(s, f)) for f in COMPARED}


def play_side_by_side(game: ConquestGame, ref: Reference, seed: int, seen: Counter) -> None:
    s = game.new_initial_state(Rng(seed))
    pick = random.Random(seed)
    g = position(s)
    while not s.is_terminal():
        legal = s.legal_actions()
        assert set(legal) == ref.legal(g), f"seed {seed}: mask differs at {g}"
        assert s.current_player == ref.to_move(g)
        action = lean(s, legal, pick)
        dice = Rng.from_state_dict(s.rng.state_dict())
        expected = ref.after(g, action, dice.below)
        s.apply(action)
        g = position(s)
        if g != expected:
            diff = {k: (g[k], expected[k]) for k in COMPARED if g[k] != expected[k]}
            pytest.fail(f"seed {seed}, action {action} ({s.action_to_string(action)}): engine vs model {diff}")
        if s.stage < T.LADDER and not s.is_terminal():
            for p in range(s.n):
                if s.alive[p]:
                    assert s.record[p] == ref.holdings_record(g, p), "a record is not its holdings"
        seen[s.action_to_string(action).split(" ")[0]] += 1
        if A.BUY <= action < A.ATTACK and s.stage == T.FINAL:
            seen["last-round buys"] += 1
        if s.phase == P.WEAPON and s.director(0) != s.fighters[0]:
            seen["battles directed by an ally"] += 1
    assert s.returns() == pytest.approx(ref.returns(g))
    seen["eliminations"] += len(s.eliminated)
    seen["booty shared"] += sum("booty values" in e for e in s.events)
    seen["ladders"] += s.stage == T.LADDER
    seen["target wins"] += s.target_winner >= 0
    seen["games"] += 1


@pytest.mark.parametrize("config", VARIANTS, ids=variant_id)
def test_the_engine_plays_exactly_as_the_reference_model(config):
    game = ConquestGame.from_config(config)
    ref = Reference(game.config.model_dump())
    seen: Counter = Counter()
    for seed in range(games_per_variant(4)):
        play_side_by_side(game, ref, seed, seen)
    assert seen["games"] and seen["attack"] and seen["fight"]
