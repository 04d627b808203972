"""Bots answer one position at a time, so torch runs their small networks on one thread.

torch's default spreads each forward pass over every core. For one observation through a small policy
that buys nothing, and on a busy machine it costs dearly: on the shared 2-core machine (load 18) one
forward pass of the Ultra War bot took 200 ms on two threads and 3.5 ms on one, and `hard` makes one per
node it searches. The server and terminal play call `one_thread_per_forward` once their bots are loaded;
training sets its own thread counts."""

from __future__ import annotations

import sys


def one_thread_per_forward() -> None:
    """One torch thread, if torch is loaded (a bot that uses no network never imports it)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)
