"""Random play for the fuzz tests: the rule variants they cover, the invariants every decision must keep,
and the check that the mask is exact (every masked action applies, every other one is refused)."""

from __future__ import annotations

import pytest

from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.ultimade.actions import NUM_ACTIONS
from ultimata.envs.ultimade.board import BIT
from ultimata.envs.ultimade.phases import OVER, PLACE, PULL
from ultimata.envs.ultimade.state import UltimadeState

VARIANTS = [
    {},
    {"monster_defense": False, "run_through": "team"},
    {"run_through": "any", "throw_needs_free_field": False, "endzone_depth": 1},
    {"endzone_depth": 5, "run_length": 2, "first_receiver": "random", "points_to_win": 1},
    {"straight_pull": False, "monster_defense_in_endzone": False, "max_cycles": 30},
    {"endzone_depth": 7, "monster_turn_faces": (1, 2, 3, 4, 5)},
]


def invariants(state: UltimadeState) -> None:
    """One player per field, the bitboards agree with the positions, players set up in their endzone, one
    disc (held by an offense player or on an empty field), and a live game always has a legal move."""
    pos = state.pos
    placed = [f for f in pos if f >= 0]
    assert len(set(placed)) == len(placed), "two players on one field"
    for team in (0, 1):
        assert state.team_bb[team] == sum(BIT[f] for f in pos[4 * team : 4 * team + 4] if f >= 0)
    if state.phase in (PLACE, PULL):
        for team in (0, 1):
            assert all(state.game.endzone[team] & BIT[f] for f in pos[4 * team : 4 * team + 4] if f >= 0)
        return
    if state.phase == OVER:
        return
    assert len(placed) == 8
    if state.holder >= 0:  # exactly one holder, and the disc is where he stands
        assert state.disc == pos[state.holder]
        assert state.holder >> 2 == state.offense
    else:  # or the disc lies on an empty field
        assert state.disc >= 0 and state.disc not in pos
    assert 1 <= state.cycle <= state.game.config.max_cycles
    legal = state.legal_actions()
    assert legal, "a live state with no legal action"


def mask_is_exact(state: UltimadeState) -> None:
    """Every masked action applies on a clone; every other one is refused and changes nothing."""
    mask = state.legal_action_mask()
    before = state.state_dict()
    for action in range(NUM_ACTIONS):
        if mask[action]:
            other = state.clone()
            other.apply(action)
        else:
            with pytest.raises(IllegalActionError):
                state.apply(action)
    assert state.state_dict() == before
