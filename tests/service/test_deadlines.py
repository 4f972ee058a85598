"""Deadlines in the service: parsed durations, owner only, pause/resume, and the deadline action
(defaults for a waiting battle, end of phase) carried out once with a frozen clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.games import GameService
from tests.service.test_games import ATTACK, POSITION, ok, seated

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def test_deadline_text_owner_only_and_clear_errors() -> None:
    svc = GameService(clock=lambda: T0)
    game = await seated(svc)
    r = await svc.handle("chan", "bob", "deadline 24h")
    assert not r.ok and "owner" in (r.error or "")
    r = await svc.handle("chan", "alice", "deadline soon")
    assert not r.ok and "'24h'" in (r.error or "")
    ok(await svc.handle("chan", "alice", "deadline 1d12h defaults every"))
    d = await svc.deadline(game)
    assert d is not None
    assert (d.due_at, d.action, d.every) == (T0 + timedelta(hours=36), "defaults", 36 * 3600)


async def test_pause_and_resume_shift_the_deadline() -> None:
    now = [T0]
    svc = GameService(clock=lambda: now[0])
    game = await seated(svc)
    assert not (await svc.handle("chan", "alice", "pause")).ok  # no deadline yet
    ok(await svc.handle("chan", "alice", "deadline 30m"))
    ok(await svc.handle("chan", "alice", "pause"))
    now[0] = T0 + timedelta(hours=5)
    r = await svc.deadline_due(game)
    assert not (r.data or {}).get("fired")  # paused: nothing happens
    ok(await svc.handle("chan", "alice", "resume"))
    d = await svc.deadline(game)
    assert d is not None and d.due_at == T0 + timedelta(hours=5, minutes=30)


async def test_defaults_at_the_deadline_move_a_waiting_battle_on_once() -> None:
    now = [T0]
    svc = GameService(clock=lambda: now[0])
    position = {**POSITION, "units": {**POSITION["units"]}}
    position["units"]["Ukraine"] = {"Soviet Union": {"infantry": 1, "tank": 1}}
    game = await seated(svc, dice=[1, 6, 6, 6, 6, 6, 6, 6, 6], position=position)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    ok(await svc.submit(game, "alice", "battle Ukraine"))
    waiting = (await svc.status(game)).data or {}
    assert any(w["what"] == "casualties" for w in waiting["waiting"])
    ok(await svc.handle("chan", "alice", "deadline 24h defaults"))
    assert not ((await svc.deadline_due(game)).data or {}).get("fired")  # not yet
    now[0] = T0 + timedelta(hours=24)
    r = await svc.deadline_due(game)
    assert (r.data or {}).get("fired") and r.events
    waiting = (await svc.status(game)).data or {}
    assert not any(w["what"] == "casualties" for w in waiting["waiting"])
    orders = await svc.store.orders(game)
    assert orders[-1].power == "Soviet Union"
    assert orders[-1].text.endswith("(by the referee at the deadline)")
    again = await svc.deadline_due(game)  # claimed: never twice
    assert not (again.data or {}).get("fired")
    assert len(await svc.store.orders(game)) == len(orders)


async def test_end_at_the_deadline_ends_the_phase() -> None:
    now = [T0]
    svc = GameService(clock=lambda: now[0])
    game = await seated(svc)
    before = await svc.state(game)
    ok(await svc.handle("chan", "alice", "deadline 1h end"))
    now[0] = T0 + timedelta(hours=2)
    r = await svc.deadline_due(game)
    assert (r.data or {}).get("fired")
    after = await svc.state(game)
    assert (after.power, after.phase) != (before.power, before.phase)
    assert (await svc.store.orders(game))[-1].text == "end confirm (by the referee at the deadline)"
