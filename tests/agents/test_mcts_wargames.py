"""The search agent finds the winning move in the three wargames: set positions where one move (or one
short chain of decisions) wins at once or almost surely, next to legal moves that do not.

Search never sees the real dice (each simulation re-seeds chance through `state.sample_consistent`), so
each position is won whatever the dice say, or nearly so; the real game's dice are forced only so that
playing the agent's moves out ends the game the same way on every run. The budget is a fixed number of
simulations and a fixed seed; `time` is a generous cap that a normal run never reaches."""

from __future__ import annotations

from ultimata.agents.mcts import MctsAgent, MctsOptions

PLAIN = {"guide": "none", "rollout": "random"}
"""Plain UCB and uniform rollouts: the search finds the move, not the scripted bot's prior."""


def _choose(agent: MctsAgent, state) -> int:
    """The agent's decision, applied to the real state."""
    action = agent.act(None, state.legal_action_mask(), state)
    state.apply(action)
    return action


def test_attacks_iraq_from_iran_to_complete_the_oil_alliance_in_the_world_game():
    """Three players. player_0 holds the whole Communist Alliance and the Oil Alliance but Iraq (player_1,
    1 troop), with 10 troops in Iran and 3 in each other nation, so a dozen nations may attack. Attacking
    Iraq from Iran completes Oil and wins at once (Oil and one more alliance); ten troops against one
    almost never fail whatever the dice. Ending the turn, attacking from elsewhere, or attacking Turkey
    from Iran does not win."""
    from tests.ultimatum_world.positions import BLACK, W, nation, place, position
    from ultimata.envs.ultimatum_world import actions as A
    from ultimata.envs.ultimatum_world.content import COMMUNIST, OIL

    holdings = {W.names[x]: (0, 3) for a in (COMMUNIST, OIL) for x in W.members[a]}
    holdings["Iraq"], holdings["Iran"] = (1, 1), (0, 10)
    iran, iraq, turkey = place(nation("Iran")), place(nation("Iraq")), place(nation("Turkey"))
    s = position(n=3, nations=holdings, rolls=[BLACK[28], BLACK[2]])  # the real first roll wins
    agent = MctsAgent("ultimatum_world_v4", MctsOptions(sims=400, time=30, **PLAIN), seed=0)

    assert s.legal_actions() == [A.ATTACK, A.DONE], "attack, or end the turn"
    assert _choose(agent, s) == A.ATTACK
    origins = s.legal_actions()
    assert iran in origins and len(origins) >= 10, "many nations may attack; only Iran borders Iraq"
    assert _choose(agent, s) == iran
    assert s.legal_actions() == sorted([turkey, iraq]), "Turkey is a legal target that does not win"
    assert _choose(agent, s) == iraq
    for _ in range(4):  # roll, then move in: every choice left wins with these dice
        if s.is_terminal():
            break
        _choose(agent, s)
    assert s.is_terminal() and s.winners == [0]


def test_buys_the_one_alliance_that_reaches_the_target_record_in_conquest():
    """Variant 2, target record 12 spaces (24 half spaces, the engine's unit). player_1 (the United States,
    allied with Canada and Mexico: 12 half spaces) has the attack option and 6500 chips. Only an alliance
    with China (value 13) reaches 24 at once; Japan (value 10) is affordable and falls short, passing
    gives the turn away, and a war for a big country reaches it only if won (a best of three battles
    with player_0 defending)."""
    from tests.conquest_of_the_world.positions import c, edited, opening
    from ultimata.envs.conquest_of_the_world import actions as A

    s = opening(["U.S.S.R.", "United States"], [[], ["Canada", "Mexico"]], target_record=12)
    s.chips[1] = 6500
    edited(s)
    assert s.current_player == 1 and s.record == [0, 12]
    legal = s.legal_actions()
    assert {A.DONE, A.BUY + c("Japan"), A.ATTACK + c("Japan")} <= set(legal)

    def wins_at_once(action: int) -> bool:
        after = s.clone()
        after.apply(action)
        return after.is_terminal() and after.returns() == [-1.0, 1.0]

    assert [a for a in legal if wins_at_once(a)] == [A.BUY + c("China")]
    # Plain UCB needs about ten visits for each of the 74 moves here: 200 simulations were not enough.
    agent = MctsAgent("conquest_of_the_world_v3", MctsOptions(sims=1000, time=30, **PLAIN), seed=0)
    assert agent.act(None, s.legal_action_mask(), s) == A.BUY + c("China")


def test_strikes_down_the_enemy_general_in_ultra_war():
    """Street clash: defeat the enemy General. Justice (player_0's General) stands next to Vegron, player_1's
    only General, down to 1 life, and to a Maxian Trooper; Sir Gareth stands far away. Selecting Justice
    and attacking Vegron wins at once: with Justice's offense raised to 15 and Vegron's Initiative (a
    third defence die) removed, only a double one or the defender's double six (about 1 in 18) saves him.
    Ending the turn, activating Sir Gareth, or attacking the Trooper does not win."""
    from tests.ultra_war.positions import E, N, S, W, position, select
    from ultimata.envs.ultra_war import actions as A
    from ultimata.envs.ultra_war.geometry import field
    from ultimata.envs.ultra_war.phases import OVER

    def duel():
        st = position([("Justice", 0, (6, 3), E), ("Vegron", 1, (6, 4), W), ("Maxian Trooper", 1, (5, 3), S),
                       ("Sir Gareth", 0, (11, 11), N)], rolls=(5, 5, 1, 2))  # the real attack hits
        justice, vegron = st.units[0], st.units[1]
        justice.ch = justice.ch.model_copy(update={"offense": 15})
        abilities = {k: v for k, v in vegron.ch.abilities.items() if k != "Initiative"}
        vegron.ch = vegron.ch.model_copy(update={"abilities": abilities})
        vegron.life = 1
        st._mask = None
        return st

    strike_vegron = A.ATTACK + field(6, 4)
    strike_trooper = A.ATTACK + field(5, 3)
    st = duel()
    justice, gareth = st.units[0], st.units[3]
    assert st.legal_actions() == [A.SELECT + justice.slot, A.SELECT + gareth.slot, A.END_TURN]
    probe = duel()
    select(probe, 6, 3)
    assert {strike_vegron, strike_trooper, A.END_ACT} <= set(probe.legal_actions())
    probe.apply(strike_trooper)
    assert probe.phase != OVER, "striking the Trooper does not end the game"

    # Plain UCB averages the 18 moves under "select Justice", most of them neutral: 200 simulations
    # sometimes preferred ending the turn; 800 find the strike.
    agent = MctsAgent("ultra_war_v5", MctsOptions(sims=800, time=30, **PLAIN), seed=0)
    assert _choose(agent, st) == A.SELECT + justice.slot
    assert _choose(agent, st) == strike_vegron
    assert st.phase == OVER and st.returns() == [1.0, -1.0]
