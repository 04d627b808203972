"""Set positions for rule tests: chosen pawns on a scenario's map, no power sources, forced dice."""

from __future__ import annotations

from ultimata.envs.core.rng import ScriptedRng
from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.game import UltraWarGame
from ultimata.envs.ultra_war.geometry import field
from ultimata.envs.ultra_war.phases import MAIN
from ultimata.envs.ultra_war.state import UltraWarState
from ultimata.envs.ultra_war.units import Source, Unit

N, NE, E, SE, S, SW, W, NW = range(8)


def position(pawns: list[tuple[str, int, tuple[int, int], int]], scenario: str = "street_clash",
             rolls: tuple[int, ...] = (), **config) -> UltraWarState:
    """pawns: (character, side, (row, col), facing). The state is in player_0's main phase."""
    game = UltraWarGame.from_config({"scenario": scenario, "first_player": "player_0", **config})
    st = game.new_initial_state(ScriptedRng(seed=7))
    slots = [0, 0]
    st.units = []
    for name, side, (r, c), facing in pawns:
        u = Unit(name, side, slots[side])
        slots[side] += 1
        u.pos, u.facing = field(r, c), facing
        st.units.append(u)
    st.sources = []
    st.hands = [[], []]
    st.phase, st.turn, st.round = MAIN, 0, 1
    st.rng = ScriptedRng(list(rolls), seed=3)
    st._mask = None
    return st


def at(st: UltraWarState, r: int, c: int) -> Unit:
    u = st.unit_at(field(r, c))
    assert u is not None
    return u


def force(st: UltraWarState, *rolls: int) -> None:
    st.rng = ScriptedRng(list(rolls), seed=3)


def steps(st: UltraWarState) -> set[tuple[int, int]]:
    """The (row, col) spaces the active character may step to now."""
    return {divmod(A.to_field(a, st.current_player), 12) for a in st.legal_actions() if a < A.ATTACK}


def select(st: UltraWarState, r: int, c: int) -> None:
    st.apply(A.SELECT + at(st, r, c).slot)


def step(st: UltraWarState, r: int, c: int) -> None:
    st.apply(A.STEP + A.to_field(field(r, c), st.current_player))


def legal(st: UltraWarState) -> set[int]:
    """The legal set now (positions are changed by hand between calls: the cached mask is dropped)."""
    st._mask = None
    return set(st.legal_actions())


def crystal(st: UltraWarState, bearer: int, points: int, name: str = "Crystal of the Round", side: int = 0) -> Source:
    """A crystal borne by unit `bearer` (it belongs to the bearer's side: pass it)."""
    s = Source(side, name, points)
    s.bearer = bearer
    st.sources.append(s)
    return s
