"""The search agent: finds forced wins, never reads hidden information, and its spec is validated."""

from __future__ import annotations

import pytest

from tests.ultimade.positions import field_action, position
from ultimata.agents import load_agent
from ultimata.agents.mcts import MctsAgent, MctsOptions, parse_mcts_spec
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.game import UltimadeGame
from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame


@pytest.mark.parametrize("options", [
    {"sims": 200},
    {"sims": 60, "guide": "pretrained"},  # the shipped bot's probabilities as the prior
    {"sims": 30, "guide": "pretrained", "rollout": "pretrained", "depth": 10},
])
def test_finds_the_winning_throw_in_ultimade(options):
    """A1 holds the disc; A2 stands free in the attacking endzone, A3 and A4 elsewhere: only the throw
    to A2 wins the game at once (first to 1 point)."""
    game = UltimadeGame.from_config({"points_to_win": 1})
    state = position(game, ["e10", "e16", "a10", "i10"], ["h9", "c10", "g12", "i12"], step="throw")
    legal = state.legal_actions()
    assert len(legal) >= 2, "the puzzle needs a choice"
    agent = MctsAgent("ultimade_v2", MctsOptions(time=30, **options), seed=0)
    assert agent.act(None, state.legal_action_mask(), state) == field_action(state, "e16")


def test_the_pretrained_prior_is_a_distribution_over_the_legal_moves():
    agent = MctsAgent("ultimade_v2", MctsOptions(guide="pretrained"), seed=0)
    state = UltimadeGame.from_config({}).new_initial_state(Rng(2))
    legal = state.legal_actions()
    prior = agent._bot_probabilities(state, legal)
    assert sorted(prior) == legal and abs(sum(prior.values()) - 1) < 1e-9 and min(prior.values()) >= 0


def test_plays_the_round_card_while_ahead_in_the_card_game():
    """Player 0 leads on chips and holds Round: playing it ends the round and wins Quick Play at once;
    anything else hands the turn to three players who may steal or take the lead away."""
    from tests.ultimatum_cards.positions import position

    state = position({0: ["Round", "Take 1", "Block"], 1: ["Steal", "Steal"], 2: ["Take 5", "Steal"],
                      3: ["Steal", "Swap"]}, chips=[12, 10, 10, 8])
    assert len(state.legal_actions()) == 3
    for seed in range(3):
        agent = MctsAgent("ultimatum_cards_v3", MctsOptions(sims=200, time=5), seed=seed)
        assert state.action_to_string(agent.act(None, state.legal_action_mask(), state)) == "play Round"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("mcts:sims=0", "sims"),
        ("mcts:simz=10", "simz"),
        ("mcts:rollout=smart", "rollout"),
        ("mcts:sims", "key=value"),
        ("mcts:time=-1", "time"),
    ],
)
def test_bad_specs_name_the_option_and_list_the_allowed_ones(spec, problem):
    with pytest.raises(ConfigError, match=problem) as err:
        load_agent(spec, "ultimade_v2")
    assert "options: sims, time, rollout, depth, c" in str(err.value)


def test_spec_options_reach_the_agent():
    agent = load_agent("mcts:sims=7,rollout=heuristic,depth=5,c=0.5,time=1", "ultimade_v2", seed=3)
    assert agent.options == MctsOptions(sims=7, rollout="heuristic", depth=5, c=0.5, time=1, guide="pretrained")
    assert parse_mcts_spec("mcts") == MctsOptions()


def test_a_perfect_information_sample_is_a_copy_with_fresh_chance():
    game = UltimadeGame.from_config({})
    state = game.new_initial_state(Rng(5))
    sample = state.sample_consistent(0, Rng(1))
    assert sample.state_dict()["state"] == state.state_dict()["state"]
    assert sample.rng.state_dict() != state.rng.state_dict(), "search must not know the dice to come"


def _cards_midgame(seed: int):
    import random

    from ultimata.envs import game_class

    state = game_class("ultimatum_cards_v3").from_config({}).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    for _ in range(pick.randrange(0, 12)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    return state


@pytest.mark.parametrize("seed", range(6))
def test_card_samples_keep_the_viewers_observation_and_the_deck(seed):
    import numpy as np

    from ultimata.envs.ultimatum_cards.deck import COPIES

    state = _cards_midgame(seed)
    viewer = max(state.current_player, 0)
    seen = state.observation(viewer)
    for draw in range(20):
        sample = state.sample_consistent(viewer, Rng(draw))
        assert np.array_equal(sample.observation(viewer), seen)
        assert sample.hands[viewer] == state.hands[viewer]
        held = [sum(h[k] for h in sample.hands) for k in range(len(COPIES))]
        assert [h + sample.pile.count(k) + sample.discards[k] for k, h in enumerate(held)] == list(COPIES)
        if not sample.is_terminal():
            sample.apply(sample.legal_actions()[0])  # a sample is a playable state


def test_card_samples_can_put_any_unseen_card_in_any_other_hand():
    state = _cards_midgame(1)
    viewer = state.current_player
    unseen_kinds = {k for p in range(state.n) if p != viewer for k in range(17) if state.hands[p][k]} | set(state.pile)
    found = {p: set() for p in range(state.n) if p != viewer}
    for draw in range(400):
        sample = state.sample_consistent(viewer, Rng(draw))
        for p in found:
            found[p] |= {k for k in range(17) if sample.hands[p][k]}
    assert all(kinds == unseen_kinds for kinds in found.values())


def test_mcts_serves_as_a_self_play_opponent():
    import numpy as np

    from ultimata.training.selfplay_env import SelfPlayEnv

    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"mcts:sims=4,depth=5": 1.0}, seed=0)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(500):
        _, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(env.action_masks())))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_a_games_defaults_come_from_the_data_file():
    """The mcts keys of configs/ultimade.yaml and ultimatum_cards.yaml make ULTIMADE search under the shipped
    bot's prior and the card game model its opponents; a spec option overrides a default, and a rule config
    the shipped bot was not trained for
    keeps the built-in one."""
    assert load_agent("mcts", "ultimade_v2").options.guide == "pretrained"
    assert load_agent("mcts:guide=heuristic", "ultimade_v2").options.guide == "heuristic"
    assert load_agent("mcts", "ultimade_v2", {"points_to_win": 5}).options.guide == "auto"
    cards = load_agent("mcts", "ultimatum_cards_v3").options
    assert (cards.opponents, cards.guide) == ("rollout", "none")
    with pytest.raises(CheckpointError, match="rule config"):  # asked for by name, it must load
        load_agent("mcts:guide=pretrained", "ultimade_v2", {"points_to_win": 5})


@pytest.mark.parametrize(("options", "problem"), [
    ({"guide": "smart"}, "configs/ultimade.yaml, mcts: guide"),
    ({"guides": "pretrained"}, "guides"),
    ("pretrained", "invalid"),
])
def test_bad_defaults_are_refused_clearly(options, problem):
    from ultimata.agents.mcts import check_game_defaults

    with pytest.raises(ConfigError, match=problem) as err:
        check_game_defaults(options, "configs/ultimade.yaml, mcts")
    assert "maps options (sims, time" in str(err.value)


@pytest.mark.parametrize(("opponents", "only_mine"), [("rollout", True), ("search", False)])
def test_with_modelled_opponents_the_tree_branches_on_own_moves_only(opponents, only_mine):
    """opponents=rollout: the other seats play by the rollout policy inside the tree, so every move the
    tree selects is the searching seat's; with 'search' (max-n) it selects the other seats' moves too."""
    from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame

    state = UltimatumCardsGame.from_config({}).new_initial_state(Rng(4))
    options = MctsOptions(sims=300, time=30, opponents=opponents, guide="none")
    agent = MctsAgent("ultimatum_cards_v3", options, seed=0)
    movers = []
    select = agent._ucb
    agent._ucb = lambda node, legal, mover: movers.append(mover) or select(node, legal, mover)
    agent.search(state)
    assert movers and (set(movers) == {state.current_player}) is only_mine


def test_the_time_budget_stops_before_a_simulation_would_overrun_it(monkeypatch):
    """A fake clock where every simulation takes 0.03 s: with 0.2 s a decision, six fit (0.18 s) and a
    seventh would end at 0.21 s, so the search stops at six rather than overshooting."""
    import types

    import ultimata.agents.mcts as mcts

    clock = [0.0]
    monkeypatch.setattr(mcts, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    agent = MctsAgent("ultimatum_cards_v3", MctsOptions(sims=1000, time=0.2, guide="none"), seed=0)
    real = agent._simulate

    def timed(*args):
        clock[0] += 0.03
        real(*args)

    monkeypatch.setattr(agent, "_simulate", timed)
    state = UltimatumCardsGame.from_config({}).new_initial_state(Rng(1))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    agent.search(state)
    assert agent.last_simulations == 6 and clock[0] == pytest.approx(0.18)
