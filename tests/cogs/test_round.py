"""A complete round of 1941 through the slash commands: two users, one side each, all five powers
buy, move, battle where the rules allow, place and end; the game reaches round 2."""

from __future__ import annotations

from rules import orders as od
from rules.legal import legal_orders
from tests.cogs.conftest import AXIS, Table, answer, end, public, seated


async def test_a_round_of_1941_through_the_cogs(table: Table) -> None:
    t = table
    await seated(t)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    people = {p: (t.alice if p in AXIS else t.bob) for p in game.seats}
    seen_powers = []
    for _ in range(200):
        state = await t.service.state(game.id)
        if state.round == 2:
            break
        power, phase = state.power, state.phase
        if power not in seen_powers:
            seen_powers.append(power)
        actor = people[power]
        legal = list(legal_orders(state, power))
        if phase == "purchase" and not state.purchase:
            r = await actor.slash(t.channel, "buy", units="1 infantry")
        elif phase == "mobilize" and any(isinstance(o, od.Place) for o in legal):
            place = next(o for o in legal if isinstance(o, od.Place))
            units = ", ".join(f"{n} {u}" for u, n in place.units.items())
            r = await actor.slash(t.channel, "place", units=units, **{"in": place.space})
        else:
            r = await end(t, actor)
        assert public(r), answer(r)
        embed = public(r).embeds[0]
        assert embed.title and embed.description
    state = await t.service.state(game.id)
    assert state.round == 2
    assert seen_powers == list(state.edition.turn_order)
    # Everyone reads; nothing reached the user as a traceback.
    r = await t.carol.slash(t.channel, "game status")
    assert not public(r) and "Round 2" in (r.response.embeds[0].description or "")
    assert "Traceback" not in t.env.transcript()
