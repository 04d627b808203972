"""What one person at the table is told of a move: the mover reads its own words (`action_to_string`),
everyone else the game's third-person narration (`narrate`), and all of them what the rules did by
themselves after it. The web's event log and `ultimata play` both tell moves through `apply_and_tell`,
so the narration-privacy test checks exactly what they show.

What the rules did comes from one of two protocols (`State.last_event_per_move` says which):

- per move (the wargames): the state keeps `move_events`, every sentence its rules logged during the
  latest move, in order, emptied as each move starts and never saved or observed. A game's running log
  (`events`, which its views show) may be capped; this list never is, so nothing a move did is lost
  however long it ran (a blitz of many rolls), and nothing is told twice. A sentence that only repeats
  the words the listener was just told ("player_2 passes the attack option") is left out.
- latest only (the card game, ULTIMADE): the state keeps `last_event`, one sentence that stays until
  something new happens, so it is told only when it was set anew (by identity: the same words again are a
  new event)."""

from __future__ import annotations

import re

from ultimata.envs.core.engine import State

_VOICES = re.compile(r"\[([^\[\]|]*)\|([^\[\]|]*)\]")


def apply_and_tell(state: State, action: int, listener: int | None) -> tuple[str, str | None]:
    """Apply `action` for the current player and return what `listener` (a seat, or None for a
    watcher) is told: the move's words, and what the rules did by themselves after it, when anything
    (its sentences joined by '; '). An illegal action is refused (IllegalActionError, nothing changes)
    before any words are made for it: describing code may assume a legal move."""
    action = state.check_legal(action)
    words = state.action_to_string(action) if state.current_player == listener else state.narrate(action)
    if state.last_event_per_move:
        state.apply(action)
        told = [event for event in state.move_events if event != words]
        return words, "; ".join(told) or None
    before = getattr(state, "last_event", None)
    state.apply(action)
    outcome = getattr(state, "last_event", None)
    # told when set anew, even in the same words (a second block of the same card in a row, issue 54): the
    # rules build each sentence when it happens, so a new one is a new object
    return words, (outcome if outcome and outcome is not before else None)


def two_voices(template: str) -> tuple[str, str]:
    """A move's words for its mover and for the table from one template whose `[mover|table]` pairs hold
    what differs: '[end|ends] [your|its] turn' -> ('end your turn', 'ends its turn'). The table's
    words follow 'player_N ' (the caller adds it)."""
    return _VOICES.sub(r"\1", template), _VOICES.sub(r"\2", template)
