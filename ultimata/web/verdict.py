"""Who won a game, in the words the page shows after "Game over: ", and why where the server knows: the
game's own reason (its view's `end_reason`, written by each game), a resignation, or a game left unfinished."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ultimata.record.outcome import UNFINISHED, short_name, winners_of


def seat_words(seat: int, players: Sequence[str], human: int | None) -> str:
    if seat == human:
        return "you"
    who = players[seat] if seat < len(players) else ""
    return f"player_{seat} ({short_name(who)})" if who and who != "human" else f"player_{seat}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def verdict(players: Sequence[str], human: int | None, returns: Sequence[float] | None, ending: str | None,
            view: dict[str, Any] | None = None) -> dict[str, Any]:
    """{"winners": [seats], "text": "you lose: player_2 (hard) won.", "why": reason or None, "scores": ...}.
    `ending` is 'resigned', 'finished' (or None: the rules ended it), or an unfinished ending."""
    why = (view or {}).get("end_reason") or None
    scores = None if returns is None else ", ".join(
        f"{seat_words(s, players, human)} {r:+.2f}" for s, r in enumerate(returns))
    if ending == "resigned" and human is not None:
        winners = [s for s in range(len(players)) if s != human]
        text = f"you resigned: {_and([seat_words(s, players, human) for s in winners])} won."
        return {"winners": winners, "text": text, "why": "you resigned", "scores": None}
    if returns is None:
        return {"winners": [], "text": f"unfinished: {UNFINISHED.get(ending or '', 'no result')}.", "why": why,
                "scores": None}
    winners = list(winners_of(returns))
    names = [seat_words(s, players, human) for s in winners]
    if len(winners) == len(returns):
        text = "a draw: every seat scored the same."
    elif human is None:
        text = f"{_and(names)} won."
    elif human in winners:
        others = [n for s, n in zip(winners, names) if s != human]
        text = "you win!" if not others else f"you share the win with {_and(others)}."
    else:
        text = f"you lose: {_and(names)} won."
    return {"winners": winners, "text": text, "why": why, "scores": scores}
