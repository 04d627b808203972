"""Set up positions by field name, for rule tests and the rulebook's situations.

state = position(game, a=["e5", "e7", "c3", "g3"], b=["e6", "a9", "i9", "e12"],
                 offense=0, holder="A1", step="throw")
"""

from __future__ import annotations

from collections.abc import Sequence

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.actions import from_field
from ultimata.envs.ultimade.board import BIT, parse
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimade.players import PLAYER_NAMES
from ultimata.envs.ultimade.state import UltimadeState

STEPS = ("offense", "defense", "throw")


def position(
    game: UltimadeGame,
    a: Sequence[str],
    b: Sequence[str],
    *,
    offense: int = 0,
    holder: str | None = "A1",
    disc: str | None = None,
    step: str = "offense",
    score: Sequence[int] = (0, 0),
    cycle: int = 1,
    marker_only: str | None = None,
    surplus: bool = False,
    rng: Rng | None = None,
) -> UltimadeState:
    """A mid-point position at the start of the offense's running step, the defense's step, or the
    throw (which turns over by itself when nobody is free). `holder` names a player ('A1'..'B4');
    with holder=None the disc lies on `disc`."""
    if len(a) != 4 or len(b) != 4 or step not in STEPS:
        raise ValueError(f"need 4 fields per team and step in {STEPS}")
    state = game.new_initial_state(rng or Rng(0))
    state.pos = [parse(f) for f in [*a, *b]]
    if len(set(state.pos)) != 8:
        raise ValueError("two players on one field")
    state.team_bb = [sum(BIT[f] for f in state.pos[4 * t : 4 * t + 4]) for t in (0, 1)]
    state.offense = offense
    state.score = list(score)
    state.cycle = cycle - 1
    if holder is not None:
        state.holder = PLAYER_NAMES.index(holder)
        state.disc = state.pos[state.holder]
    else:
        state.holder, state.disc = -1, parse(disc or "")
    state.marker_only = PLAYER_NAMES.index(marker_only) if marker_only else -1
    state._start_cycle()
    state.surplus = surplus
    if step == "defense":
        state.to_move = 1 - offense
        state.chase = -1
    elif step == "throw":
        state.to_move = 1 - offense
        state._end_step()
    state._legal = None
    state._mask = None
    state._settle()
    return state


def field_action(state: UltimadeState, field: str) -> int:
    """The action by which the player to move names `field` (actions are in the seat's frame)."""
    return from_field(parse(field), state.current_player)


def player_at(state: UltimadeState, field: str) -> str:
    f = parse(field)
    return PLAYER_NAMES[state.pos.index(f)] if f in state.pos else ""
