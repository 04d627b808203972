"""No seat is told what it may not see. At every decision of fuzzed games of every registered game, two
moves of the mover that leave another seat's view of the game identical must be told to that seat
identically: the words the web's event log and `ultimata play` show it and the rules' own events after
the move (both come from `apply_and_tell`). A seat's view is all it is shown: its observation, its text
table and its web view (without the event log while a hidden choice waits: the log is under test then).
Two moves that lead to the very same position are exempt: they reveal nothing hidden, whatever their
words ("face N and end" for a pawn already facing north is "end activation"). And one move told in two
games that differ only in what a seat cannot see (other hands, the deck) is told to it the same."""

from __future__ import annotations

import json
import random
from functools import cached_property
from typing import Any

import numpy as np
import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.engine import State
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.rng import Rng
from ultimata.web.views import view_module

DECISIONS = 600
"""Decisions checked per game, over as many random games as it takes (at most 300 from one game)."""
MOVES_COMPARED = 5
"""Per decision, at most this many of the mover's legal moves (drawn at random) are told and compared."""


class _After:
    """One move's result, with what a seat is shown of it made only when its observation matches another's."""

    def __init__(self, name: str, state: State, action: int) -> None:
        self.name, self.action, self.state = name, action, state.clone()
        self.told = apply_and_tell(self.state, action, None)
        self._shown: dict[int, tuple[str, Any]] = {}

    @cached_property
    def position(self) -> str:
        saved = self.state.state_dict()
        del saved["decisions"]
        return json.dumps(saved, sort_keys=True)

    def shown(self, seat: int) -> tuple[str, Any]:
        """The seat's text table and web view (its observation is compared first, by the caller). While a
        hidden choice waits (`hidden_choice_pending`) they are taken without the event log: the log is told
        too, and must not name the choice either."""
        if seat not in self._shown:
            state = self.state
            if state.hidden_choice_pending() and hasattr(state, "events"):
                state = state.clone()
                state.events = []
            self._shown[seat] = (state.render_text(seat), view_module(self.name).view(state, seat))
        return self._shown[seat]


def _leaks(name: str, seed: int) -> tuple[int, list[str]]:
    """Play one random game; at each decision tell a sample of the mover's moves to a watcher (every
    seat but the mover is told the same) and compare what each other seat then sees and is told.
    Returns the decisions checked and the leaks found."""
    state = game_class(name).from_config({}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    leaks = []
    while not state.is_terminal() and state.decisions < DECISIONS // 2:
        mover, legal = state.current_player, state.legal_actions()
        seen: dict[tuple[int, bytes], list[_After]] = {}
        for action in pick.sample(legal, min(MOVES_COMPARED, len(legal))):
            after = _After(name, state, action)
            for seat in range(state.game.num_players):
                if seat == mover:
                    continue
                alike = seen.setdefault((seat, np.ascontiguousarray(after.state.observation(seat)).tobytes()), [])
                for other in alike:
                    if (other.told != after.told and other.shown(seat) == after.shown(seat)
                            and other.position != after.position):
                        leaks.append(f"player_{seat} sees the same after moves {other.action} and {action} of "
                                     f"player_{mover} but is told {other.told!r} / {after.told!r}")
                alike.append(after)
        state.apply(legal[pick.randrange(len(legal))])
    return state.decisions, leaks


@pytest.mark.parametrize("name", list(GAMES))
def test_a_move_is_told_to_another_seat_only_as_far_as_it_may_see(name: str) -> None:
    checked, leaks, seed = 0, [], 0
    while checked < DECISIONS:
        decisions, found = _leaks(name, seed)
        checked, leaks, seed = checked + decisions, leaks + found, seed + 1
    assert not leaks, f"{len(leaks)} moves are told beyond what the seat sees: " + "; ".join(leaks[:3])


HIDDEN_DECISIONS = 250
"""Decisions checked per game by the hidden-part test, over as many random games as it takes."""


def _told_beyond_sight(name: str, seed: int) -> tuple[int, list[str]]:
    """Play one random game; at each decision, for each other seat, redraw what that seat cannot see (other
    hands, the deck's order, a hidden weapon choice: `sample_consistent`, keeping the dice) and tell the
    same move in both games. Where the seat's observation is then the same, it must be told the same. Its
    text and web view are not the measure here: they show the event log under test. Returns the
    decisions checked and the leaks found."""
    state = game_class(name).from_config({}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    leaks = []
    while not state.is_terminal() and state.decisions < HIDDEN_DECISIONS:
        mover, legal = state.current_player, state.legal_actions()
        action = legal[pick.randrange(len(legal))]
        for seat in range(state.game.num_players):
            if seat == mover:
                continue
            real, redrawn = state.clone(), state.sample_consistent(seat, Rng(pick.randrange(2**31)))
            redrawn.rng = Rng.from_state_dict(state.rng.state_dict())
            if not redrawn.legal_action_mask()[action]:
                continue  # the mover's redrawn hand does not hold what it plays
            told = apply_and_tell(real, action, seat), apply_and_tell(redrawn, action, seat)
            if told[0] != told[1] and np.array_equal(real.observation(seat), redrawn.observation(seat)):
                leaks.append(f"player_{seat} sees the same after move {action} of player_{mover} whatever it "
                             f"cannot see, but is told {told[0]!r} / {told[1]!r}")
        state.apply(action)
    return state.decisions, leaks


@pytest.mark.parametrize("name", [name for name in GAMES if not game_class(name).perfect_information])
def test_what_a_seat_cannot_see_never_changes_what_it_is_told(name: str) -> None:
    """The rules' events come with every move (a card drawn, a battle's choices): none may depend on a
    hand, the deck or a hidden choice unless the seat's own view shows the difference too."""
    checked, leaks, seed = 0, [], 0
    while checked < HIDDEN_DECISIONS:
        decisions, found = _told_beyond_sight(name, seed)
        checked, leaks, seed = checked + decisions, leaks + found, seed + 1
    assert not leaks, f"{len(leaks)} moves are told beyond what the seat sees: " + "; ".join(leaks[:3])
