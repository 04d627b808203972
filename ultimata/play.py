"""`ultimata play`: a person against bots in the terminal, seeing only their own seat.

With a record (`--record`, runs/ultimata.db by default) the game is kept there from its first move, as the
browser's games are: finished, quit, or cut at the decision cap; a game killed with the process is found
and recorded as interrupted the next time the record is opened."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ultimata.agents.explain import explain as explain_move
from ultimata.agents.explain import hint as hint_for
from ultimata.agents.human import HELP, HumanAgent, HumanQuit
from ultimata.agents.specs import load_agent
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng
from ultimata.inference import one_thread_per_forward
from ultimata.record.outcome import short_name


def level_of(vs: str, game_name: str) -> str | None:
    """The difficulty level (configs/<game>.yaml, difficulty) whose bot `vs` is, if any."""
    from ultimata.agents.base import game_base_name
    from ultimata.web.difficulty import load_difficulty

    levels = load_difficulty()[game_base_name(game_name)].as_list()
    return next((lv["level"] for lv in levels if lv["agent"] == vs), None)


def play_session(
    game_name: str, vs: str, seat: int = 0, seed: int = 0, rules: dict[str, Any] | None = None,
    read: Callable[[str], str] = input, console: Console | None = None, save: str | Path | None = None,
    record: str | Path | None = None, explain: bool = False, hint: str | None = None,
) -> list[float] | None:
    """Play one game; returns the final returns, or None if the person quit. `record`: the game record's file
    to keep the game in (None: not kept). `explain`: each bot move is followed by why (agents/explain.py);
    `hint`: the bot spec the 'hint' command asks (default `vs`)."""
    console = console or Console(highlight=False)
    game = game_class(game_name).from_config(rules)
    n = game.num_players
    if not 0 <= seat < n:
        raise ConfigError(f"--seat must be 0..{n - 1} for {game_name}")
    config = game.config.model_dump(mode="json")
    advisers: list[Any] = []  # the hint's bot, loaded when first asked

    def advise(position: Any) -> str:
        if not advisers:
            advisers.append(load_agent(hint or vs, game_name, config, seed=seed * 31 + n))
        return _hint_words(advisers[0], position, seed)

    human = HumanAgent(read=read, write=console.print, hint=advise)
    state = game.new_initial_state(Rng(seed))
    bot = short_name(vs)
    # the table first, then the bots (a network or a search can take seconds to load)
    console.print(f"[bold]{game_name}[/bold] (seed {seed}): you are player_{seat}; "
                  f"the other seats are '{escape(bot)}'.")
    console.print(HELP)
    console.print()
    console.print(state.render_text(seat), markup=False)
    shown = True  # the table on screen is the current one
    with console.status(f"loading the bots ('{escape(bot)}')..."):
        agents: list[Any] = [
            human if p == seat else load_agent(vs, game_name, config, seed=seed * 31 + p) for p in range(n)
        ]
    for p, agent in enumerate(agents):
        agent.reset(p, seed * 31 + p)
    one_thread_per_forward()  # a bot answers one position at a time (ultimata/inference.py)
    players = [("you" if p == seat else vs) for p in range(n)]
    kept = _Kept(record, game_name, config, seed, players, seat)
    actions: list[int] = []
    ending = "interrupted"  # until the loop says otherwise: an error in a bot stops the game here
    try:
        while not state.is_terminal() and state.decisions < game.config.max_decisions:
            p = state.current_player
            if p == seat and not shown:
                console.print()
                console.print(state.render_text(seat), markup=False)
            shown = False
            why = None
            if explain and p != seat:
                told = explain_move(agents[p], state.observation(p), state.legal_action_mask(), state)
                action, why = told.action, told.words(state.action_to_string, game.perfect_information)
            else:
                action = int(agents[p].act(state.observation(p), state.legal_action_mask(), state))
            words, event = apply_and_tell(state, action, seat)
            actions.append(action)
            kept.move(len(actions), action)
            console.print(f"  you: {words}" if p == seat else f"  ({bot}) {words}", markup=False)
            if why:
                console.print(f"    why: {why}", markup=False)
            if event:  # what the rules did by themselves: a turn, a die, a payout
                console.print(f"  → {event}", markup=False)
        ending = "finished" if state.is_terminal() else "cut"
    except (HumanQuit, KeyboardInterrupt) as stop:
        ending = "quit"
        if isinstance(stop, KeyboardInterrupt):
            raise
        console.print("you left the game.")
        return None
    finally:  # a game left mid-battle is kept up to its last settled position
        replay = Replay.of_game(state, seed, actions, players)
        replay = replay if state.is_terminal() else replay.settled()
        kept.end(replay, ending, console)
        if save is not None:
            replay.save(save)
    console.print()
    console.print(state.render_text(seat), markup=False)
    returns = state.returns()
    best = max(returns)
    verdict = "you win!" if returns[seat] == best and returns.count(best) == 1 else (
        "shared win." if returns[seat] == best else "you lose.")
    console.print(f"final returns: {', '.join(f'player_{p} {r:+.2f}' for p, r in enumerate(returns))} — {verdict}")
    return list(returns)


def _hint_words(adviser: Any, state: Any, seed: int) -> str:
    """The adviser's move for the seat to move and why, from that seat's view (the alternatives too: they
    are the seat's own moves)."""
    return hint_for(adviser, state, seed * 7 + state.decisions).words(state.action_to_string)


class _Kept:
    """The game in the record, if there is one: a record that refuses a write costs the record, never the game."""

    def __init__(self, path: str | Path | None, game_name: str, config: dict[str, Any], seed: int,
                 players: list[str], seat: int) -> None:
        self.record, self.game_id = None, None
        if path is None:
            return
        from ultimata.record import GameRecord

        self.record = GameRecord(path)
        levels = [None if p == seat else level_of(who, game_name) for p, who in enumerate(players)]
        self.game_id = self.record.start(game_name, config, seed, players, levels, seat, "terminal")

    def move(self, n: int, action: int) -> None:
        if self.record is not None:
            self.record.move(self.game_id, n, action)

    def end(self, replay: Replay, ending: str, console: Console) -> None:
        if self.record is None:
            return
        name = self.record.finish(self.game_id, replay, ending)
        self.record.close()
        console.print(f"kept in your record as {name} (ultimata replay {name})", markup=False)
