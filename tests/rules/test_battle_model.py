"""The battle model (rules/battle/model.py, rules/battle/casualties.py): each rule it states,
by its rule ID, on the data of both editions. The evaluators (the combat, the odds) have their
own tests; test_battle_agreement.py plays them against each other."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

import pytest

from rules import tech
from rules.battle import model as bm
from rules.battle.casualties import (
    best_total,
    casualty_rank,
    default_losses,
    flow_ok,
    keep_last_land,
    keeps_last_land,
    max_flow,
    vectors,
)
from rules.battle.model import (
    AIR,
    AIR_ONLY,
    ANY,
    ATT,
    ATTACKER,
    BOTH_DESTROYED,
    DEF,
    DEFENDER,
    NO_AIR,
    NO_SUB,
    OTHER,
    STALEMATE,
    SUB,
    TRANSPORT,
    Kind,
)
from rules.edition import load_edition

A1941 = load_edition("a1941")
CLASSIC = load_edition("classic")


def k(unit: str, side: int = ATT, ed: str = "a1941", sea: bool = True, hp: int | None = None,
      techs: Sequence[str] = ()) -> Kind:
    e = A1941 if ed == "a1941" else CLASSIC
    return bm.kind(e, unit, side, tech.chosen(e, techs), sea,
                   e.units[unit].hits if hp is None else hp)


# --------------------------------------------------------------------------------------------
# Values (CC-3a, CC-4a, R-TEC-05)


def test_CC_3a_CC_4a_a_unit_fires_at_its_attack_or_its_defence() -> None:
    assert k("infantry", ATT, sea=False).value == 1 and k("infantry", DEF, sea=False).value == 2
    assert k("bomber", ATT).value == 4 and k("bomber", DEF).value == 1
    assert k("transport", ATT).value == 0 and k("transport", ATT).no_combat  # UT-2
    assert k("transport", DEF, "classic").value == 1  # R-TRP-05
    assert not k("transport", DEF, "classic").no_combat


def test_R_TEC_05_developments_change_values_and_dice() -> None:
    assert k("fighter", DEF, "classic", techs=["jet_power"]).value == 5
    assert k("fighter", ATT, "classic", techs=["jet_power"]).value == 3
    assert k("submarine", ATT, "classic", techs=["super_submarines"]).value == 3
    assert k("bomber", ATT, "classic", techs=["heavy_bombers"]).dice == 3
    assert k("bomber", DEF, "classic", techs=["heavy_bombers"]).dice == 1  # attack dice only
    assert k("bomber", ATT, "classic").dice == 1


def test_UB_2_R_NAV_battleship_hits_per_edition() -> None:
    assert k("battleship").hp == 2 and k("battleship", hp=1).hp == 1
    assert k("battleship", ed="classic").hp == 1


def test_CC_1_R_AAG_04_complexes_and_AA_guns_are_never_casualties() -> None:
    assert not bm.is_casualty(A1941.units["industrial complex"])
    assert not bm.is_casualty(CLASSIC.units["antiaircraft gun"])
    assert bm.is_casualty(A1941.units["infantry"])


def test_R_AMP_05_only_classic_battleships_bombard() -> None:
    assert bm.bombards(CLASSIC, "battleship")
    assert not bm.bombards(CLASSIC, "aircraft carrier")
    assert not bm.bombards(A1941, "battleship")  # 1941 has no bombardment


# --------------------------------------------------------------------------------------------
# Who may hit whom (H-2, H-3, A-04)


def test_H_2_submarine_hits_never_go_on_aircraft() -> None:
    sub = k("submarine")
    assert bm.hit_category(sub, escort=True) == NO_AIR
    assert AIR not in bm.ELIGIBLE[NO_AIR]
    assert not bm.can_hit([sub], [k("fighter", DEF)])
    assert bm.can_hit([sub], [k("fighter", DEF), k("aircraft carrier", DEF)])


def test_H_3_air_hits_on_submarines_only_beside_a_friendly_destroyer() -> None:
    ftr, sub = k("fighter"), k("submarine", DEF)
    assert sub.cls == SUB and bm.hit_category(ftr, escort=False) == NO_SUB
    assert SUB not in bm.ELIGIBLE[NO_SUB]
    assert not bm.can_hit([ftr], [sub])
    assert bm.can_hit([ftr, k("destroyer")], [sub])
    assert bm.can_hit([ftr], [sub], escort=True)  # a destroyer elsewhere on the side


def test_R_SUB_04_classic_aircraft_hit_submarines() -> None:
    assert k("submarine", DEF, "classic").cls == OTHER
    assert bm.can_hit([k("fighter", ed="classic")], [k("submarine", DEF, "classic")])


def test_R_SUB_03_classic_submarines_never_hit_aircraft() -> None:
    assert bm.hit_category(k("submarine", ed="classic"), escort=False) == NO_AIR


def test_A_04_R_LC_02_AA_hits_only_aircraft_on_a_1() -> None:
    assert bm.ELIGIBLE[AIR_ONLY] == {AIR}
    assert bm.AA_HIT == 1


def test_H_4_transports_are_their_own_class_in_1941_only() -> None:
    assert k("transport").cls == TRANSPORT
    assert k("transport", ed="classic").cls == OTHER  # R-TRP-05: an ordinary casualty


# --------------------------------------------------------------------------------------------
# The steps of a round (SS-2..SS-6, R-NC, R-LC, R-AMP)


def _steps(ed: str, sea: bool) -> list[tuple[str, int | None]]:
    e = A1941 if ed == "a1941" else CLASSIC
    return [(s.stage, s.side) for s in bm.round_steps(e.rules.rules, sea)]


def test_SS_2_SS_4_SS_5_SS_6_a_1941_sea_round() -> None:
    assert _steps("a1941", True) == [
        ("declare", ATT), ("declare", DEF), ("strike", ATT), ("strike", DEF), ("leave", None),
        ("fire", ATT), ("fire", DEF), ("end", None)]


def test_R_NC_02_to_06_a_classic_sea_round() -> None:
    assert _steps("classic", True) == [
        ("strike", ATT), ("leave", None), ("fire", ATT), ("fire", DEF), ("end", None)]


def test_R_LC_02_R_AMP_05_a_classic_land_round_AA_and_bombardment_in_round_1() -> None:
    steps = bm.round_steps(CLASSIC.rules.rules, False)
    assert [(s.stage, s.side) for s in steps] == [
        ("aa", DEF), ("bombard", ATT), ("leave", None), ("fire", ATT), ("fire", DEF),
        ("end", None)]
    assert [s.stage for s in steps if s.first_round] == ["aa", "bombard"]


def test_CC_3_CC_4_a_1941_land_round() -> None:
    assert _steps("a1941", False) == [
        ("aa", DEF), ("leave", None), ("fire", ATT), ("fire", DEF), ("end", None)]


def test_SS_6_R_NC_03_R_AMP_05_whose_victims_fire_back() -> None:
    assert not bm.VICTIMS_FIRE_BACK["strike"]  # SS-6, R-NC-03
    assert not bm.VICTIMS_FIRE_BACK["aa"]  # R-LC-02
    assert bm.VICTIMS_FIRE_BACK["bombard"]  # R-AMP-05
    assert bm.VICTIMS_FIRE_BACK["fire"]  # CC-3b, R-CBT-03


def test_SS_1_a_destroyer_cancels_the_enemy_surprise_strike() -> None:
    rules = A1941.rules.rules
    assert bm.may_strike(rules, ATT, True, [k("aircraft carrier", DEF)])
    assert not bm.may_strike(rules, ATT, True, [k("destroyer", DEF)])
    assert bm.may_strike(rules, DEF, True, [k("battleship")])  # SS-5
    assert not bm.may_strike(rules, ATT, False, [])  # sea battles only


def test_R_SUB_02_R_SUB_06_classic_only_attacking_submarines_strike_first() -> None:
    rules = CLASSIC.rules.rules
    assert bm.may_strike(rules, ATT, True, [k("battleship", DEF, "classic")])
    assert not bm.may_strike(rules, DEF, True, [k("battleship", ATT, "classic")])


# --------------------------------------------------------------------------------------------
# The end of a battle (CC-6A, CC-6C, A-11)


def test_CC_6A_a_side_gone() -> None:
    inf_a, inf_d = k("infantry", sea=False), k("infantry", DEF, sea=False)
    assert bm.battle_end([inf_a], [], False) == (ATTACKER, "CC-6A", False, False)
    assert bm.battle_end([], [inf_d], False) == (DEFENDER, "CC-6A", False, False)
    assert bm.battle_end([], [], False) == (BOTH_DESTROYED, "CC-6A", False, False)
    assert bm.battle_end([inf_a], [inf_d], False) is None


def test_CC_6A_only_transports_at_sea() -> None:
    end = bm.battle_end([k("transport")], [k("transport", DEF)], True)
    assert end is not None and end.result == STALEMATE


def test_CC_6C_defenceless_transports_are_lost() -> None:
    end = bm.battle_end([k("destroyer")], [k("transport", DEF)], True)
    assert end == (ATTACKER, "CC-6C", True, False)
    # Beside a submarine the fighters cannot hit, which cannot hit them either: lost, no winner.
    end = bm.battle_end([k("fighter")], [k("transport", DEF), k("submarine", DEF)], True)
    assert end == (STALEMATE, "CC-6C", True, False)
    # An attacker that cannot hit them does not destroy them; a warship that can be hit fights.
    assert bm.battle_end([k("submarine")], [k("transport", DEF), k("destroyer", DEF)],
                         True) is None


def test_A_11_nobody_can_hit_anybody() -> None:
    end = bm.battle_end([k("fighter")], [k("submarine", DEF)], True)
    assert end == (STALEMATE, "A-11", False, False)


def test_UT_3_attackers_that_cannot_fire_are_stuck() -> None:
    assert bm.attacker_stuck([k("transport")])
    assert not bm.attacker_stuck([k("transport"), k("destroyer")])


# --------------------------------------------------------------------------------------------
# Casualty constraints (H-2..H-7): the closed forms against a maximum flow searched


def _search_flow(cats: Sequence[int], counts: Sequence[int]) -> int:
    """The maximum flow from hit categories to classes with these demands, by augmenting
    paths (the method rules/combat.py used before the closed forms)."""
    nc, nk = len(cats), 4
    n = 2 + nc + nk
    src, sink = 0, n - 1
    cap = [[0] * n for _ in range(n)]
    for i, c in enumerate(cats):
        cap[src][1 + i] = c
        for j in range(nk):
            if j in bm.ELIGIBLE[i]:
                cap[1 + i][1 + nc + j] = sum(counts) + sum(cats)
    for j in range(nk):
        cap[1 + nc + j][sink] = counts[j]
    flow = 0
    while True:
        parent = [-1] * n
        parent[src] = src
        queue = [src]
        while queue and parent[sink] < 0:
            x = queue.pop(0)
            for y in range(n):
                if parent[y] < 0 and cap[x][y] > 0:
                    parent[y] = x
                    queue.append(y)
        if parent[sink] < 0:
            return flow
        push = min(cap[parent[y]][y] for y in _path(parent, sink))
        for y in _path(parent, sink):
            cap[parent[y]][y] -= push
            cap[y][parent[y]] += push
        flow += push


def _path(parent: list[int], y: int) -> list[int]:
    out = []
    while parent[y] != y:
        out.append(y)
        y = parent[y]
    return out


def test_H_7_flow_ok_and_max_flow_are_those_of_a_maximum_flow() -> None:
    for cats in product(range(3), repeat=4):
        for counts in product(range(3), repeat=4):
            assert flow_ok(cats, counts) == (_search_flow(cats, counts) == sum(counts)), \
                (cats, counts)
            assert max_flow(cats, counts) == _search_flow(cats, counts), (cats, counts)
    assert flow_ok((1, 1, 1), (1, 1, 1, 0))  # three categories: logs before AA fire


def test_H_4_H_7_best_total_matches_a_search_of_the_vectors() -> None:
    rnd = random.Random(15)
    for _ in range(1500):
        caps = [rnd.randint(0, 3) for _ in range(4)]
        cats = [rnd.randint(0, 3) for _ in range(4)]
        want = (0, 0)
        for total in range(min(sum(caps), sum(cats)), -1, -1):
            ts = [v[TRANSPORT] for v in vectors(caps, total) if flow_ok(cats, v)]
            if ts:
                want = (total, min(ts))
                break
        assert best_total(caps, cats) == want, (caps, cats)


# --------------------------------------------------------------------------------------------
# The default casualty choice


def test_H_4_casualty_rank_transports_last_then_standing_order_then_cheapest() -> None:
    u = A1941.units
    assert casualty_rank(u["transport"], ()) > casualty_rank(u["battleship"], ())
    assert casualty_rank(u["infantry"], ()) < casualty_rank(u["tank"], ())
    assert casualty_rank(u["tank"], ("tank",)) < casualty_rank(u["infantry"], ("tank",))
    assert casualty_rank(u["transport"], ("transport",)) > casualty_rank(u["fighter"], ())


def test_CC_7b_the_attacker_keeps_its_last_land_unit_in_a_land_battle() -> None:
    assert keeps_last_land(ATT, False)
    assert not keeps_last_land(ATT, True) and not keeps_last_land(DEF, False)
    order = ["infantry", "tank", "fighter", "bomber"]
    assert keep_last_land(order, lambda t: t in ("infantry", "tank")) == [
        "infantry", "fighter", "bomber", "tank"]


def test_H_6_UB_2_two_hit_units_absorb_a_free_hit_first() -> None:
    # battleship (2 hits) and destroyer, one hit: the battleship is damaged, nothing lost.
    assert default_losses([OTHER, OTHER], [1, 2], (1, 0, 0, 0), 1) == ([], [1])
    # Three hits: damaged, then the destroyer, then the damaged battleship (lost, not damaged).
    assert default_losses([OTHER, OTHER], [1, 2], (3, 0, 0, 0), 3) == ([0, 1], [])


def test_H_2_H_7_CC_3c_submarine_hits_go_on_ships_when_the_order_wastes_them() -> None:
    """Defender: destroyer, fighter, carrier (cheapest first); two submarine hits: not the
    fighter (H-2), so the destroyer and the carrier (the first vector that wastes none)."""
    assert default_losses([OTHER, AIR, OTHER], [1, 1, 1], (0, 2, 0, 0), 2) == ([0, 2], [])
    # A destroyer's hit and two submarine hits: every unit (the rulebook example of CC-3c).
    assert default_losses([OTHER, AIR, OTHER], [1, 1, 1], (1, 2, 0, 0), 3) == ([0, 1, 2], [])


def test_H_4_transports_only_when_nothing_else_can_take_the_hit() -> None:
    # Order: transport first (a standing order), destroyer: the hit goes on the destroyer.
    assert default_losses([TRANSPORT, OTHER], [1, 1], (1, 0, 0, 0), 1) == ([1], [])
    # Aircraft hits without a destroyer cannot go on the submarine: the transport takes it.
    assert default_losses([SUB, TRANSPORT], [1, 1], (0, 0, 1, 0), 1) == ([1], [])


def test_H_7_hits_beyond_what_can_be_taken_are_lost() -> None:
    assert default_losses([AIR], [1], (0, 3, 0, 0), 3) == ([], [])  # subs cannot hit aircraft
    assert default_losses([OTHER], [1], (5, 0, 0, 0), 5) == ([0], [])


@pytest.mark.parametrize("edition", ["a1941", "classic"])
def test_H_7_default_losses_are_always_a_valid_maximal_assignment(edition: str) -> None:
    """Random sides and hits: the default choice puts exactly ``best_total`` hits, valid by
    category (H-2, H-3), with the fewest on transports (H-4)."""
    rnd = random.Random(edition)
    for _ in range(400):
        n = rnd.randint(1, 6)
        classes = [rnd.choice((AIR, SUB, OTHER, TRANSPORT)) for _ in range(n)]
        hp = [rnd.choice((1, 1, 2)) for _ in range(n)]
        cats = tuple(rnd.randint(0, 3) for _ in range(4))
        lost, dmg = default_losses(classes, hp, cats, sum(cats))
        counts = [0, 0, 0, 0]
        for j in lost:
            counts[classes[j]] += hp[j]
        for j in dmg:
            counts[classes[j]] += 1
        caps = [0, 0, 0, 0]
        for c, h in zip(classes, hp, strict=True):
            caps[c] += h
        best, tmin = best_total(caps, cats)
        assert sum(counts) == best and flow_ok(cats, counts) and counts[TRANSPORT] == tmin
        assert not set(lost) & set(dmg) and all(hp[j] > 1 for j in dmg)


def test_categories_in_the_order_dice_events_record_them() -> None:
    assert (ANY, NO_AIR, NO_SUB, AIR_ONLY) == bm.CATEGORIES == (0, 1, 2, 3)
    assert bm.RESULTS[bm.STALEMATE] == "no combat" and bm.ROLES[bm.role("defender")] == "defender"
