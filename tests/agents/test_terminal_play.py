"""Terminal play: other seats' moves in the third person, and the rules' own events shown."""

from __future__ import annotations

import re

from rich.console import Console

from ultimata.play import play_session


def test_bots_are_narrated_in_the_third_person_and_automatic_events_are_printed():
    console = Console(record=True, width=200, highlight=False)
    returns = play_session("ultimatum_cards_v3", "random", seat=0, seed=3, read=lambda prompt: "1", console=console)
    text = console.export_text()
    assert returns is not None
    others = [line for line in text.splitlines() if line.strip().startswith("(random) player_")]
    assert others, "bot moves are shown"
    assert not any(re.search(r"\byou\b", line) for line in others), "a bot's move never says 'you'"
    assert any(line.strip().startswith("→") for line in text.splitlines()), "the rules' outcomes are printed"


def test_ultimade_turns_made_by_the_rules_are_printed():
    console = Console(record=True, width=200, highlight=False)
    play_session("ultimade_v2", "random", seat=0, seed=1, read=lambda prompt: "1", console=console,
                 rules={"points_to_win": 1, "endzone_depth": 8})
    text = console.export_text()
    assert re.search(r"→ .*(turn|Monster-Defense|point)", text), "turns, die rolls and points reach the player"


def test_explain_says_why_each_bot_moved_and_hint_answers_from_your_seat():
    console = Console(record=True, width=300, highlight=False)
    answers = iter(["hint"])
    play_session("ultimatum_cards_v3", "pretrained", seat=0, seed=3, read=lambda prompt: next(answers, "1"),
                 console=console, explain=True, hint="heuristic")
    lines = console.export_text().splitlines()
    bot_moves = [i for i, line in enumerate(lines) if line.strip().startswith("(pretrained) player_")]
    assert bot_moves and all(lines[i + 1].strip().startswith("why: ") for i in bot_moves), "every bot move says why"
    whys = [lines[i + 1] for i in bot_moves]
    assert all("probability under its policy" in w for w in whys)
    assert all("not named" in w or "no other move" in w for w in whys), "a hidden hand's other moves stay unnamed"
    assert any(line.startswith("hint: ") and "a scripted rule" in line for line in lines)


def test_the_table_shows_before_the_bots_load(monkeypatch):
    import ultimata.play as play

    console = Console(record=True, width=200, highlight=False)
    seen_at_load: list[str] = []
    real = play.load_agent

    def load(*args, **kwargs):
        seen_at_load.append(console.export_text(clear=False))
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "load_agent", load)
    play_session("ultimatum_cards_v3", "random", seat=0, seed=3, read=lambda prompt: "quit", console=console)
    assert seen_at_load and all("your hand (player_0)" in text for text in seen_at_load)
