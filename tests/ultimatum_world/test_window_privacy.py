"""Defence windows must not tell the table what a defender holds (issue 50). From positions reached in
random play, the hidden hands of every seat but the player on turn are re-dealt (sizes and the cards
everyone knows kept, `sample_consistent`), the dice left as they were, and the player on turn's turn
is played in both with the same moves while every defender passes: who is asked, in which order, and
every seat's observation (its own hand aside) must be the same in both. Under `reaction_windows:
revealing` the same check finds the leak, so the check can fail."""

from __future__ import annotations

import random

import numpy as np

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.cards import INTEL
from ultimata.envs.ultimatum_world.observation import HAND_AT, KINDS
from ultimata.envs.ultimatum_world.phases import ACT, BUY, WINDOW
from ultimata.envs.ultimatum_world.state import WorldState

from .random_play import enrich

SHOWING = {A.CARD + kind for kind in INTEL}
"""Intelligence cards show opponents' hands to the player on turn: played, the twins may rightly differ."""


def _redealt(s: WorldState, seed: int) -> WorldState:
    """`s` with every hand but the player on turn's re-dealt, and the same dice to come."""
    twin = s.sample_consistent(s.player, Rng(seed))
    twin.rng = s.rng.copy()
    return twin


def _pick(s: WorldState, pick: random.Random) -> int | None:
    """The player on turn's move, mostly not DONE (attacks come up); None at the end of its turn. A
    defender passes."""
    legal = s.legal_actions()
    if s.phase == WINDOW and not s.pending and not s.transferring():
        return A.DONE
    legal = [a for a in legal if a not in SHOWING or s.pending]
    if len(legal) > 1 and pick.random() < 0.8:
        legal = [a for a in legal if a != A.DONE]
    action = pick.choice(legal)
    turn_ends = action == A.DONE and s.phase == ACT and not (s.pending or s.transferring() or s.placing_now())
    return None if turn_ends else action


def _view(s: WorldState, seat: int) -> np.ndarray:
    """The seat's observation without its own hand (which a re-deal changes, and only the seat sees)."""
    obs = s.observation(seat).copy()
    obs[HAND_AT:HAND_AT + KINDS] = 0
    return obs


def _differs(s: WorldState, twin: WorldState, pick: random.Random) -> tuple[str | None, int]:
    """Plays the turn in both; the first difference the table could see (or None), and the windows met."""
    windows = 0
    while not s.is_terminal():
        if s.current_player != twin.current_player:
            asked = f"player_{s.current_player} asked, player_{twin.current_player} in the twin"
            return f"decision {s.decisions}: {asked}", windows
        for seat in range(s.n):
            if not np.array_equal(_view(s, seat), _view(twin, seat)):
                return f"decision {s.decisions}: player_{seat}'s observation differs", windows
        if s.current_player == s.player and s.legal_actions() != twin.legal_actions():
            return f"decision {s.decisions}: the player on turn's legal moves differ", windows
        windows += s.phase == WINDOW
        action = _pick(s, pick)
        if action is None:
            return None, windows
        s.apply(action)
        twin.apply(action)
    return None, windows


def _check(windows_rule: str, seeds: range) -> tuple[list[str], int]:
    """Differences found and windows met over turns from random positions of 3 and 4 players."""
    found, met = [], 0
    for seed in seeds:
        game = game_class("ultimatum_world_v4").from_config(
            {"num_players": 3 + seed % 2, "setup": "dealt", "max_rounds": 6, "reaction_windows": windows_rule})
        s = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        enrich(s, pick)
        while not s.is_terminal() and s.decisions < 400:
            if s.phase in (BUY, ACT) and not (s.pending or s.transferring() or s.placing_now()):
                trial = pick.randrange(10**6)
                difference, windows = _differs(s.clone(), _redealt(s, trial), random.Random(trial))
                met += windows
                if difference:
                    found.append(f"seed {seed}: {difference}")
            legal = s.legal_actions()
            busy = [a for a in legal if a != A.DONE] if pick.random() < 0.6 else []
            s.apply(pick.choice(busy or legal))
    return found, met


def test_who_is_asked_and_what_every_seat_sees_do_not_depend_on_hidden_hands():
    found, windows = _check("always", range(4))
    assert windows > 50, "the turns played met defence windows"
    assert not found, found[:5]


def test_revealing_windows_do_tell_the_table_what_a_defender_holds():
    found, _ = _check("revealing", range(4))
    assert found, "with revealing windows a re-deal changes who is asked"
