"""`ultimata play`: a person against bots in the terminal, seeing only their own seat."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from ultimata.agents.human import HELP, HumanAgent, HumanQuit
from ultimata.agents.specs import load_agent
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng


def play_session(
    game_name: str, vs: str, seat: int = 0, seed: int = 0, rules: dict[str, Any] | None = None,
    read: Callable[[str], str] = input, console: Console | None = None, save: str | Path | None = None,
) -> list[float] | None:
    """Play one game; returns the final returns, or None if the person quit."""
    console = console or Console(highlight=False)
    game = game_class(game_name).from_config(rules)
    n = game.num_players
    if not 0 <= seat < n:
        raise ConfigError(f"--seat must be 0..{n - 1} for {game_name}")
    config = game.config.model_dump(mode="json")
    human = HumanAgent(read=read, write=console.print)
    agents: list[Any] = [
        human if p == seat else load_agent(vs, game_name, config, seed=seed * 31 + p) for p in range(n)
    ]
    for p, agent in enumerate(agents):
        agent.reset(p, seed * 31 + p)
    state = game.new_initial_state(Rng(seed))
    console.print(f"[bold]{game_name}[/bold] (seed {seed}): you are player_{seat}; the other seats are '{vs}'.")
    console.print(HELP)
    actions: list[int] = []
    try:
        while not state.is_terminal() and state.decisions < game.config.max_decisions:
            p = state.current_player
            if p == seat:
                console.print()
                console.print(state.render_text(seat), markup=False)
            action = int(agents[p].act(state.observation(p), state.legal_action_mask(), state))
            words, event = apply_and_tell(state, action, seat)
            actions.append(action)
            console.print(f"  you: {words}" if p == seat else f"  ({vs}) {words}", markup=False)
            if event:  # what the rules did by themselves: a turn, a die, a payout
                console.print(f"  → {event}", markup=False)
    except HumanQuit:
        console.print("you left the game.")
        return None
    finally:
        if save is not None:  # a game left mid-battle is saved up to its last settled position
            players = [("you" if p == seat else vs) for p in range(n)]
            Replay.of_game(state, seed, actions, players).settled().save(save)
    console.print()
    console.print(state.render_text(seat), markup=False)
    returns = state.returns()
    best = max(returns)
    verdict = "you win!" if returns[seat] == best and returns.count(best) == 1 else (
        "shared win." if returns[seat] == best else "you lose.")
    console.print(f"final returns: {', '.join(f'player_{p} {r:+.2f}' for p, r in enumerate(returns))} — {verdict}")
    return list(returns)
