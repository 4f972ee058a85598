"""The follow-up work after any change of a game, recomputed from the stored game.

Whatever changed a game (an order by slash command, a click on a decision menu, a deadline
action, an admin change, an edit) the work that follows is the same and is done here, in one
place: post the menus of the battle decisions the game now waits for, announce the waits that
began (a plain-text line that mentions exactly the people awaited), and edit the pinned status
message. Each part can be repeated from the stored game: the reminder loop calls ``follow_up``
for every active game on each tick, which re-does whatever a failed Discord call left undone
(after a restart too). Right after a change, the state and the log's head its answer carries
(``Result.after``, ``Result.head``) are handed in, so the game is not loaded again (one fold per
order, issue 15). Each part never raises: a failure is logged and left for the next pass.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

from service import waits as wt
from service.batch import PRIVATE_KINDS
from service.games import GameInfo
from service.relay import changes_since

if TYPE_CHECKING:
    from cogs._bot import UmpireBot
    from rules.state import GameState
    from service.batch import BatchResult

log = logging.getLogger(__name__)


async def game_channel(bot: UmpireBot, game: GameInfo) -> Any:
    """The game's Discord channel (or thread), or None if it is not a Discord game or gone."""
    import discord

    if not game.channel.isdigit():
        return None
    channel = bot.get_channel(int(game.channel))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(game.channel))
        except discord.HTTPException:
            return None
    return channel if hasattr(channel, "send") else None


async def post_menus(
    bot: UmpireBot, game: GameInfo, channel: Any, state: GameState | None = None
) -> None:
    """Post the menu of each battle decision now owed; close menus no longer owed.

    Idempotent and resumable: the menus posted are recorded in the store (one per game and
    decision, claimed before posting), so a repeated pass, a restarted bot or a second process
    posts nothing twice, and a pass after a failure posts what is missing and closes what is
    answered.
    """
    from cogs._views import post_decisions

    try:
        await post_decisions(bot, game, channel, state)
    except Exception:
        log.exception("posting the decision menus of game %s failed", game.id)


def mention(person: str) -> str:
    """A Discord user id as a mention (shown as their name); other persons as they are."""
    return f"<@{person}>" if person.isdigit() else person or "an open seat"


async def send_dm(bot: UmpireBot, user_id: int, text: str, channel: Any) -> bool:
    """A direct message with a link to the game's channel. A closed DM is logged, not raised."""
    import discord

    where = getattr(channel, "jump_url", "") or f"<#{getattr(channel, 'id', '')}>"
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(
            f"{text}\n({where})"[:1900], allowed_mentions=discord.AllowedMentions.none()
        )
    except Exception:  # a closed DM (403) or any failure: a DM is a convenience, never fatal
        log.warning("could not send a direct message to %s", user_id, exc_info=True)
        return False
    return True


def waits_line(notice: wt.Notice) -> str:
    """The plain-text lines of a notice: the waits that began, held pings, the last one."""
    lines: list[str] = []
    if notice.began:
        parts = [f"{mention(w.person)} ({w.label})" for w in notice.began]
        lines.append("🔔 The game waits for " + ", ".join(parts) + ".")
    held = [w for w in notice.held if w.person in notice.ping]
    if held:
        people = sorted({w.person for w in held})
        what = ", ".join(w.label for w in held)
        lines.append(f"🔔 {' '.join(mention(p) for p in people)}: the game waits for you ({what}).")
    for w in notice.last:
        lines.append(
            f"⏳ {mention(w.person)}, you are the last one the game waits for ({w.label})."
        )
    return "\n".join(lines)


async def announce_waits(
    bot: UmpireBot, game: GameInfo, channel: Any, state: GameState | None = None
) -> None:
    """Mention, outside any embed, the people whose wait began (once per wait).

    Re-arms the game's deadline for the waits now, claims what to announce in the store
    (``service.waits.notices``: one process, one time), posts one plain-text line whose
    ``allowed_mentions`` are exactly the people to ping, and sends the DMs asked for
    (``/game notify``). A failed post releases its claims, so the next pass posts it again.
    """
    import discord

    service = bot.service
    try:
        now = bot.clock()
        await wt.arm_deadline(service, game.id, now, state)
        notice = await wt.notices(service, game.id, now, bot.process_id, state)
    except Exception:
        log.exception("reading the waits of game %s failed", game.id)
        return
    text = waits_line(notice)
    ping = set(notice.ping) | {w.person for w in notice.last}
    if text:
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False,
            users=[discord.Object(int(p)) for p in sorted(ping) if p.isdigit()],
        )
        try:
            await channel.send(text[:1900], allowed_mentions=allowed)
        except Exception:
            log.exception("announcing the waits of game %s failed; retried next pass", game.id)
            for key in notice.claims:
                await service.store.release_claim(game.id, key)
            return
    for who, theirs in notice.dm.items():
        if who.isdigit():
            what = ", ".join(w.label for w in theirs)
            await send_dm(bot, int(who), f"🔔 The game waits for you: {what}.", channel)


MAIL_READER = "discord"  # the channel's report cursor (service.relay)


def by_mail(person: str) -> bool:
    """A seat holder who plays by e-mail (an address, not a Discord id)."""
    return "@" in person


async def relay_mail(bot: UmpireBot, game: GameInfo, channel: Any) -> None:
    """Tell the channel the orders its mail players gave since it was last told (the mail
    gateway may run in another process). The cursor moves by compare-and-set, so of two bot
    processes one tells each order; a failed post moves it back for the next pass."""
    import discord

    if not any(by_mail(p) for p in game.seats.values()):
        return
    store = bot.service.store
    try:
        since = await store.report_cursor(game.id, MAIL_READER)
        ch = await changes_since(bot.service, game.id, since)
        if ch.empty or not await store.advance_report(game.id, MAIL_READER, since, ch.seq):
            return
    except Exception:
        log.exception("reading the mail orders of game %s failed", game.id)
        return
    parts: list[str] = []
    for t in ch.told:
        if not by_mail(t.person) or t.by_referee:
            continue
        block = [f"📧 **{t.power}** ({t.person}) by mail: `{t.text}`", *t.lines]
        parts.append("\n".join(block))
    try:
        for chunk in _chunks(parts):
            await channel.send(chunk, allowed_mentions=discord.AllowedMentions.none())
    except Exception:
        log.exception("posting the mail orders of game %s failed; retried next pass", game.id)
        await store.advance_report(game.id, MAIL_READER, ch.seq, since)


async def relay_web(bot: UmpireBot, game: GameInfo, person: str, batch: BatchResult) -> None:
    """Tell the channel the orders a Discord player gave on the game's web page (the web
    server's ``after_orders`` hook, in this process), then do the follow-up. The orders of a
    mail player, wherever given, come with ``relay_mail``. A failed post is logged: the game's
    log and the page hold them."""
    import discord

    if by_mail(person):
        await follow_up(bot, game, None, state=batch.after, head=batch.head)
        return
    channel = await game_channel(bot, game)
    if channel is not None:
        parts = []
        for line in batch.accepted:
            answer = line.result.answer if line.result is not None else ""
            if line.result is not None and line.result.kind in PRIVATE_KINDS:
                answer = "(answered privately)"  # a private link, say: never in the channel
            parts.append("\n".join([f"🌐 {mention(person)} on the web page: `{line.line}`",
                                    *[a for a in answer.splitlines() if a]]))
        try:
            files = [discord.File(io.BytesIO(i.png), filename=i.name,
                                  description=i.caption[:1024]) for i in batch.images[:10]]
            chunks = _chunks(parts)
            for n, chunk in enumerate(chunks):
                last = n == len(chunks) - 1
                await channel.send(chunk, files=files if last else [],
                                   allowed_mentions=discord.AllowedMentions.none())
        except Exception:
            log.exception("posting the web orders of game %s failed", game.id)
    await follow_up(bot, game, channel, state=batch.after, head=batch.head)


async def relay_mail_seats(bot: UmpireBot, game: GameInfo, channel: Any) -> None:
    """Tell the channel each seat taken by mail (a join has no event for ``relay_mail`` to
    read): once per seat and address, claimed in the store, a failed post released."""
    import discord

    for power, person in game.seats.items():
        if not by_mail(person):
            continue
        key = f"mail-seat:{power}:{person}"
        try:
            if not await bot.service.store.claim(game.id, key, bot.process_id):
                continue
        except Exception:
            log.exception("claiming the mail seat notice of game %s failed", game.id)
            return
        try:
            await channel.send(f"📧 {person} holds **{power}** and plays by e-mail.",
                               allowed_mentions=discord.AllowedMentions.none())
        except Exception:
            log.exception("posting a mail seat of game %s failed; retried next pass", game.id)
            await bot.service.store.release_claim(game.id, key)
            return


def _chunks(parts: list[str], limit: int = 1900) -> list[str]:
    out: list[str] = []
    cur = ""
    for part in parts:
        part = part[:limit]
        if cur and len(cur) + 1 + len(part) > limit:
            out.append(cur)
            cur = ""
        cur = f"{cur}\n{part}" if cur else part
    if cur:
        out.append(cur)
    return out


async def follow_up(
    bot: UmpireBot,
    game: GameInfo | None,
    channel: Any = None,
    *,
    state: GameState | None = None,
    head: tuple[int, str] | None = None,
) -> None:
    """Everything owed after a change of ``game``, from the stored game, or from the state and
    head the change's answer carries (``state``, ``head``: then nothing is loaded). Never
    raises."""
    if game is None:
        return
    try:
        info = await bot.service.info(game.id)
    except Exception:
        log.exception("follow-up of game %s: cannot read it", game.id)
        return
    if state is not None and (head is None or not await bot.service.still_at(game.id, head)):
        state, head = None, None  # the game moved on since that answer: read it as it is now
    if channel is None or not hasattr(channel, "send"):
        channel = await game_channel(bot, info)
    if channel is not None:
        await relay_mail_seats(bot, info, channel)
        await relay_mail(bot, info, channel)  # what mail players did, before what follows it
        await post_menus(bot, info, channel, state)  # closes the open menus of a finished game
    if channel is not None and info.status == "active":
        await announce_waits(bot, info, channel, state)
    await bot.board.refresh(info, state=state, head=head)
