"""Random play for the fuzz tests: the scenarios they run, how many games (ULTIMATA_FUZZ_GAMES, thousands on
demand), a policy that mixes in the scripted bot on odd seeds (it fights more: attacks, windows, feats,
deviations), and the invariants every decision must keep."""

from __future__ import annotations

import os
import random

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.phases import ACTIVE
from ultimata.envs.ultra_war.scripted import choose_action
from ultimata.envs.ultra_war.state import UltraWarState

SCENARIOS = ("street_clash", "relay_hold", "rooftop_rescue")
GAMES = int(os.environ.get("ULTIMATA_FUZZ_GAMES", "4"))
"""Games per scenario (and army mode, where a test runs both)."""


def lean(st: UltraWarState, seed: int, pick: random.Random, bot: Rng, share: float) -> int:
    """Uniform on even seeds; on odd seeds the scripted bot's choice `share` of the time, else uniform."""
    if seed % 2 and pick.random() < share:
        return choose_action(st, bot)
    return pick.choice(st.legal_actions())


def invariants(st: UltraWarState) -> None:
    """The issue's list: life never below zero (a defeated character has left the board), one pawn per
    space (a flyer or Ethereal character may be passing through another's), reserves within their
    maximum, power within its maximum; and everything _check_consistency checks."""
    st._check_consistency()
    passing = st.units[st.active] if st.phase == ACTIVE and st.over_another(st.units[st.active]) else None
    spaces = [u.pos for u in st.units if u.on_map and u is not passing]
    assert len(spaces) == len(set(spaces))
    for u in st.units:
        assert u.life >= 0 and (u.on_map or u.life == 0 or u.void > 0)
        assert all(0 <= v <= u.ch.reserves[k] for k, v in u.reserves.items())
    assert all(0 <= s.points <= s.max for s in st.sources)
