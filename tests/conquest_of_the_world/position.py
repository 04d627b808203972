"""Build positions by playing the opening with forced draws: homelands in turn order, then in-zone allies."""

from __future__ import annotations

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.core.rng import ScriptedRng

B = board()


def c(name: str) -> int:
    return B.index(name)


def new_state(num_players: int = 2, first: int = 0, **config) -> ConquestState:
    game = ConquestGame.from_config({"num_players": num_players, **config})
    return game.new_initial_state(ScriptedRng([first]))


def opening(homes: list[str], allies: list[list[str]] | None = None, first: int = 0, **config) -> ConquestState:
    """Homelands `homes` chosen by first, first+1, ...; then each chooser's in-zone allies; DONE."""
    s = new_state(len(homes), first, **config)
    for name in homes:
        s.apply(A.PICK + c(name))
    for names in allies or [[] for _ in homes]:
        for name in names:
            s.apply(A.PICK + c(name))
        s.apply(A.DONE)
    return s


def fight(s: ConquestState, rolls: list[int], *choices: tuple[int, int]) -> None:
    """Force the next draws and play weapon choices (weapon, spend) in order."""
    s.rng = ScriptedRng(rolls)
    for weapon, spend in choices:
        s.apply(A.weapon_action(weapon, spend))
