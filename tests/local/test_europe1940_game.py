"""A scripted game of Axis & Allies Europe 1940 through the local table: two full rounds, all six
powers, two people (alice: the Allies, bob: the Axis).

The script (tests/local/games/europe1940_two_rounds.txt) exercises a strategic bombing raid on
the United Kingdom intercepted by its fighters, an air battle and the raid's damage on the major
complex (BR-4..BR-10), repaired in the British Purchase & Repair (PU-3); Paris taken with France's
treasury (CAP-1) and its major complex downgraded (CO-4); a submarine attacking a destroyer and a
transport, a fighter scrambled from Scotland to defend them (SC-1..SC-4) and home at the start of
Noncombat Move, the destroyer sunk, the transport defenceless against a submarine the fighter
cannot hit (GC-8), and the submarine then disrupting the British convoys (CD-2); a friendly neutral
entered (Bulgaria, FN-3); an Italian amphibious assault on Malta with a battleship's
bombardment (AA-2); France retaking Paris and placing its liberation units (FR-1); Germany's
declaration of war on the Soviet Union (DW-2), which ends its Soviet trade objective; national
objectives paid (§14). Dice: a fixed list (tests/local/games/europe1940_two_rounds.dice: Python
random seed 1940, with the faces of the battles set in where the script needs an outcome).
"""

from __future__ import annotations

import subprocess

from tests.local._scripts import played, run_script


def run_game(*extra: str) -> subprocess.CompletedProcess[str]:
    return run_script("europe1940_two_rounds", *extra)


def test_two_rounds_of_europe1940_play_through_without_a_refusal() -> None:
    answers = played("europe1940_two_rounds")
    final = answers[-1]["state"]
    assert (final["edition"], final["round"], final["power"], final["phase"]) == (
        "europe1940", 3, "Germany", "purchase")
    assert final["treasury"] == {"Germany": 62, "Soviet Union": 72, "United States": 76,
                                 "United Kingdom": 60, "Italy": 16, "France": 28}
    assert final["income"] == {"Germany": 32, "Soviet Union": 27, "United States": 35,
                               "United Kingdom": 29, "Italy": 10, "France": 17}
    owners = final["owners"]
    assert owners["France"] == "France"  # taken by Germany, liberated by France (FR-1)
    assert owners["Bulgaria"] == "Germany"  # a friendly neutral entered (FN-3)
    assert owners["Malta"] == "Italy"  # amphibious assault with bombardment (AA-2)
    assert owners["Eastern Poland"] == "Germany"  # after the declaration of war (DW-2)
    assert final["units"]["France"] == {"France": {
        "air base": 1, "minor industrial complex": 1, "artillery": 3, "infantry": 6,
        "fighter": 1}}
    assert "fr_liberation" in final["used_bonuses"]
    assert final["damage"] == {}  # the raid's damage was repaired (PU-3)
    assert final["battles"] == [] and final["winner"] is None
    events = [e for a in answers for e in a["events"]]
    kinds = {e["type"] for e in events}
    assert {"WarDeclared", "NeutralJoined", "InterceptorsCommitted", "AirBattleFought",
            "RaidResolved", "FacilityRepaired", "BombardmentChosen", "ConvoyDisrupted",
            "ObjectivesPaid", "LiberationBonusOwed", "FreeUnitsPlaced",
            "ComplexDowngraded", "UnitsScrambled"} <= kinds
    stages = {e["stage"] for e in events if e["type"] == "DiceRolled"}
    assert {"air_battle", "raid_defense", "raid_damage", "bombard", "fire"} <= stages
    captured = [(e["space"], e["by"], e["how"], e["seized"]) for e in events
                if e["type"] == "TerritoryCaptured"]
    assert captured == [("France", "Germany", "battle", 17),
                        ("Bulgaria", "Germany", "friendly neutral", 0),
                        ("Malta", "Italy", "battle", 0), ("France", "France", "battle", 0),
                        ("Eastern Poland", "Germany", "battle", 0)]


def test_the_text_answers_tell_the_europe1940_rules() -> None:
    proc = run_game()
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    # The raid: interception, air battle, damage, repair.
    assert ("United Kingdom intercepts the raid on United Kingdom with 2 fighters; they fight "
            "nothing else this turn (BR-4).") in out
    assert "France sends no interceptors against the raid on United Kingdom (BR-4)." in out
    assert ("Air battle over United Kingdom: Germany's 2 strategic bombers against United "
            "Kingdom's interceptors (2 fighters), every unit at 1: 0 hits on the interceptors, "
            "1 on the raiders (BR-5).") in out
    assert "Bombing raid on United Kingdom by Germany over: 6 damage in all" in out
    assert ("The air battle over United Kingdom is over: 1 strategic bomber flies on to the "
            "raid; the interceptors (2 fighters) stay in United Kingdom (BR-6).") in out
    # MN-5: British and French units defend France together; each power's losses are named.
    assert ("Casualties in France: United Kingdom loses 1 artillery, 1 tank; France loses 6 "
            "infantry, 1 artillery, 1 tank, 1 fighter (chosen by United Kingdom).") in out
    assert ("Battle in Malta, round 1: attacker's battleships and cruisers bombard: rolled 1,6 "
            "→ 1 hit (battleship at 4: 1; cruiser at 3: 6) [scripted dice].") in out
    # The scramble: a fighter from Scotland defends the convoy zone, then flies home.
    assert ("United Kingdom scrambles 1 fighter from Scotland to Sea Zone 109: they defend there, "
            "cannot retreat and fight nothing else this turn (SC-2, SC-4).") in out
    assert "France scrambles nothing from United Kingdom (SC-1)." in out
    assert ("Battle in Sea Zone 109, round 1: defender rolled 6,6 → 0 hits (fighter at 4: 6; "
            "destroyer at 2: 6) [scripted dice].") in out
    assert "Removed from the board: United Kingdom: 1 transport (defenceless transports, GC-8)." \
        in out
    assert "United Kingdom moved 1 fighter from Sea Zone 109 to Scotland." in out
    assert ("United Kingdom repairs 6 damage on its major industrial complex in United Kingdom "
            "for 6 IPCs (none left, PU-3).") in out
    # Paris falls, and is liberated by France itself.
    assert "Germany captured France and took 17 IPCs from France (+4 income; CAP-1)." in out
    assert ("The major industrial complex in France is captured and becomes a minor industrial "
            "complex (CO-4).") in out
    assert ("France is liberated: France places free units there worth up to 12 IPCs (e.g. "
            "'free units 4 infantry in France', FR-1).") in out
    assert ("France placed free units in France: 2 infantry, 1 artillery (10 IPCs of the "
            "liberation bonus, FR-1).") in out
    assert "France: Combat Move. Skipped Purchase & Repair (TS-5)." in out
    # A neutral, a landing with bombardment, a declaration.
    assert ("Germany took the friendly neutral Bulgaria; its army (4 infantry) joins Germany, "
            "free to move from its next turn (FN-3).") in out
    assert ("Italy moved 1 artillery, 1 infantry from Sea Zone 96 to Malta (offloading; "
            "amphibious assault on Malta).") in out
    assert "Italy's 1 battleship, 1 cruiser in Sea Zone 96 will bombard Malta (AA-2)." in out
    assert "Germany declares war on the Soviet Union (DW-2)." in out
    # Income: convoys and national objectives.
    assert ("Convoy disruption in Sea Zone 109 against United Kingdom: Germany's 1 submarine "
            "rolled 4, 3 → 3 (each 3 or less counts) → United Kingdom loses 3 IPCs (CD-2).") in out
    assert ("United Kingdom collected 31 IPCs (treasury now 40; 29 from its territories, -3 "
            "convoy disruption, +5 national objectives; IN-1).") in out
    assert ("Germany collected 45 IPCs (treasury now 62; 35 from its territories, +10 national "
            "objectives; IN-1).") in out
    # At war with the Soviet Union, Germany loses its trade objective (§14.1).
    assert ("Germany collected 37 IPCs (treasury now 62; 32 from its territories, +5 national "
            "objectives; IN-1).") in out
    assert "Soviet wheat and oil trade" in out.split("Round 2: Germany's turn begins.")[0]
    assert "Soviet wheat and oil trade" not in out.split("Round 2: Germany's turn begins.")[1]


def test_the_same_script_and_dice_give_the_same_game() -> None:
    assert run_game("--json").stdout == run_game("--json").stdout
