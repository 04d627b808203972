"""What one person at the table is told of a move: the mover reads its own words (`action_to_string`),
everyone else the game's third-person narration (`narrate`), and all of them what the rules did by
themselves after it (a state's `last_event`, where the game keeps one). The web's event log and
`ultimata play` both tell moves through `apply_and_tell`, so the narration-privacy test checks exactly
what they show."""

from __future__ import annotations

from ultimata.envs.core.engine import State


def apply_and_tell(state: State, action: int, listener: int | None) -> tuple[str, str | None]:
    """Apply `action` for the current player and return what `listener` (a seat, or None for a
    watcher) is told: the move's words, and the rules' own event after it when there is a new one."""
    words = state.action_to_string(action) if state.current_player == listener else state.narrate(action)
    before = getattr(state, "last_event", None)
    state.apply(action)
    outcome = getattr(state, "last_event", None)
    if state.last_event_per_move:
        return words, outcome or None
    return words, (outcome if outcome and outcome != before else None)
