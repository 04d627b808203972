"""The first weapon choice of a battle is hidden from the other fighter and from everyone else, and
remembered by the one who made it."""

from ultimata.envs.conquest_of_the_world import actions as A

from .positions import c, opening


def test_the_first_weapon_choice_is_hidden_from_every_other_seat():
    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    attacker, defender = s.fighters
    seen = []
    for weapon in range(3):
        t = s.clone()
        t.apply(A.weapon_action(weapon, 1))
        seen.append(t)
    for seat in range(3):
        if seat == attacker:
            assert not (seen[0].observation(seat) == seen[1].observation(seat)).all()
        else:
            assert all((x.observation(seat) == seen[0].observation(seat)).all() for x in seen)
    assert all(x.render_text(defender) == seen[0].render_text(defender) for x in seen)


def test_a_sample_for_search_keeps_what_the_viewer_knows_and_redraws_the_hidden_choice():
    from ultimata.envs.core.rng import Rng

    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    s.apply(A.weapon_action(2, 2))
    defender = s.fighters[1]
    drawn = set()
    for seed in range(30):
        t = s.sample_consistent(defender, Rng(seed))
        assert (t.observation(defender) == s.observation(defender)).all()
        drawn.add(t.pending)
        t.apply(t.legal_actions()[0])
    assert len(drawn) > 3
    assert s.sample_consistent(s.fighters[0], Rng(0)).pending == s.pending


def test_after_the_battle_both_choices_are_seen_by_everyone():
    from ultimata.envs.conquest_of_the_world.observation import OBS_SIZE

    from .positions import fight

    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    fight(s, [0, 0, 99], (2, 2), (0, 1))  # wooded; the attacker's all-out plane beats a steady tank
    assert s.last_battle == [1, 2, 8, 1, 1]
    for seat in range(3):
        last = s.observation(seat)[OBS_SIZE - 31:]
        assert last[(1 - seat) % 3] == 1 and last[6 + (2 - seat) % 3] == 1
        assert last[12 + 8] == 1 and last[21 + 1] == 1 and last[30] == 1 and last.sum() == 5


def test_the_first_weapon_choice_is_narrated_without_its_content_until_the_battle_names_both():
    from ultimata.envs.core.narration import apply_and_tell

    from .positions import fight

    s = opening(["China", "United States", "U.S.S.R."], first=2)
    s.apply(A.ATTACK + c("Brazil"))
    attacker, defender = s.fighters
    choices = [A.weapon_action(w, spend) for w in range(3) for spend in range(3)]
    assert {s.narrate(a) for a in choices} == {f"player_{attacker} chooses a weapon"}
    assert s.action_to_string(A.weapon_action(2, 2)) == "fight with a plane, spending all-out"  # the mover's own
    told = s.clone()
    assert apply_and_tell(told, A.weapon_action(2, 2), defender) == (f"player_{attacker} chooses a weapon", None)
    fight(s, [0, 0, 99], (2, 2))
    assert s.narrate(A.weapon_action(0, 1)) == f"player_{defender} fights with a tank, spending steady"
    s.apply(A.weapon_action(0, 1))
    assert s.events[-1] == (f"player_{attacker} plane (all-out) vs player_{defender} tank (steady) in the woods: "
                            f"player_{attacker} wins")


def test_terminal_play_never_shows_a_bots_first_weapon_choice_before_the_battle():
    from rich.console import Console

    from ultimata.play import play_session

    console = Console(record=True, width=200, highlight=False)
    play_session("conquest_of_the_world_v3", "random", seat=0, seed=4, read=lambda prompt: "1", console=console)
    lines = [line.strip() for line in console.export_text().splitlines() if line.startswith(("  you:", "  (random)"))]
    picks = [i for i, line in enumerate(lines) if line.startswith("(random)") and " fights with " in line]
    assert picks, "battles were fought"
    for i in picks:  # a bot's shown choice is a battle's second: the first, just before it, is hidden or mine
        assert lines[i - 1].endswith("chooses a weapon") or lines[i - 1].startswith("you: fight with"), lines[i - 1]


def test_a_game_left_while_a_bots_first_weapon_choice_waits_is_saved_without_it(tmp_path):
    """Quitting `play --save` at one's own weapon choice stored the bot's hidden first pick (its action
    and the state's `pending`); the replay now ends before it, at the last settled position, and still
    replays to the position it stores."""
    from rich.console import Console

    from ultimata.envs.conquest_of_the_world.phases import WEAPON
    from ultimata.envs.core.replay import Replay
    from ultimata.play import play_session

    console = Console(record=True, width=200, highlight=False)
    shown = [0]

    def read(prompt: str) -> str:
        text = console.export_text(clear=False)
        new, shown[0] = text[shown[0]:], len(text)
        return "quit" if "a first weapon is chosen (hidden)" in new else "1"

    play_session("conquest_of_the_world_v3", "random", seat=0, seed=4, read=read, console=console,
                 save=tmp_path / "left.json")
    printed = console.export_text()
    assert "you left the game" in printed
    replay = Replay.load(tmp_path / "left.json")
    final = replay.final()  # loads, and replays to the stored position
    assert replay.result == "unfinished" and final.state_dict() == replay.final_state
    assert replay.final_state["state"]["pending"] == -1 and not final.hidden_choice_pending()
    made = [line for line in printed.splitlines() if line.startswith(("  you:", "  (random)"))]
    assert made[-1] == f"  (random) player_{final.current_player} chooses a weapon" and final.current_player != 0
    assert final.phase == WEAPON and len(replay.actions) == len(made) - 1, "only the hidden pick is cut"
