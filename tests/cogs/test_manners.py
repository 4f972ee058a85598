"""Issue 11, items 6 and 9: quiet reads, names instead of ids, hints as slash commands, the
entropy phrase never shown. Asserted on what members see (content, embeds, ephemeral flags)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from simcord import SetupError

from cogs._errors import GUILD_ONLY
from cogs._slash import _HINT, _SPECS, slash_hints, to_slash
from cogs.reminders import RemindersCog
from tests.cogs.conftest import ALLIES, AXIS, Table, end, public, seated

ROOT = Path(__file__).resolve().parents[2]
FIELD = "FIELD"  # an f-string's field in a text of the service
VERBS = {words.split()[0] for words, _, _ in _SPECS} | {"raid", "end!"}


def shown(m: Any) -> str:
    """Everything a member reads in one message: content, embed titles, texts and fields."""
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(parts)


def answer(r: Any) -> str:
    return shown(r.followups[-1] if r.followups else r.response)


def bare_ids(text: str, *members: Any) -> list[str]:
    """The members' ids that appear in ``text`` other than inside a mention."""
    return [str(m.id) for m in members if str(m.id) in re.sub(r"<@!?\d+>", "", text)]


# --- hints as slash commands -----------------------------------------------------------------


def service_texts() -> Iterator[tuple[str, str]]:
    """Every string the service and the rules can show (f-string fields and message templates'
    fields filled with a name, or with FIELD where the field is itself a word of the hint),
    docstrings left out; with the file it comes from."""
    files = [*(ROOT / "service").glob("*.py"), *(ROOT / "rules").rglob("*.py")]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        for node in ast.walk(tree):
            if id(node) in docs:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                # a message template's fields ("{space}") are fields like an f-string's
                yield re.sub(r"\{[a-z_]*(?::[^{}]*)?\}", FIELD, node.value), path.name
            elif isinstance(node, ast.JoinedStr):
                text = "".join(
                    v.value if isinstance(v, ast.Constant) else FIELD for v in node.values
                )
                yield text, path.name


def test_every_hint_the_service_writes_reads_as_a_slash_command() -> None:
    hints = {
        (m.group(1).replace(FIELD, "Ukraine"), where)
        for text, where in service_texts()
        for m in _HINT.finditer(text)
        if m.group(1).split()[0] in VERBS and FIELD not in " ".join(m.group(1).split()[:2])
    }
    assert len(hints) > 40  # the service does write hints: this test reads them
    untranslated = sorted(h for h in hints if to_slash(h[0]) is None)
    assert not untranslated
    for hint, _ in hints:
        out = slash_hints(f"Use '{hint}' now.")
        assert out.startswith("Use `/") or out == "Use `raid:true` now.", out


@pytest.mark.parametrize(
    ("hint", "slash"),
    [
        ("game new 1941", "/game new edition:1941"),
        ("game join <power> [entropy phrase]", "/game join power:<power>"),
        ("game start", "/game start"),
        ("end confirm", "/end phase:<phase> confirm:true"),
        ("end Combat Move", "/end phase:Combat Move"),
        ("deadline 24h defaults", "/admin deadline hours:24 action:defaults"),
        ("move 2 infantry from A to B", "/move units:2 infantry from:A to:B"),
        ("casualties Ukraine 2 infantry, 1 tank", "/casualties space:Ukraine units:2 infantry, 1 tank"),
        ("place 2 infantry in Germany", "/place units:2 infantry in:Germany"),
        ("substitute <power> <person>", "/admin substitute power:<power> member:<person>"),
        ("raid", "raid:true"),
        ("raid <space>", "/bomb space:<space>"),
        ("resume", "/admin resume"),
        ("game cancel withdraw", "/game cancel withdraw:true"),
        ("game list all", "/game list finished:true"),
    ],
)
def test_order_language_to_slash(hint: str, slash: str) -> None:
    assert to_slash(hint) == slash


def test_quotes_that_are_not_hints_stay() -> None:
    text = "It is Soviet Union's turn; 'Moscow' is no space; 'move along' is no order."
    assert slash_hints(text) == text


async def test_refusals_name_the_slash_commands(table: Table) -> None:
    t = table
    r = await t.alice.slash(t.channel, "game export")
    assert not public(r) and "`/game new edition:1941`" in answer(r)
    assert "'game new" not in answer(r)
    r = await t.alice.slash(t.channel, "buy", units="1 infantry")
    assert not public(r) and "`/game new edition:<edition>`" in answer(r)
    await seated(t)
    r = await t.bob.slash(t.channel, "move", units="1 infantry", **{"from": "Russia", "to": "Karelia"})
    assert not public(r) and "`/end phase:<phase>`" in answer(r) and "'end'" not in answer(r)
    r = await t.alice.slash(t.channel, "admin pause")  # no deadline yet
    assert not public(r) and "`/admin deadline hours:24`" in answer(r)


async def test_the_lobby_answers_name_slash_commands(table: Table) -> None:
    t = table
    r = await t.alice.slash(t.channel, "game new", edition="1941")
    text = answer(r)
    assert "`/game join power:<power>`" in text and "`/game start`" in text
    assert "'game" not in text
    assert bare_ids(text, t.alice) == []


# --- names, not ids ----------------------------------------------------------------------------


async def test_admin_texts_show_names_not_ids(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "admin kick", member=t.carol)
    assert not public(r) and f"<@{t.alice.id}>" in answer(r)  # the owner, by name
    r = await t.alice.slash(t.channel, "admin substitute", power="Germany", member=t.carol)
    text = answer(r)
    assert public(r) and f"<@{t.carol.id}> now plays Germany" in text
    assert f"was <@{t.alice.id}>" in text
    assert bare_ids(text, t.alice, t.bob, t.carol) == []
    r = await t.alice.slash(t.channel, "admin substitute", power="Soviet Union", member=t.carol)
    assert not public(r) and f"<@{t.carol.id}> holds Germany" in answer(r)
    assert bare_ids(answer(r), t.carol) == []
    r = await t.alice.slash(t.channel, "admin kick", member=t.carol)
    text = answer(r)
    assert public(r) and f"<@{t.carol.id}> left Germany" in text
    assert "`/admin substitute power:<power> member:<person>`" in text
    assert bare_ids(text, t.alice, t.carol) == []
    r = await t.alice.slash(t.channel, "admin kick", member=t.carol)
    assert not public(r) and f"<@{t.carol.id}> holds no seat" in answer(r)


async def test_reminders_name_the_phase_not_its_id(table: Table) -> None:
    t = table
    await seated(t)
    await end(t, t.bob)  # Soviet Union: Combat Move
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    assert await cog.tick() == 1
    text = t.channel.last_message.content
    assert "(Soviet Union: Combat Move)" in text
    assert "combat_move" not in text and "turn (" not in text


async def test_status_shows_names_and_never_raw_ids(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "game status")
    text = answer(r)
    assert f"owner <@{t.alice.id}>" in text
    assert bare_ids(text, t.alice, t.bob) == []


# --- quiet reads ---------------------------------------------------------------------------------


async def test_quiet_reads_are_private_unless_shared(table: Table) -> None:
    t = table
    await seated(t)
    before = len(t.channel.history())
    reads: list[tuple[str, dict[str, Any]]] = [
        ("game status", {}),
        ("game map", {"space": "Germany"}),
        ("odds", {"attackers": "3 infantry, 1 tank", "defenders": "2 infantry"}),
        ("luck", {}),
    ]
    for name, opts in reads:
        r = await t.carol.slash(t.channel, name, **opts)
        assert not public(r), name
        assert answer(r).strip(), name
    assert len(t.channel.history()) == before  # nobody else saw anything
    for name, opts in reads:
        r = await t.carol.slash(t.channel, name, public=True, **opts)
        assert public(r), name  # shared: a public follow-up in the channel
        posted = t.channel.last_message
        assert posted.author.id == t.bot.user.id and not posted.flags.ephemeral
        assert posted.embeds, name
    assert len(t.channel.history()) == before + len(reads)


async def test_a_shared_read_refused_stays_private(table: Table) -> None:
    t = table
    r = await t.carol.slash(t.channel, "game status", public=True)
    assert not public(r) and "/game new" in answer(r)
    assert t.channel.last_message is None


async def test_status_shows_the_deadline(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "game status")
    assert "Deadline\nnone" in answer(r) and "`/admin deadline`" in answer(r)
    await t.alice.slash(t.channel, "admin deadline", hours=24.0, action="end", every_turn=True)
    r = await t.carol.slash(t.channel, "game status")
    due = int(t.clock.now.timestamp()) + 24 * 3600
    text = answer(r)
    assert f"<t:{due}:f>" in text and f"<t:{due}:R>" in text
    assert "ends the phase" in text and "renews at each new turn" in text
    await t.alice.slash(t.channel, "admin pause")
    r = await t.carol.slash(t.channel, "game status")
    assert "Deadline\npaused" in answer(r) and "`/admin resume`" in answer(r)


# --- the entropy phrase --------------------------------------------------------------------------

PHRASE = "zebra-lantern-4471"


async def test_the_entropy_phrase_is_never_shown(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new", edition="1941")
    r = await t.alice.slash(t.channel, "game join", power=AXIS[0], entropy=PHRASE)
    assert public(r)
    assert "with an entropy phrase" in answer(r) and PHRASE not in answer(r)
    r = await t.alice.slash(t.channel, "game join", power="Soviet Union", entropy=PHRASE)
    assert not public(r) and PHRASE not in answer(r)  # refused (P-1): still not echoed
    await t.alice.slash(t.channel, "game join", power=AXIS[1], entropy=PHRASE + "-2")
    for power in ALLIES:
        await t.bob.slash(t.channel, "game join", power=power)
    r = await t.alice.slash(t.channel, "game start")
    assert public(r)
    for name, opts in [
        ("game status", {"public": True}),
        ("game history", {"n": 50}),
        ("game export", {}),
        ("dice verify", {}),
    ]:
        r = await t.carol.slash(t.channel, name, **opts)
        assert PHRASE not in answer(r), name
    for m in t.channel.history():
        assert PHRASE not in shown(m)
    for request in t.env.http_requests:  # every byte the bot sent to Discord
        assert PHRASE not in json.dumps(request.json, default=str)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    export = json.dumps(await t.service.export(game.id))
    assert PHRASE not in export
    import hashlib

    assert hashlib.sha256(PHRASE.encode()).hexdigest() in export  # only its hash is logged


# --- guild-only --------------------------------------------------------------------------------


async def test_commands_are_offered_in_servers_only(table: Table) -> None:
    t = table
    dave = t.env.create_user("dave")
    t.guild.add_member(dave)
    assert await t.bot.sync_tree() > 10  # globally: DEV_GUILD_ID unset
    assert "game new" in t.carol.available_commands(t.channel)
    assert dave.available_commands() == ()  # the bot's DM offers nothing
    with pytest.raises(SetupError):
        await dave.slash("game status")


async def test_a_command_that_reaches_the_bot_in_a_dm_is_refused_plainly(table: Table) -> None:
    t = table
    ran: list[str] = []

    # An old registration (before guild-only) could still send a command from a DM.
    @app_commands.command(name="probe", description="test")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    async def probe(interaction: discord.Interaction[Any]) -> None:
        ran.append("probe")
        await interaction.response.send_message("ran")

    t.bot.tree.add_command(probe)
    dave = t.env.create_user("dave")
    t.guild.add_member(dave)
    r = await dave.slash("probe")
    assert not public(r) and answer(r) == GUILD_ONLY
    assert ran == []
    r = await t.carol.slash(t.channel, "probe")
    assert ran == ["probe"]


async def test_sync_to_the_dev_guild_only_on_request(table: Table) -> None:
    t = table
    assert not t.bot.sync_commands  # the normal start registers nothing
    t.bot.dev_guild_id = t.guild.id
    n = await t.bot.sync_tree()
    assert n > 10
    registered = t.env.backend.find_command("game", t.guild.id, type=1)
    assert registered is not None and registered.get("guild_id") is not None
    assert registered.get("contexts") == [0]


# --- the bot's permissions at /game new --------------------------------------------------------


async def test_game_new_refused_where_the_bot_lacks_what_a_game_needs(table: Table) -> None:
    t = table
    me = t.guild.me
    assert me is not None
    deny = discord.PermissionOverwrite(embed_links=False, read_message_history=False)
    channel = t.guild.create_text_channel("closed", overwrites={me: deny})
    r = await t.alice.slash(channel, "game new", edition="1941")
    assert not public(r)
    assert "I lack Embed Links and Read Message History" in answer(r)
    assert "Nothing was created" in answer(r)
    assert await t.service.game_in(str(channel.id)) is None
    assert channel.last_message is None


async def test_game_new_without_pin_messages_creates_the_game_and_says_so(table: Table) -> None:
    t = table
    me = t.guild.me
    assert me is not None
    channel = t.guild.create_text_channel(
        "nopins", overwrites={me: discord.PermissionOverwrite(pin_messages=False)}
    )
    r = await t.alice.slash(channel, "game new", edition="1941")
    assert public(r) and public(r).embeds  # the game is created, publicly
    (note,) = [m for m in r.followups if m.ephemeral]
    assert note.ephemeral and "Pin Messages" in note.content and "not be pinned" in note.content
    assert await t.service.game_in(str(channel.id)) is not None
    r = await t.alice.slash(t.channel, "game new", edition="1941")  # all granted: no note
    assert public(r) and not [m for m in r.followups if m.ephemeral]


def test_missing_permissions_in_a_thread_asks_for_sending_in_threads() -> None:
    from cogs.game import missing_permissions

    perms = discord.Permissions.all()
    perms.send_messages_in_threads = False
    assert missing_permissions(perms, in_thread=True) == (["Send Messages in Threads"], [])
    assert missing_permissions(perms, in_thread=False) == ([], [])
    perms = discord.Permissions.all()
    perms.send_messages = False
    perms.pin_messages = False
    assert missing_permissions(perms, in_thread=False) == (["Send Messages"], ["Pin Messages"])
