"""The card game's phases (whose decision it is and what kind) and what becomes of a play. Names and numbers
only, importing nothing, so the rules, the loader's checks, the observation (its phase one-hot), the text, the
web view and the scripted bot all read them from this one place."""

PLAY, GIVE_FROM, GIVE_TO, CHOOSE_PLAYER, SWAP_MODE, RESPONDER, TARGET, OFFER, COUNTERS, RESPOND, BLOCKS, OVER = (
    range(12)
)
PHASES = ("play a card", "choose who gives", "choose who receives", "choose a player", "swap chips or hands",
          "choose the responder", "choose the target", "offer the responder a share", "counter or pass",
          "accept a proposal or reject", "block or pass", "game over")
"""Each phase's name, by its number."""

RESOLVED, BLOCKED, REJECTED, DISCARDED, ENDED = range(5)
OUTCOMES = ("resolved", "blocked", "rejected", "discarded", "ended the round")
"""What became of a play (a history entry's outcome), by number."""
HISTORY = 8
"""Plays remembered in the observation (a person at the table remembers the last few)."""
