"""Terminal play and replay with the record: every game kept (finished or quit), bots shown by a short name,
`play --help` naming the levels, and `ultimata replay` reading a game of the record or exporting it."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from ultimata.agents.specs import pretrained_path
from ultimata.cli import app as cli
from ultimata.envs.core.replay import Replay
from ultimata.play import play_session
from ultimata.record import Filters, GameRecord

CARDS = "ultimatum_cards_v3"


def quiet() -> Console:
    return Console(file=io.StringIO(), width=200, highlight=False)


def test_play_help_lists_every_level_of_bot() -> None:
    result = CliRunner().invoke(cli, ["play", "--help"], env={"COLUMNS": "200"})
    text = " ".join(result.output.split())
    assert result.exit_code == 0 and all(word in text for word in ("random", "heuristic", "pretrained", "hard"))


def test_a_finished_and_a_quit_terminal_game_are_both_kept(tmp_path) -> None:
    db = tmp_path / "runs" / "ultimata.db"
    returns = play_session(CARDS, "random", seed=3, read=lambda prompt: "1", console=quiet(), record=db)
    answers = iter(["1", "quit"])
    assert play_session(CARDS, "random", seed=4, read=lambda prompt: next(answers), console=quiet(), record=db) is None
    total, games = GameRecord(db).listing(Filters(yours=True))
    assert total == 2
    quit_game, finished = games  # newest first
    assert finished["ending"] == "finished" and finished["source"] == "terminal"
    assert finished["outcome"] == ("win" if returns[0] == max(returns) and returns.count(max(returns)) == 1
                                   else "loss" if returns[0] < max(returns) else "draw")
    assert quit_game["ending"] == "quit" and quit_game["result"] == "unfinished (you quit)"
    assert finished["players"] == ["you", "random", "random", "random"] and finished["levels"][0] is None


def test_a_checkpoint_bot_is_named_by_its_file_not_its_path() -> None:
    console = Console(record=True, width=300, highlight=False)
    path = str(pretrained_path(CARDS))
    answers = iter(["1"] * 3 + ["quit"])
    play_session(CARDS, path, seed=3, read=lambda prompt: next(answers), console=console)
    text = console.export_text()
    bot_lines = [line for line in text.splitlines() if line.strip().startswith("(")]
    assert bot_lines and all(line.strip().startswith("(pretrained/ultimatum_cards.zip) ") for line in bot_lines)
    assert path not in text


def test_replay_reads_a_game_of_the_record_by_name_and_exports_it(tmp_path) -> None:
    db = tmp_path / "ultimata.db"
    play_session(CARDS, "random", seed=3, read=lambda prompt: "1", console=quiet(), record=db)
    [game] = GameRecord(db).listing(Filters(yours=True))[1]
    shown = CliRunner().invoke(cli, ["replay", game["name"], "--record", str(db), "--no-pause"])
    assert shown.exit_code == 0 and "final returns" in shown.output, shown.output
    out = tmp_path / "shared.json"
    exported = CliRunner().invoke(cli, ["replay", game["name"], "--record", str(db), "--export", str(out)])
    assert exported.exit_code == 0 and Replay.load(out).final().is_terminal()
    missing = CliRunner().invoke(cli, ["replay", "nothing.json", "--record", str(db), "--no-pause"])
    assert missing.exit_code == 2 and "no game of that name in the record" in " ".join(missing.output.split())


def test_bots_answer_on_one_torch_thread_in_the_browser_and_the_terminal(tmp_path) -> None:
    """A forward pass for one position gains nothing from more threads and, on a busy machine, waits for
    them: the web's bots and terminal play run torch on one thread (ultimata/inference.py)."""
    import torch

    from ultimata.web.opponents import Opponents

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        Opponents(None).load("pretrained", CARDS, {})
        assert torch.get_num_threads() == 1
        torch.set_num_threads(2)
        answers = iter(["quit"])
        play_session(CARDS, "pretrained", seed=3, read=lambda prompt: next(answers), console=quiet())
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
