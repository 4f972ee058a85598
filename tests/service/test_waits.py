"""Waits and the deadlines that follow them, in the service with a frozen clock: stable wait
keys, a deadline re-armed for every new wait, an action repeated while the game waits only for
the absent (timed out, or on vacation), a reminder repeated each period."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service import waits as wt
from service.games import GameService
from tests.service.test_games import ok, seated

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


async def test_waits_have_stable_keys_and_a_new_one_per_phase() -> None:
    svc = GameService(clock=lambda: T0)
    game = await seated(svc)
    (w,) = await wt.current_waits(svc, game)
    assert (w.power, w.person, w.kind, w.title) == ("Soviet Union", "bob", "phase", "Purchase Units")
    assert [x.key for x in await wt.current_waits(svc, game)] == [w.key]
    ok(await svc.submit(game, "bob", "end confirm"))
    (w2,) = await wt.current_waits(svc, game)
    assert w2.key != w.key and w2.phase == "combat_move"


async def test_an_every_wait_deadline_rearms_for_each_phase() -> None:
    clock = Clock()
    svc = GameService(clock=clock)
    game = await seated(svc)
    ok(await svc.handle("chan", "alice", "deadline 10h every"))
    clock.now = T0 + timedelta(hours=3)
    ok(await svc.submit(game, "bob", "end confirm"))
    assert await wt.arm_deadline(svc, game, clock.now) is not None
    d = await svc.deadline(game)
    assert d is not None and d.due_at == T0 + timedelta(hours=13)
    again = await wt.arm_deadline(svc, game, T0 + timedelta(hours=5))  # the same wait
    assert again is not None and again.due_at == T0 + timedelta(hours=13)


async def test_end_repeats_while_the_game_waits_only_for_the_absent() -> None:
    clock = Clock()
    svc = GameService(clock=clock)
    game = await seated(svc)
    ok(await svc.handle("chan", "alice", "deadline 1h end every"))
    clock.now = T0 + timedelta(minutes=59)
    assert not ((await svc.deadline_due(game)).data or {}).get("fired")
    clock.now = T0 + timedelta(hours=1)
    r = await svc.deadline_due(game)
    assert (r.data or {}).get("fired")
    state = await svc.state(game)
    assert (state.power, state.phase) == ("Germany", "purchase")  # bob's whole turn ended
    texts = [o.text for o in await svc.store.orders(game)]
    assert texts[-4:] == ["end confirm (by the referee at the deadline)"] * 4
    d = await svc.deadline(game)
    assert d is not None and d.due_at == clock.now + timedelta(hours=1)  # alice: full period
    assert not ((await svc.deadline_due(game)).data or {}).get("fired")  # once
    ok(await svc.submit(game, "alice", "end confirm"))  # alice is present: her next phase waits an hour
    d = await svc.deadline(game)
    assert d is not None and d.due_at == clock.now + timedelta(hours=1)


async def test_a_vacation_lets_the_deadline_answer_at_once() -> None:
    clock = Clock()
    svc = GameService(clock=clock)
    game = await seated(svc)
    await wt.set_vacation(svc, "bob", T0, T0 + timedelta(days=7), T0)
    ok(await svc.handle("chan", "alice", "deadline 24h end every"))
    r = await svc.deadline_due(game)  # bob is away: no need to wait 24 hours
    assert (r.data or {}).get("fired")
    assert (await svc.state(game)).power == "Germany"
    clock.now = T0 + timedelta(days=8)  # back from vacation: the deadline waits for him again
    while (await svc.state(game)).power in ("Germany", "Japan"):
        ok(await svc.submit(game, "alice", "end confirm"))
    assert not ((await svc.deadline_due(game)).data or {}).get("fired")


async def test_a_reminder_repeats_each_period_while_nobody_acts() -> None:
    clock = Clock()
    svc = GameService(clock=clock)
    game = await seated(svc)
    ok(await svc.handle("chan", "alice", "deadline 6h every"))
    fired = []
    for hour in range(1, 25):
        clock.now = T0 + timedelta(hours=hour)
        if ((await svc.deadline_due(game)).data or {}).get("fired"):
            fired.append(hour)
    assert fired == [6, 12, 18, 24]
    assert len(await svc.store.orders(game)) == 1  # 'game start' only: remind acts on nothing


async def test_bad_settings_are_refused_with_what_to_type() -> None:
    svc = GameService()
    for kw, expect in (
        ({"how": "pigeon"}, "channel, dm, both"),
        ({"how": "dm", "quiet": "soon"}, "'22-7'"),
        ({"how": "dm", "tz": "Mars/Olympus"}, "'Europe/Paris'"),
    ):
        try:
            await wt.set_notify(svc, "bob", **kw)
        except ValueError as e:
            assert expect in str(e)
        else:
            raise AssertionError(f"{kw} was accepted")
    assert await svc.store.notify_prefs(["bob"]) == []
    text = await wt.set_notify(svc, "bob", how="dm", quiet="22:30-7", tz="+02:00")
    assert "quiet 22:30-07:00 (+02:00)" in text
    (pref,) = await svc.store.notify_prefs(["bob"])
    assert wt.in_quiet_hours(pref, datetime(2026, 1, 1, 21, 0, tzinfo=UTC))  # 23:00 at +2
    assert not wt.in_quiet_hours(pref, datetime(2026, 1, 1, 6, 0, tzinfo=UTC))  # 08:00 at +2


async def test_an_absent_attacker_is_answered_for_and_the_present_defender_gets_the_period() -> None:
    from tests.service.test_games import ATTACK, POSITION

    position = {**POSITION, "units": {**POSITION["units"]}}
    position["units"]["Ukraine"] = {"Soviet Union": {"infantry": 1, "tank": 1}}
    clock = Clock()
    svc = GameService(clock=clock)
    game = await seated(svc, dice=[3, 4, 6, 2, 5, 1, 1, 1], position=position)
    ok(await svc.submit(game, "alice", ATTACK))  # then alice goes away
    ok(await svc.handle("chan", "alice", "deadline 1h end every"))
    clock.now = T0 + timedelta(hours=1)
    assert ((await svc.deadline_due(game)).data or {}).get("fired")
    (w,) = await wt.current_waits(svc, game)  # combat move ended, a round fought for alice
    assert (w.person, w.title) == ("bob", "casualties in Ukraine")
    d = await svc.deadline(game)
    assert d is not None and d.due_at == clock.now + timedelta(hours=1)  # bob: the full hour
    clock.now += timedelta(minutes=30)
    ok(await svc.submit(game, "bob", "casualties Ukraine 1 infantry"))
    (w,) = await wt.current_waits(svc, game)
    assert (w.person, w.title) == ("alice", "casualties in Ukraine")
    r = await svc.deadline_due(game)  # alice is still away in this turn: answered at once
    assert (r.data or {}).get("fired")
    state = await svc.state(game)
    assert state.power == "United Kingdom" and state.owners["Ukraine"] == "Germany"
    d = await svc.deadline(game)
    assert d is not None and d.due_at == clock.now + timedelta(hours=1)  # bob: an hour
    referee = [o.text for o in await svc.store.orders(game) if o.text.endswith(wt.REFEREE_NOTE)]
    assert "battle Ukraine (by the referee at the deadline)" in referee
