"""The flat action layout, stable across versions of v0:

    [0, 162)   a field, in the ACTING seat's frame (row 1 = the acting team's own end, see board.FLIP).
               What the field means depends on the phase:
                 place      put the next player of your team there (set-up)
                 pull       pull the disc there
                 select     the player of yours standing there runs next
                 run        the selected runner's destination
                 throw      throw to the team-mate standing there
                 monster    roll the Monster-Defense die with the marker standing there
    162        DONE      end your running step; everybody who has not run stays
    163        NO_ROLL   decline the Monster-Defense roll

Fields rather than player numbers keep every decision spatial (the four players of a team are
interchangeable) and seat-relative actions let one policy play either end.
"""

from __future__ import annotations

from ultimata.envs.ultimade.board import FIELDS, FLIP

DONE = FIELDS
NO_ROLL = FIELDS + 1
NUM_ACTIONS = FIELDS + 2


def to_field(action: int, seat: int) -> int:
    """The absolute field of a field action taken by `seat`."""
    return FLIP[action] if seat == 1 else action


def from_field(field: int, seat: int) -> int:
    """The action index by which `seat` names an absolute field."""
    return FLIP[field] if seat == 1 else field
