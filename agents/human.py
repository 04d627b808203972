"""A person at the terminal: picks from the legal moves by number or by name.

Names are the engine's own `action_to_string`, so every game gets a usable prompt for free; a unique
prefix or word fragment is enough ("take 3", "steal", "pass").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State

HELP = (
    "Type the number of a move, or its name (any unique part of it is enough, e.g. 'take 3').\n"
    "Other commands: 'moves' lists the legal moves again, 'board' shows the table, 'hint' asks a bot what it\n"
    "would play here and why (from your seat's view only), 'help' this text, 'quit' leaves the game."
)


class HumanQuit(Exception):
    """The person typed 'quit' or closed standard input."""


class HumanAgent:
    spec = "human"

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 hint: Callable[[State], str] | None = None) -> None:
        self.read, self.write = read, write
        self.hint = hint
        """What a bot would play in this seat, and why (agents/explain.py's hint, in words)."""
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: State | None = None) -> int:
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        names = [state.action_to_string(a) if state is not None else f"action {a}" for a in legal]
        self._list(names)
        while True:
            try:
                line = self.read("your move> ").strip()
            except EOFError:
                raise HumanQuit("standard input closed") from None
            if not line:
                continue
            choice = self.parse(line, names)
            if isinstance(choice, int):
                return legal[choice]
            if choice == "quit":
                raise HumanQuit("quit")
            if choice == "help":
                self.write(HELP)
            elif choice == "moves":
                self._list(names)
            elif choice == "hint":
                self.write(f"hint: {self.hint(state)}" if self.hint is not None and state is not None
                           else "no hint here: the game passed no table to read")
            elif choice == "board":
                self.write(state.render_text(self.seat) if state is not None else "(no table to show)")
            else:
                self.write(choice)

    def _list(self, names: list[str]) -> None:
        items = [f"[{i + 1}] {name}" for i, name in enumerate(names)]
        line = "your moves: " + "   ".join(items)
        # a long list goes one move per line, so no move is ever wrapped in two
        self.write(line if len(line) <= 78 else "your moves:\n" + "\n".join(f"  {item}" for item in items))

    @staticmethod
    def parse(line: str, names: list[str]) -> int | str:
        """Index into `names`, a command word, or an error message to show."""
        key = line.lower()
        if key in ("quit", "exit", "q"):
            return "quit"
        if key in ("help", "h", "?"):
            return "help"
        if key in ("moves", "m", "ls"):
            return "moves"
        if key in ("board", "b", "table"):
            return "board"
        if key == "hint":
            return "hint"
        if key.isdigit():
            i = int(key) - 1
            return i if 0 <= i < len(names) else f"no move {key}; choose 1..{len(names)}"
        lowered = [n.lower() for n in names]
        if key in lowered:
            return lowered.index(key)
        hits = [i for i, n in enumerate(lowered) if key in n]
        if len(hits) > 1:  # '6 to player_3' means 6, not 16: prefer hits that start at a word
            starts = [i for i in hits if re.search(rf"(?<![\w]){re.escape(key)}", lowered[i])]
            hits = starts or hits
        if len(hits) == 1:
            return hits[0]
        if hits:
            return f"'{line}' matches several moves: " + ", ".join(names[i] for i in hits) + "; be more precise"
        return f"'{line}' is not a legal move now; type 'moves' to list them or 'help'"
