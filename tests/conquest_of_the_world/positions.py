"""Build positions by playing the opening with forced draws: homelands in turn order, then in-zone allies."""

from __future__ import annotations

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.conquest_of_the_world.state import ConquestState
from ultimata.envs.core.rng import ScriptedRng

B = board()
TANK, SUB, PLANE = 0, 1, 2
CAUTIOUS, STEADY, ALL_OUT = 0, 1, 2


def c(name: str) -> int:
    return B.index(name)


def new_state(num_players: int = 2, first: int = 0, **config) -> ConquestState:
    game = ConquestGame.from_config({"num_players": num_players, **config})
    return game.new_initial_state(ScriptedRng([first]))


def opening(homes: list[str], allies: list[list[str]] | None = None, first: int = 0, diplomacy: bool = False,
            **config) -> ConquestState:
    """Homelands `homes` chosen by first, first+1, ...; then each chooser's in-zone allies; DONE. Unless
    `diplomacy`, the first round of diplomacy windows is closed with DONE."""
    s = new_state(len(homes), first, **config)
    for name in homes:
        s.apply(A.PICK + c(name))
    for names in allies or [[] for _ in homes]:
        for name in names:
            s.apply(A.PICK + c(name))
        s.apply(A.DONE)
    if not diplomacy:
        close_diplomacy(s)
    return s


def close_diplomacy(s: ConquestState) -> None:
    """Every open diplomacy window passes."""
    while s.phase == P.DIPLOMACY:
        s.apply(A.DONE)


def edited(s: ConquestState) -> ConquestState:
    """After a test edits the position by hand: drop the cached mask and check the position is sound."""
    s._mask = None
    s._check_consistency()
    return s


def ally(s: ConquestState, *players: int) -> None:
    """Make these players one player alliance (rule 18), as if they had agreed to it."""
    for p in players:
        for q in players:
            s.allied[p][q] = p != q
    edited(s)


def hold(s: ConquestState, owner: int, names: list[str], kind: int) -> None:
    """Give `owner` these countries (conquest or ally) with the record that goes with them; a zone it now
    holds whole counts as paid its bonus (rule 7), the chips already spent."""
    _place(s, owner, names, kind)
    edited(s)


def _place(s: ConquestState, owner: int, names: list[str], kind: int) -> None:
    for name in names:
        i = c(name)
        assert s.holder[i] < 0, f"{name} is held"
        s.holder[i], s.kind[i] = owner, kind
        s.record[owner] += B.value[i] * (2 if kind == T.CONQUEST else 1)
    for z, members in enumerate(B.zone_members):
        if all(s.holder[i] == owner for i in members):
            s.zone_paid[owner][z] = True


def fill_board(s: ConquestState, owner: int, kind: int = T.ALLY, leave: tuple[str, ...] = ()) -> None:
    """Give `owner` every unoccupied country but `leave` (with its record); a board filled this way ends the
    play stage as the engine does when the option holder takes the last country (rules 18A, 20)."""
    _place(s, owner, [B.names[i] for i in range(B.size) if s.holder[i] < 0 and B.names[i] not in leave], kind)
    s._end_play_if_filled()
    edited(s)


def counted_to(s: ConquestState, records: list[int]) -> ConquestState:
    """Chips that the count at the end of play (rule 20C, 500 a half space) turns into these records (half
    spaces): the end game's ladder set up without editing a record, which is always the holdings' value."""
    s.chips = [500 * (r - s.record[p]) for p, r in enumerate(records)]
    return edited(s)


def fight(s: ConquestState, rolls: list[int], *choices: tuple[int, int]) -> None:
    """Force the next draws and play weapon choices (weapon, spend) in order."""
    s.rng = ScriptedRng(rolls)
    for weapon, spend in choices:
        s.apply(A.weapon_action(weapon, spend))


WIN_TWO = [99, 0, 99, 99, 0, 99]
"""Two battles on open ground where side 0 hits at once and side 1 misses: side 0 wins the war."""
LOSE_TWO = [99, 99, 0, 99, 99, 0]
"""Two battles on open ground where side 1 hits at once and side 0 misses: side 1 wins the war."""


def attacker_wins(s: ConquestState) -> None:
    """The attacking side wins in two battles (tank vs tank, then submarine vs plane, steady)."""
    fight(s, WIN_TWO, (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (PLANE, STEADY))


def defender_wins(s: ConquestState) -> None:
    fight(s, LOSE_TWO, (TANK, STEADY), (TANK, STEADY), (SUB, STEADY), (TANK, STEADY))
