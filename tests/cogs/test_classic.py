"""Classic through the slash commands: the cogs are the same, the edition's data says the rest
(the editions offered by /game new, powers, spaces and units in autocomplete, phase names)."""

from __future__ import annotations

from typing import Any

from rules.edition import edition_catalog
from tests.cogs.conftest import Table, answer, end, public

CLASSIC_AXIS = ("Germany", "Japan")
CLASSIC_ALLIES = ("Russia", "United Kingdom", "United States")


def text_of(r: Any) -> str:
    parts = [answer(r) or ""]
    shown = public(r) or r.response  # a quiet read answers privately
    for e in shown.embeds if shown is not None else []:
        parts += [e.title or "", e.description or ""]
        parts += [f.value or "" for f in e.fields]
    return "\n".join(parts)


async def classic_seated(t: Table) -> None:
    """A Classic game in the channel: alice holds the Axis, bob the Allies, started."""
    r = await t.alice.slash(t.channel, "game new", edition="classic")
    assert public(r), answer(r)
    assert "Axis & Allies Classic" in text_of(r)
    for p in CLASSIC_AXIS:
        r = await t.alice.slash(t.channel, "game join", power=p)
        assert public(r), answer(r)
    for p in CLASSIC_ALLIES:
        r = await t.bob.slash(t.channel, "game join", power=p)
        assert public(r), answer(r)
    r = await t.alice.slash(t.channel, "game start")
    assert public(r), answer(r)


async def test_game_new_offers_the_installed_editions_by_title(table: Table) -> None:
    t = table
    choices = await t.alice.autocomplete(t.channel, "game new", "edition", "")
    assert [c["name"] for c in choices] == [f"{r.title} ({r.word})" for r in edition_catalog()]
    assert {c["value"] for c in choices} >= {"1941", "classic"}
    only = await t.alice.autocomplete(t.channel, "game new", "edition", "clas")
    assert [c["value"] for c in only] == ["classic"]
    by_alias = await t.alice.autocomplete(t.channel, "game new", "edition", "milton")
    assert [c["value"] for c in by_alias] == ["classic"]


async def test_game_new_options_come_from_the_chosen_edition(table: Table) -> None:
    t = table
    opts = await t.alice.autocomplete(t.channel, "game new", "options", "", edition="1941")
    assert {c["value"] for c in opts} == {"short", "errata"}
    opts = await t.alice.autocomplete(t.channel, "game new", "options", "short e",
                                      edition="1941")
    assert [c["value"] for c in opts] == ["short errata"]
    opts = await t.alice.autocomplete(t.channel, "game new", "options", "",
                                      edition="classic")
    assert {c["value"] for c in opts} == {"naval_placement", "weapons_advantage",
                                          "no_new_complexes"}


async def test_no_game_names_every_edition(table: Table) -> None:
    r = await table.alice.slash(table.channel, "game export")
    assert not public(r)
    for rules in edition_catalog():
        assert f"`/game new edition:{rules.word}`" in answer(r)


async def test_classic_lobby_offers_classic_powers(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new", edition="classic")
    choices = [c["value"] for c in await t.bob.autocomplete(t.channel, "game join", "power", "")]
    assert "Russia" in choices and "Soviet Union" not in choices
    r = await t.bob.slash(t.channel, "game join", power="Soviet Union")  # an alias in the data
    assert public(r) and "joins as Russia" in text_of(r)
    r = await t.bob.slash(t.channel, "game join", power="Italy")
    assert not public(r) and "Unknown power 'Italy'" in answer(r)


async def test_classic_short_game_is_refused_with_the_editions_options(table: Table) -> None:
    t = table
    r = await t.alice.slash(t.channel, "game new", edition="classic", short=True)
    assert not public(r) and "Unknown option 'short'" in answer(r)


async def test_russias_first_turn_through_the_cogs(table: Table) -> None:
    t = table
    await classic_seated(t)
    r = await t.carol.slash(t.channel, "game status")
    body = text_of(r)
    assert not public(r) and "Russia's turn, Weapons Development" in body  # a quiet read
    assert f"<@{t.bob.id}>" in body
    r = await t.alice.slash(t.channel, "buy", units="1 infantry")
    assert not public(r) and "Russia's turn" in answer(r)
    r = await end(t, t.bob)  # no research this turn
    assert public(r) and "Purchase Units" in text_of(r)
    units = await t.bob.autocomplete(t.channel, "buy", "units", "1 infantry, 1 an")
    assert any(c["value"] == "1 infantry, 1 antiaircraft gun" for c in units)
    r = await t.bob.slash(t.channel, "buy", units="3 inf, 1 arm")
    assert public(r) and "Russia bought 3 infantry, 1 tank (14 IPCs)" in text_of(r)
    r = await t.bob.slash(t.channel, "buy", units="1 destroyer")
    assert not public(r) and "Unknown unit 'destroyer'" in answer(r)
    r = await end(t, t.bob)
    assert public(r) and "Combat Movement" in text_of(r)
    r = await end(t, t.bob)
    assert public(r)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    assert (await t.service.state(game.id)).phase == "noncombat_move"
    frm = [c["value"] for c in await t.bob.autocomplete(t.channel, "move", "from", "")]
    assert "Caucasus" in frm
    to = [c["value"] for c in
          await t.bob.autocomplete(t.channel, "move", "to", "", **{"from": "Caucasus"})]
    assert "Russia" in to
    r = await t.bob.slash(t.channel, "move", units="2 infantry",
                          **{"from": "Caucasus", "to": "Russia"})
    assert public(r) and "Russia moved 2 infantry from Caucasus to Russia" in text_of(r)
    r = await end(t, t.bob)
    assert public(r) and "Placement of New Units" in text_of(r)
    where = [c["value"] for c in await t.bob.autocomplete(t.channel, "place", "in", "")]
    assert "Russia" in where and "Karelia S.S.R." in where
    r = await t.bob.slash(t.channel, "place", units="3 infantry, 1 tank", **{"in": "Russia"})
    assert public(r) and "Russia placed 3 infantry, 1 tank in Russia" in text_of(r)
    r = await end(t, t.bob)
    assert public(r)
    body = text_of(r)
    assert "Russia collected 24 IPCs" in body and "Germany: Weapons Development" in body
    r = await t.carol.slash(t.channel, "game map", space="english channel")
    assert not public(r) and "North Sea Zone" in text_of(r)
    spaces = await t.alice.autocomplete(t.channel, "game map", "space", "syria")
    assert spaces[0]["value"] == "Syria-Iraq"
    assert "Traceback" not in t.env.transcript()


async def test_research_and_rocket_through_the_cogs(table: Table) -> None:
    t = table
    t.service.allow_scripted_dice = True
    # research die 6 (a breakthrough), development die 2 (Rockets), then the rocket's die 4
    info = await t.service.create(str(t.channel.id), str(t.alice.id), "classic", dice=[6, 2, 4])
    for p in CLASSIC_AXIS:
        assert (await t.service.join(info.id, str(t.alice.id), p)).ok
    for p in CLASSIC_ALLIES:
        assert (await t.service.join(info.id, str(t.bob.id), p)).ok
    assert (await t.service.start(info.id, str(t.alice.id))).ok
    r = await t.bob.slash(t.channel, "research", dice=1)
    body = text_of(r)
    assert public(r) and "Russia developed Rockets" in body
    for _ in range(3):  # Purchase Units, Combat Movement: to Combat
        r = await end(t, t.bob)
        assert public(r), answer(r)
    frm = [c["value"] for c in await t.bob.autocomplete(t.channel, "rocket", "from", "")]
    assert "Karelia S.S.R." in frm
    at = [c["value"] for c in
          await t.bob.autocomplete(t.channel, "rocket", "at", "", **{"from": "Karelia S.S.R."})]
    assert "Germany" in at
    r = await t.bob.slash(t.channel, "rocket", **{"from": "karelia", "at": "germany"})
    assert public(r) and "Germany paid 4 IPCs" in text_of(r)
    r = await t.bob.slash(t.channel, "rocket", **{"from": "Russia", "at": "Germany"})
    assert not public(r)  # once per turn
    r = await t.carol.slash(t.channel, "game status")
    assert "Weapons developments: Russia Rockets." in text_of(r)


async def test_research_in_a_1941_game_is_refused_plainly(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new", edition="1941")
    for p in CLASSIC_AXIS:
        await t.alice.slash(t.channel, "game join", power=p)
    for p in ("Soviet Union", "United Kingdom", "United States"):
        await t.bob.slash(t.channel, "game join", power=p)
    await t.alice.slash(t.channel, "game start")
    r = await t.bob.slash(t.channel, "research", dice=1)
    assert not public(r) and "no weapons development" in answer(r)


async def test_a_bombing_raid_declared_and_resolved_through_the_cogs(table: Table) -> None:
    t = table
    t.service.allow_scripted_dice = True
    # Germany's AA gun misses (6); the bomber rolls 5 damage.
    position = {"edition": "classic", "power": "United Kingdom", "phase": "combat_move"}
    info = await t.service.create(str(t.channel.id), str(t.alice.id), "classic",
                                  dice=[6, 5], position=position)
    for p in CLASSIC_AXIS:
        assert (await t.service.join(info.id, str(t.alice.id), p)).ok
    for p in CLASSIC_ALLIES:
        assert (await t.service.join(info.id, str(t.bob.id), p)).ok
    assert (await t.service.start(info.id, str(t.alice.id))).ok
    r = await t.bob.slash(t.channel, "move", units="1 bomber", raid=True,
                          **{"from": "United Kingdom", "to": "Germany"})
    assert public(r), answer(r)
    r = await end(t, t.bob)
    assert public(r) and "Combat" in text_of(r)
    spaces = [c["value"] for c in await t.bob.autocomplete(t.channel, "bomb", "space", "")]
    assert "Germany" in spaces
    r = await t.bob.slash(t.channel, "bomb", space="Germany")
    assert public(r), answer(r)
    assert "Germany paid 5 IPCs" in text_of(r)
