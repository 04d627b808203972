"""One test per rule of the Ultimatum card game (seed 001), named after the rule.

Gap choices (ours, flagged in docs/games/ultimatum_cards.md) are tested too, with their config keys.
"""

import numpy as np
import pytest

from ultimata.envs import IllegalActionError, game_class
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import ScriptedRng
from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.phases import OVER, PLAY, RESOLVED, RESPOND

from .positions import do, legal_names, position


def new_game(decks=(), rolls=(0,), **config):
    game = game_class("ultimatum_cards_v2").from_config(config)
    return game.new_initial_state(ScriptedRng(rolls=rolls, decks=decks))


# -- the cards -------------------------------------------------------------------------------------


def test_deck_holds_the_books_48_cards() -> None:
    counts = {name: deck.DECK.count(kind) for kind, name in enumerate(deck.NAMES)}
    assert len(deck.DECK) == 48
    assert all(counts[f"Give {v}"] == 1 and counts[f"Take {v}"] == 1 for v in range(1, 6))
    assert counts == counts | {"Swap": 4, "Steal": 4, "Block": 8, "Ultimatum": 8, "Counter": 8, "Draw": 4, "Round": 2}


# -- game play: dealing, turn order ----------------------------------------------------------------


def test_each_player_is_dealt_ten_cards_and_ten_chips_and_left_of_dealer_starts() -> None:
    stacked = list(reversed(deck.DECK))  # the deal pops from the end: DECK[0], DECK[1], ...
    state = new_game(decks=[stacked], rolls=[2])  # dealer is player_2
    assert state.dealer == 2 and state.current_player == 3
    assert [sum(h) for h in state.hands] == [10] * 4
    assert state.chips == [10] * 4 and len(state.pile) == 8
    # one card at a time from the left of the dealer: player_3 gets DECK[0], player_0 DECK[1], ...
    for k in range(1, 5):
        seat = (2 + k) % 4
        expected = [0] * deck.NUM_KINDS
        for kind in deck.DECK[k - 1 : 40 : 4]:
            expected[kind] += 1
        assert state.hands[seat] == expected
    assert sorted(state.pile) == sorted(deck.DECK[40:])


@pytest.mark.parametrize("players, hand", [(3, 10), (4, 10), (5, 8), (6, 6)])
def test_hands_for_three_to_six_players_keep_a_draw_pile(players: int, hand: int) -> None:
    state = new_game(num_players=players)
    assert [sum(h) for h in state.hands] == [hand] * players
    assert len(state.pile) == 48 - hand * players


def test_play_proceeds_to_the_left() -> None:
    state = position({0: ["Block", "Take 1"], 1: ["Block", "Draw"]}, actor=0)
    do(state, "play Block")
    assert state.current_player == 1 and state.phase == PLAY


def test_a_player_must_play_a_card_from_their_hand() -> None:
    state = position({0: ["Take 2", "Round"]})
    assert legal_names(state) == ["play Take 2", "play Round"]


# -- the cards' actions ----------------------------------------------------------------------------


def test_give_directs_another_player_to_give_to_a_third_player() -> None:
    state = position({0: ["Give 3", "Draw"]}, chips=[10, 10, 10, 10])
    do(state, "play Give 3", "choose player_1")
    assert "choose yourself" not in legal_names(state) and "choose player_1" not in legal_names(state)
    do(state, "choose player_2")
    assert state.chips == [10, 7, 13, 10]


def test_give_to_self_is_a_config_choice() -> None:
    state = position({0: ["Give 3", "Draw"]}, give_to_self=True)
    do(state, "play Give 3", "choose player_1", "choose yourself")
    assert state.chips == [13, 7, 10, 10]


def test_give_and_take_cannot_be_blocked() -> None:
    state = position({0: ["Give 2", "Take 4", "Draw"], 1: ["Block", "Block"], 2: ["Block"]})
    do(state, "play Give 2", "choose player_1", "choose player_2")
    assert state.phase == PLAY and state.current_player == 1  # no block window
    state = position({0: ["Take 4", "Draw"], 1: ["Block", "Block"]})
    do(state, "play Take 4", "choose player_1")
    assert state.chips == [14, 6, 10, 10] and state.phase == PLAY


def test_take_takes_the_named_chips_from_any_other_player() -> None:
    state = position({0: ["Take 5", "Draw"]})
    do(state, "play Take 5", "choose player_3")
    assert state.chips == [15, 10, 10, 5]


def test_a_card_naming_more_chips_than_held_moves_what_there_is() -> None:
    state = position({0: ["Take 5", "Give 4", "Draw"]}, chips=[10, 2, 10, 1])
    do(state, "play Take 5", "choose player_1")
    assert state.chips == [12, 0, 10, 1]


def test_swap_chips_with_any_other_player() -> None:
    state = position({0: ["Swap", "Draw"]}, chips=[3, 10, 17, 10])
    do(state, "play Swap", "choose player_2", "swap chips", "pass")  # the target, asked, holds no Block
    assert state.chips == [17, 10, 3, 10]


def test_swap_hands_with_any_other_player() -> None:
    state = position({0: ["Swap", "Draw"], 2: ["Take 1", "Take 2", "Round"]})
    do(state, "play Swap", "choose player_2", "swap hands", "pass")
    assert state.hands[0][deck.kind_from_name("Take 2")] == 1 and sum(state.hands[0]) == 3
    assert sum(state.hands[2]) == 1 and state.hands[2][deck.DRAW] == 1


def test_swap_may_be_blocked_by_its_target() -> None:
    state = position({0: ["Swap", "Draw"], 2: ["Block", "Draw"]}, chips=[3, 10, 17, 10])
    do(state, "play Swap", "choose player_2", "swap chips")
    assert state.current_player == 2 and legal_names(state) == ["block", "pass"]
    do(state, "block")
    assert state.chips == [3, 10, 17, 10] and state.discards[deck.BLOCK] == 1
    assert state.current_player == 1


def test_steal_takes_all_chips_of_another_player() -> None:
    state = position({0: ["Steal", "Draw"]}, chips=[10, 10, 10, 14])
    do(state, "play Steal", "choose player_3", "pass")
    assert state.chips == [24, 10, 10, 0]


def test_steal_may_be_blocked_and_a_pass_lets_it_through() -> None:
    state = position({0: ["Steal", "Draw"], 3: ["Block", "Draw"]})
    do(state, "play Steal", "choose player_3", "pass")
    assert state.chips == [20, 10, 10, 0]


def test_only_the_target_blocks_by_default() -> None:
    state = position({0: ["Steal", "Draw"], 1: ["Block", "Draw"], 3: ["Draw", "Draw"]})
    do(state, "play Steal", "choose player_3")
    assert state.current_player == 3 and legal_names(state) == ["pass"]  # the target is asked, Block or not
    do(state, "pass")
    assert state.chips == [20, 10, 10, 0]  # player_1's Block was never asked for


def test_blockers_any_asks_every_holder_in_turn() -> None:
    state = position({0: ["Steal", "Draw"], 1: ["Block", "Draw"], 2: ["Block", "Draw"]}, blockers="any")
    do(state, "play Steal", "choose player_3")
    assert state.current_player == 1
    do(state, "pass")
    assert state.current_player == 2
    do(state, "block")
    assert state.chips == [10] * 4


@pytest.mark.parametrize("card", ["Block", "Counter"])
def test_block_or_counter_without_a_challenge_is_a_discard(card: str) -> None:
    state = position({0: [card, "Draw"]})
    do(state, f"play {card}")
    assert state.chips == [10] * 4 and state.discards[deck.kind_from_name(card)] == 1
    assert state.current_player == 1


def test_draw_directs_any_player_including_yourself_to_draw_two() -> None:
    state = position({0: ["Draw", "Round"]}, pile=["Take 1", "Steal", "Swap"])
    do(state, "play Draw")
    assert "choose yourself" in legal_names(state)
    do(state, "choose yourself")
    assert state.hands[0][deck.SWAP] == 1 and state.hands[0][deck.STEAL] == 1
    assert state.pile == [deck.kind_from_name("Take 1")]


def test_draw_from_a_short_pile_draws_what_is_left() -> None:
    state = position({0: ["Draw", "Round"]}, pile=["Steal"])
    do(state, "play Draw", "choose player_2")
    assert sum(state.hands[2]) == 2 and state.pile == []


def test_round_card_ends_the_round_at_once() -> None:
    state = position({0: ["Round", "Take 5"]}, chips=[12, 8, 10, 10])
    do(state, "play Round")
    assert state.phase == OVER and state.scores == [12, 8, 10, 10]


def test_round_may_be_the_very_first_play_of_a_round_and_then_everyone_ties() -> None:
    """Book: "Beginning to the left of the dealer, the player must play a card and perform the action",
    and Round "When played, immediately ends the round": no card is barred from the first play."""
    order = list(deck.DECK)
    order.insert(0, order.pop(order.index(deck.kind_from_name("Round"))))  # dealt first: to the dealer's left
    state = new_game(decks=[list(reversed(order))], rolls=[0])
    assert state.decisions == 0 and state.current_player == 1 and "play Round" in legal_names(state)
    do(state, "play Round")
    assert state.phase == OVER and state.scores == [10] * 4 and state.returns() == [0.0] * 4


def test_round_ends_when_a_player_has_played_all_their_cards() -> None:
    state = position({0: ["Take 2"], 1: ["Round", "Draw"]})
    do(state, "play Take 2", "choose player_1")
    assert state.phase == OVER and state.scores == [12, 8, 10, 10]


@pytest.mark.parametrize("ends", [False, True])
def test_a_last_card_draw_on_yourself_refills_the_hand_unless_the_last_card_ends_the_round(ends) -> None:
    """Book: 'until the first player has played all cards in their hand'. Ours by default: a hand refilled
    by its own last card Draw has cards not yet played, so the round goes on; `last_card_ends_round: true`
    reads the sentence as the moment the last card is played."""
    state = position({0: ["Draw"]}, pile=["Take 1", "Steal"], last_card_ends_round=ends)
    do(state, "play Draw", "choose yourself")
    assert sum(state.hands[0]) == 2, "the Draw is carried out either way"
    if ends:
        assert state.phase == OVER and state.history[-1][4] == RESOLVED
    else:
        assert state.phase == PLAY and state.current_player == 1
    state = position({0: ["Draw"]}, pile=["Take 1", "Steal"], last_card_ends_round=ends)
    do(state, "play Draw", "choose player_2")
    assert state.phase == OVER, "with nothing drawn back, the empty hand ends the round under both readings"


def test_last_card_ends_round_is_saved_only_when_set_so_v2_saves_still_load() -> None:
    default = game_class("ultimatum_cards_v2").from_config({})
    assert "last_card_ends_round" not in default.config.model_dump(mode="json")
    saved = default.new_initial_state(ScriptedRng(rolls=[0], decks=[])).state_dict()
    assert "last_card_ends_round" not in saved["config"]
    variant = game_class("ultimatum_cards_v2").from_config({"last_card_ends_round": True})
    state = variant.new_initial_state(ScriptedRng(rolls=[0], decks=[]))
    assert variant.state_from_dict(state.state_dict()).game.config.last_card_ends_round
    with pytest.raises(UltimataError, match="another rule config"):
        default.state_from_dict(state.state_dict())


# -- the Ultimatum ---------------------------------------------------------------------------------


def ultimatum_table(**config):
    """player_0 starts an Ultimatum: responder player_1, target player_2 (12 chips)."""
    hands = {
        0: ["Ultimatum", "Counter", "Draw"],
        1: ["Counter", "Draw"],
        2: ["Counter", "Block", "Draw"],
        3: ["Counter", "Draw"],
    }
    state = position(hands, chips=[10, 10, 12, 8], **config)
    do(state, "play Ultimatum", "choose player_1")
    assert "choose player_1" not in legal_names(state)  # the target is a third player
    do(state, "choose player_2", "offer: 4 to player_1, 8 to you")
    return state


def test_ultimatum_counters_start_left_of_the_target_skip_the_responder_and_end_with_the_target() -> None:
    state = ultimatum_table()
    asked = []
    while state.phase != RESPOND:
        asked.append(state.current_player)
        do(state, "pass")
    assert asked == [3, 0, 2]
    assert state.current_player == 1  # the responder decides


def test_accepted_and_unblocked_ultimatum_divides_the_targets_chips_as_proposed() -> None:
    state = ultimatum_table()
    do(state, "pass", "pass", "pass", "accept player_0's proposal (4 to you)", "pass")
    assert state.chips == [18, 14, 0, 8]


def test_responder_may_accept_a_counter_instead() -> None:
    state = ultimatum_table()
    do(state, "counter: 7 to player_1, 5 to you", "pass", "pass")
    do(state, "accept player_3's proposal (7 to you)", "pass")
    assert state.chips == [10, 17, 0, 13]
    assert state.hands[3][deck.COUNTER] == 0


def test_targets_counter_offers_a_share_of_its_own_chips_and_keeps_the_rest() -> None:
    state = ultimatum_table()
    do(state, "pass", "pass", "counter: 5 to player_1, 7 to you")
    do(state, "accept player_2's proposal (5 to you)", "pass")  # the target holds a Block and lets it stand
    assert state.chips == [10, 15, 7, 8]


def test_target_may_block_the_ultimatum_even_after_its_own_counter_is_accepted() -> None:
    """The book: once the responder has chosen, "the target may play a block card", with no exception."""
    state = ultimatum_table()
    state.hands[2][deck.BLOCK] += 1
    do(state, "pass", "pass", "counter: 5 to player_1, 7 to you", "accept player_2's proposal (5 to you)")
    assert state.current_player == 2 and legal_names(state) == ["block", "pass"]
    do(state, "block")
    assert state.chips == [10, 10, 12, 8] and state.phase == PLAY


def test_target_blocks_own_counter_false_skips_the_target_after_its_own_counter_is_accepted() -> None:
    state = ultimatum_table(target_blocks_own_counter=False)
    state.hands[2][deck.BLOCK] += 1
    do(state, "pass", "pass", "counter: 5 to player_1, 7 to you", "accept player_2's proposal (5 to you)")
    assert state.chips == [10, 15, 7, 8] and state.phase == PLAY


def test_rejected_ultimatum_gives_nobody_any_chips() -> None:
    state = ultimatum_table()
    do(state, "pass", "pass", "pass", "reject all proposals")
    assert state.chips == [10, 10, 12, 8] and state.phase == PLAY and state.current_player == 1


def test_target_may_block_an_accepted_ultimatum() -> None:
    state = ultimatum_table()
    do(state, "pass", "pass", "pass", "accept player_0's proposal (4 to you)")
    assert state.current_player == 2 and legal_names(state) == ["block", "pass"]
    do(state, "block")
    assert state.chips == [10, 10, 12, 8]


def test_offers_range_over_all_of_the_targets_chips() -> None:
    state = position({0: ["Ultimatum", "Draw"]}, chips=[10, 10, 3, 17])
    do(state, "play Ultimatum", "choose player_1", "choose player_2")
    assert legal_names(state) == [f"offer: {r} to player_1, {3 - r} to you" for r in range(4)]


def test_reaction_windows_revealing_asks_only_players_holding_a_counter_or_block() -> None:
    state = position({0: ["Ultimatum", "Draw"]}, chips=[10, 10, 12, 8], reaction_windows="revealing")
    do(state, "play Ultimatum", "choose player_1", "choose player_2", "offer: 6 to player_1, 6 to you")
    assert state.current_player == 1  # nobody holds a Counter: straight to the responder
    do(state, "accept player_0's proposal (6 to you)")
    assert state.chips == [16, 16, 0, 8]  # the target holds no Block: resolved at once


# -- scoring ---------------------------------------------------------------------------------------


def test_quick_play_most_chips_after_one_round_wins() -> None:
    state = position({0: ["Round", "Draw"]}, chips=[9, 14, 9, 8])
    do(state, "play Round")
    assert state.winners() == [1]
    assert state.returns() == pytest.approx([-1 / 3, 1.0, -1 / 3, -1 / 3])


def test_tied_winners_share_the_win() -> None:
    state = position({0: ["Round", "Draw"]}, chips=[12, 12, 8, 8])
    do(state, "play Round")
    assert state.returns() == pytest.approx([0.5, 0.5, -0.5, -0.5])


def test_match_play_lasts_five_rounds_and_the_dealer_moves_left() -> None:
    state = new_game(rolls=[0], mode="match")
    dealers = [state.dealer]
    rounds = 0
    while state.phase != OVER:
        if state.phase == PLAY and state.hands[state.current_player][deck.ROUND]:
            do(state, "play Round")
            rounds += 1
            if state.phase != OVER:
                dealers.append(state.dealer)
                assert state.chips == [10] * 4 and [sum(h) for h in state.hands] == [10] * 4
            continue
        state.apply(state.legal_actions()[0])
    assert state.rounds_played == 5 and rounds == 5 and dealers == [0, 1, 2, 3, 0]
    assert sum(state.scores) == 4 * 10 * 5


def test_point_play_ends_when_a_player_reaches_the_target_score() -> None:
    state = position({0: ["Round", "Draw"]}, chips=[25, 5, 5, 5], mode="point", target_score=20)
    do(state, "play Round")
    assert state.phase == OVER and state.winners() == [0]
    state = position({0: ["Round", "Draw"]}, chips=[15, 15, 5, 5], mode="point", target_score=20)
    do(state, "play Round")
    assert state.phase == PLAY and state.scores == [15, 15, 5, 5] and state.rounds_played == 1


def test_chips_carry_over_is_a_config_choice() -> None:
    state = position({0: ["Round", "Draw"]}, chips=[25, 5, 5, 5], mode="match", chips_carry_over=True)
    do(state, "play Round")
    assert state.chips == [25, 5, 5, 5]


# -- the engine's promises -------------------------------------------------------------------------


def test_an_illegal_card_is_refused_naming_the_legal_ones_and_nothing_changes() -> None:
    state = position({0: ["Take 2", "Draw"]})
    before = state.state_dict()
    with pytest.raises(IllegalActionError, match=r"legal actions: .*play Take 2"):
        state.apply(deck.STEAL)
    assert state.state_dict() == before


def test_observation_shows_only_the_viewers_hand() -> None:
    a = position({0: ["Take 2", "Draw"], 1: ["Steal", "Steal"]})
    b = position({0: ["Take 2", "Draw"], 1: ["Block", "Round"]})
    assert np.array_equal(a.observation(0), b.observation(0))
    assert not np.array_equal(a.observation(1), b.observation(1))


def test_observation_is_seat_relative() -> None:
    state = position({0: ["Take 2", "Draw"]}, chips=[1, 2, 3, 4])
    at = state.game.obs_layout.slices["chips"]
    assert list(state.observation(0)[at] * 10) == pytest.approx([1, 2, 3, 4])
    assert list(state.observation(2)[at] * 10) == pytest.approx([3, 4, 1, 2])


@pytest.mark.parametrize("seed", [11, 3, 5])
def test_dense_shaping_sums_to_the_final_standing(seed):
    """The dense reward is the change of the potential, so over a game it must add up to each seat's
    final standing (score relative to the mean), not count the last round's chips twice."""
    import random

    import ultimata.envs as envs

    env = envs.make_raw("ultimatum_cards_v2", dense_reward=True)
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    pick = random.Random(seed)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        for a, r in env.rewards.items():
            totals[a] += r
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(pick.choice(legal)))
    state = env.unwrapped.state
    mean = sum(state.scores) / state.n
    unit = state.game.config.starting_chips
    returns = state.returns()
    for p, a in enumerate(env.possible_agents):
        assert totals[a] == pytest.approx((state.scores[p] - mean) / unit + returns[p])


def test_an_offer_is_narrated_to_the_table_in_the_third_person():
    state = position(hands={0: ["Ultimatum"]}, chips=[12, 10, 10, 10])
    do(state, "play Ultimatum", "choose player_2", "choose player_1")
    offer = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("offer: 3 "))
    assert state.action_to_string(offer) == "offer: 3 to player_2, 7 to you"
    assert state.narrate(offer) == "player_0 offers 3 to player_2, keeping 7"


# -- what the table remembers (v1 observation) ---------------------------------------------------
def _block(state, viewer, name):
    lay = state.game.obs_layout
    return state.observation(viewer)[lay.slices[name]]


def test_the_last_play_stays_in_every_seats_observation_after_it_resolves():
    state = position({0: ["Take 3", "Draw"]}, chips=[10, 10, 10, 10])
    do(state, "play Take 3", "choose player_2")
    assert state.phase == PLAY and state.card == -1, "the play has resolved and its card is cleared"
    lay = state.game.obs_layout
    for viewer in range(4):
        newest = state.observation(viewer)[lay.start["history"] :]
        n = 4
        assert newest[0] == 1 and newest[1 + deck.kind_from_name("Take 3")] == 1
        actor, victim = newest[1 + 17 : 1 + 17 + n], newest[1 + 17 + n : 1 + 17 + 2 * n]
        assert actor[(0 - viewer) % n] == 1 and victim[(2 - viewer) % n] == 1  # seat-relative
        assert newest[1 + 17 + 3 * n + 0] == 1 and newest[1 + 17 + 3 * n + 5] == 3 / 10  # resolved, 3 chips
        played = _block(state, viewer, "played").reshape(4, 17)
        assert played[(0 - viewer) % 4][deck.kind_from_name("Take 3")] == 1


def test_being_asked_to_block_with_revealing_windows_shows_the_table_a_block_until_one_is_played():
    hands = {0: ["Steal", "Draw"], 2: ["Block", "Block", "Draw"]}
    state = position(hands, chips=[10, 10, 10, 10], reaction_windows="revealing")
    do(state, "play Steal", "choose player_2")
    assert state.current_player == 2
    for viewer in range(4):
        assert _block(state, viewer, "showed").reshape(4, 2)[(2 - viewer) % 4].tolist() == [1, 0]
    do(state, "block")
    assert _block(state, 0, "showed").reshape(4, 2)[2].tolist() == [0, 0], "it may or may not hold another"


def test_after_a_swap_of_hands_each_side_knows_what_the_other_now_holds():
    state = position({0: ["Swap", "Take 1", "Take 2"], 1: ["Give 5", "Draw"]}, chips=[10, 10, 10, 10])
    do(state, "play Swap", "choose player_1", "swap hands", "pass")
    known0 = _block(state, 0, "known").reshape(4, 17)
    assert known0[1][deck.kind_from_name("Take 1")] == 1 and known0[1][deck.kind_from_name("Take 2")] == 1
    known1 = _block(state, 1, "known").reshape(4, 17)
    assert known1[(0 - 1) % 4][deck.kind_from_name("Give 5")] == 1
    assert not _block(state, 2, "known").any(), "a third seat saw the swap, not the cards"


def test_the_rule_settings_are_observed():
    state = position({0: ["Take 1"]}, chips=[10, 10, 10, 10], mode="point", target_score=80)
    settings = _block(state, 0, "settings")
    assert settings[:3].tolist() == [0, 0, 1] and settings[3] == 1.0 and settings[4] == 80 / 40


def test_the_table_shows_a_pending_card_and_the_final_round_count():
    state = position({0: ["Steal", "Draw"], 2: ["Block", "Draw"]}, chips=[10, 10, 10, 10])
    do(state, "play Steal", "choose player_2")
    assert "pending: Steal by player_0 on player_2" in state.render_text(0)
    state = position({0: ["Round"]}, chips=[10, 10, 10, 10])
    do(state, "play Round")
    assert "game over after 1 round" in state.render_text(0) and "round 2" not in state.render_text(0)
