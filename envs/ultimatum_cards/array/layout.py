"""The card game's position as tensors: which fields, their shapes, and the conversions both ways.

Every list of the Python state becomes a fixed-size tensor with its length beside it (the pile, the
queue, the proposals, the history), so a batch of positions is one block of memory. `last_event` is the
one field the rules write as words: it always tells the newest history entry, so the array state keeps
the two numbers the entry lacks (`ev_a`, `ev_b`) and `to_states` writes the sentence again.
"""

from __future__ import annotations

import re
from typing import Any

import torch

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.deck import DECK, DRAW, NUM_KINDS, STEAL, SWAP, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import BLOCKED, DISCARDED, ENDED, HISTORY, REJECTED

SCALARS = ("rounds_played", "dealer", "actor", "phase", "card", "p1", "p2", "swap_hands", "accepted")
"""One number per row, named as the Python state names them."""
PILE = len(DECK)


def empty_state(batch: int, n: int, device: torch.device) -> dict[str, torch.Tensor]:
    """All-zero fields of `batch` rows for `n` seats (lists empty, seats unset)."""
    z = {"dtype": torch.int64, "device": device}
    small = {"dtype": torch.int8, "device": device}  # counts of cards (at most 48) and flags: the large fields
    state = {
        "hands": torch.zeros(batch, n, NUM_KINDS, **small),
        "chips": torch.zeros(batch, n, **z),
        "scores": torch.zeros(batch, n, **z),
        "pile": torch.zeros(batch, PILE, **small),
        "pile_len": torch.zeros(batch, **z),
        "discards": torch.zeros(batch, NUM_KINDS, **small),
        "proposals": torch.zeros(batch, n, 2, **z),
        "num_proposals": torch.zeros(batch, **z),
        "queue": torch.full((batch, n), -1, **z),
        "queue_len": torch.zeros(batch, **z),
        "history": torch.zeros(batch, HISTORY, 6, dtype=torch.int16, device=device),
        "history_len": torch.zeros(batch, **z),
        "played": torch.zeros(batch, n, NUM_KINDS, **small),
        "showed": torch.zeros(batch, n, 2, **small),
        "known": torch.zeros(batch, n, n, NUM_KINDS, **small),
        "ev_a": torch.zeros(batch, **z),
        "ev_b": torch.zeros(batch, **z),
        "key": torch.zeros(batch, **z),
        "draws": torch.zeros(batch, **z),
        "decisions": torch.zeros(batch, **z),
    }
    for name in SCALARS:
        state[name] = torch.zeros(batch, **z)
    return state


# -- last_event: the sentence of the newest history entry ------------------------------------------
_SWAP = re.compile(r"plays Swap: swaps (hands|chips) with")
_DRAW = re.compile(r"draws (\d+)$")
_BLOCK = re.compile(r"^player_(\d+) blocks the ")
_ULT = re.compile(r"accepts player_(\d+)'s split, (\d+) to")


def event_numbers(last_event: str) -> tuple[int, int]:
    """(ev_a, ev_b) read back from a sentence: the blocker, the Swap's mode, the Draw's count, or the
    accepted split's proposer and share; (0, 0) where the sentence has none of them."""
    for pattern in (_SWAP, _DRAW, _BLOCK):
        found = pattern.search(last_event)
        if found:
            word = found.group(1)
            return (int(word == "hands") if pattern is _SWAP else int(word)), 0
    found = _ULT.search(last_event)
    if found:
        return int(found.group(1)), int(found.group(2))
    return 0, 0


def event_sentence(entry: list[int], ev_a: int, ev_b: int) -> str:
    """What `state.py` writes to `last_event` for the play `entry` (a history row)."""
    card, me, p1, p2, outcome, moved = entry
    name = deck.NAMES[card]
    if outcome == ENDED:
        return f"player_{me} plays Round: the round ends"
    if outcome == DISCARDED:
        return f"player_{me} discards {name} (nothing to block or counter)"
    if outcome == REJECTED:
        return f"player_{p1} rejects every proposal: nobody gets chips"
    if outcome == BLOCKED:
        return f"player_{ev_a} blocks the {name}"
    if card < 5:
        return f"player_{me} plays {name}: player_{p1} gives {moved} to player_{p2}"
    if card < 10:
        return f"player_{me} plays {name}: takes {moved} from player_{p1}"
    if card == SWAP:
        return f"player_{me} plays Swap: swaps {'hands' if ev_a else 'chips'} with player_{p1}"
    if card == STEAL:
        return f"player_{me} plays Steal: takes all {moved} chips of player_{p1}"
    if card == DRAW:
        return f"player_{me} plays Draw: player_{p1} draws {ev_a}"
    assert card == ULTIMATUM
    return (f"Ultimatum on player_{p2}: player_{p1} accepts player_{ev_a}'s split, "
            f"{ev_b} to player_{p1} and {moved - ev_b} to player_{ev_a}")


# -- conversions ------------------------------------------------------------------------------------
def _padded(rows: list[list[Any]], size: int, fill: Any) -> list[Any]:
    return rows + [fill] * (size - len(rows))


def from_python(states: list[Any], n: int, device: torch.device) -> dict[str, torch.Tensor]:
    """Python states (one per row) as one array state; keys and draw counters 0."""
    fields: dict[str, list[Any]] = {name: [] for name in empty_state(0, n, device)}
    for s in states:
        d = s.state_dict()["state"]
        for name in ("hands", "chips", "scores", "discards", "played", "showed", "known", *SCALARS):
            fields[name].append(d[name])
        fields["pile"].append(_padded(d["pile"], PILE, 0))
        fields["pile_len"].append(len(d["pile"]))
        fields["proposals"].append(_padded([list(p) for p in d["proposals"]], n, [0, 0]))
        fields["num_proposals"].append(len(d["proposals"]))
        fields["queue"].append(_padded(d["queue"], n, -1))
        fields["queue_len"].append(len(d["queue"]))
        fields["history"].append(_padded([list(h) for h in d["history"]], HISTORY, [0] * 6))
        fields["history_len"].append(len(d["history"]))
        ev_a, ev_b = event_numbers(d["last_event"])
        fields["ev_a"].append(ev_a)
        fields["ev_b"].append(ev_b)
        fields["key"].append(0)
        fields["draws"].append(0)
        fields["decisions"].append(s.decisions)
    out = {}
    like = empty_state(1, n, device)
    for name, values in fields.items():
        out[name] = torch.tensor(values, dtype=like[name].dtype, device=device).reshape(
            len(states), *like[name].shape[1:])
    return out


def to_python(game: Any, state: dict[str, torch.Tensor]) -> list[Any]:
    """Each row as a Python state (a fresh generator: see envs.core.array.engine)."""
    cpu = {name: value.cpu().tolist() for name, value in state.items()}
    out = []
    for row in range(len(cpu["phase"])):
        d = {name: cpu[name][row] for name in ("hands", "chips", "scores", "discards", "played", "showed", "known",
                                               *SCALARS)}
        d["swap_hands"] = bool(d["swap_hands"])
        d["pile"] = cpu["pile"][row][: cpu["pile_len"][row]]
        d["proposals"] = cpu["proposals"][row][: cpu["num_proposals"][row]]
        d["queue"] = cpu["queue"][row][: cpu["queue_len"][row]]
        d["history"] = cpu["history"][row][: cpu["history_len"][row]]
        d["last_event"] = (event_sentence(d["history"][-1], cpu["ev_a"][row], cpu["ev_b"][row])
                           if d["history"] else "")
        state = game.new_initial_state(Rng(0))
        state.FIELDS.load(state, d)  # not load_state_dict: see the note below
        state.decisions = cpu["decisions"][row]
        state._mask = None
        out.append(state)
    return out


# Why the fields are loaded without `_check_consistency`: the rows are positions the array rules reached, and
# the check refuses one the Python rules reach too (the first turn of a later round, once its card is
# discarded but not yet logged: consistency.py then reads the previous round's last play as this round's).
