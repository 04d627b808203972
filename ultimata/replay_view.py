"""`ultimata replay`: step through a saved game, one decision at a time: a replay file, or a game of your
record by its name; or export a game of the record as a file to share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ultimata.envs.core.errors import ReplayError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.replay import Replay


def find_replay(name: str, record: str | Path | None) -> Replay:
    """A replay file at `name`, else the game of that name in the record (which is never created here).
    Either is checked field by field as it is read."""
    path = Path(name)
    if path.exists() or record is None or not Path(record).is_file():
        return Replay.load(path)
    from ultimata.record import GameRecord

    games = GameRecord(record)
    try:
        return games.replay(name)
    except KeyError:
        raise ReplayError(f"no replay file {path.name} here, and no game of that name in the record "
                          f"{Path(record).name}") from None
    finally:
        games.close()


def export_replay(replay: Replay, out: str | Path) -> None:
    """Write `replay` as a file to share, after checking every move and its end as a reader will."""
    replay.final()
    replay.save(out)


def show_replay(
    replay: Replay | str | Path, viewer: int | None = None, pause: bool = True, console: Console | None = None,
    read: Callable[[str], str] = input,
) -> None:
    """Print each position and the move made from it; with `pause`, wait for Enter between moves. The file
    is checked as the web checks it before anything is shown: its fields on load, then every move and the
    stored end by replaying it once (`Replay.final`). Names are printed as text, never as Rich markup."""
    console = console or Console(highlight=False)
    replay = replay if isinstance(replay, Replay) else Replay.load(replay)
    seats = game_class(replay.game).from_config(replay.config).num_players
    if viewer is not None and not 0 <= viewer < seats:
        raise ReplayError(f"--viewer must be a seat 0..{seats - 1} of this {seats}-player game")
    replay.final()
    players = ", ".join(f"player_{i} {who}" for i, who in enumerate(replay.players)) or "(not recorded)"
    console.print(Text(replay.game, style="bold") + f" v{replay.version}, seed {replay.seed}, "
                  f"{len(replay.actions)} moves")
    console.print(f"players: {players}", markup=False)
    if pause:
        console.print("Enter: next move, 'a': play to the end, 'q': quit")
    state = None
    for step, (state, action) in enumerate(replay.states()):
        if action is None:
            break
        console.print()
        console.print(state.render_text(viewer), markup=False)
        console.print(f"#{step + 1} {state.narrate(action)}", markup=False)
        if pause:
            try:
                key = read("").strip().lower()
            except EOFError:
                key = "a"
            if key == "q":
                return
            if key == "a":
                pause = False
    if state is not None:
        console.print()
        console.print(state.render_text(viewer), markup=False)
        returns = state.returns()
        console.print("final returns: " + ", ".join(f"player_{p} {r:+.2f}" for p, r in enumerate(returns)))
