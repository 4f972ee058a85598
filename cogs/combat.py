"""Battles and dice: ``/battle``, ``/casualties``, ``/retreat``, ``/press``, ``/submerge``,
``/strike``, ``/withdraw``, ``/bomb``, ``/intercept``, ``/airbattle``, ``/scramble``,
``/bombard``, ``/odds``, ``/luck``, ``/dice verify``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import _complete as ac
from cogs._common import channel_key, person, umpire
from cogs._quiet import PUBLIC_HELP, begin, read
from cogs._views import play


class CombatCog(commands.Cog):
    """Battle orders (the attacker's and each side's decisions) and the dice anyone may check."""

    dice = app_commands.Group(name="dice", description="The game's fair dice")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @ac.completes("battle")
    @app_commands.command(name="battle", description="Fight one round in a space (dice public)")
    @app_commands.describe(
        space="The battle", all="Fight to the end using standing casualty orders"
    )
    async def battle(
        self, interaction: discord.Interaction[Any], space: str, all: bool = False
    ) -> None:
        await play(interaction, f"battle {space}{' all' if all else ''}", slow=all)

    @ac.completes("casualties")
    @app_commands.command(name="casualties", description="Choose the casualties your side owes")
    @app_commands.describe(space="The battle", units="e.g. 2 infantry, 1 tank")
    async def casualties(
        self, interaction: discord.Interaction[Any], space: str, units: str
    ) -> None:
        await play(interaction, f"casualties {space} {units}")

    @ac.completes("retreat")
    @app_commands.command(name="retreat", description="Attacker: retreat from a battle")
    @app_commands.describe(space="The battle", to="Where the attackers retreat to")
    async def retreat(self, interaction: discord.Interaction[Any], space: str, to: str) -> None:
        await play(interaction, f"retreat {space} to {to}")

    @ac.completes("press")
    @app_commands.command(name="press", description="Attacker: fight another round")
    @app_commands.describe(space="The battle")
    async def press(self, interaction: discord.Interaction[Any], space: str) -> None:
        await play(interaction, f"press {space}")

    @ac.completes("submerge")
    @app_commands.command(name="submerge", description="Your submarines submerge")
    @app_commands.describe(space="The battle", n="How many (default: all)")
    async def submerge(
        self,
        interaction: discord.Interaction[Any],
        space: str,
        n: app_commands.Range[int, 1, 99] | None = None,
    ) -> None:
        await play(interaction, f"submerge {space}" + ("" if n is None else f" {n}"))

    @ac.completes("strike")
    @app_commands.command(name="strike", description="Your submarines make a surprise strike")
    @app_commands.describe(space="The battle")
    async def strike(self, interaction: discord.Interaction[Any], space: str) -> None:
        await play(interaction, f"strike {space}")

    @ac.completes("withdraw")
    @app_commands.command(
        name="withdraw", description="Your submarines leave a sea battle between rounds"
    )
    @app_commands.describe(
        space="The battle", n="How many (default: all)", to="The sea zone they withdraw to"
    )
    async def withdraw(
        self,
        interaction: discord.Interaction[Any],
        space: str,
        n: app_commands.Range[int, 1, 99] | None = None,
        to: str | None = None,
    ) -> None:
        text = f"withdraw {space}" + ("" if n is None else f" {n}")
        await play(interaction, text + ("" if to is None else f" to {to}"))

    @ac.completes("bomb")
    @app_commands.command(name="bomb", description="Attacker: resolve a bombing raid")
    @app_commands.describe(
        space="The territory the bombers raid",
        targets="Where the edition asks: e.g. major industrial complex: 2 strategic bombers; "
        "air base: 1 tactical bomber",
    )
    async def bomb(
        self, interaction: discord.Interaction[Any], space: str, targets: str = ""
    ) -> None:
        await play(interaction, f"bomb {space}" + (f" {targets}" if targets.strip() else ""))

    @ac.completes("intercept")
    @app_commands.command(
        name="intercept", description="Defender: your fighters that intercept a raid"
    )
    @app_commands.describe(
        space="The raided territory", units="e.g. 2 fighters, or none (default: all)"
    )
    async def intercept(
        self, interaction: discord.Interaction[Any], space: str, units: str = ""
    ) -> None:
        await play(interaction, f"intercept {space}" + (f" {units}" if units.strip() else ""))

    @ac.completes("air battle")
    @app_commands.command(
        name="airbattle", description="Attacker: fight the air battle of an intercepted raid"
    )
    @app_commands.describe(space="The raided territory")
    async def airbattle(self, interaction: discord.Interaction[Any], space: str) -> None:
        await play(interaction, f"air battle {space}")

    @ac.completes("scramble")
    @app_commands.command(
        name="scramble", description="Defender: planes that scramble from an air base to sea"
    )
    @app_commands.rename(frm="from")
    @app_commands.describe(
        frm="The territory with the air base (leave out with units none: from nowhere)",
        to="The sea zone beside it where they defend",
        units="e.g. 2 fighters, 1 tactical bomber, or none (default: all that may, up to 3)",
    )
    async def scramble(
        self, interaction: discord.Interaction[Any], frm: str = "", to: str = "", units: str = ""
    ) -> None:
        what = units.strip()
        if what.casefold() in ("none", "no", "0", "nothing"):
            text = "scramble none" + (f" from {frm}" if frm.strip() else "")
        else:
            text = f"scramble {what + ' ' if what else ''}from {frm} to {to}"
        await play(interaction, text)

    @ac.completes("bombard")
    @app_commands.command(
        name="bombard", description="Attacker: the ships that bombard a landing (before round 1)"
    )
    @app_commands.rename(frm="from")
    @app_commands.describe(
        space="The territory assaulted",
        frm="The sea zone the landing came from",
        units="e.g. 1 battleship, 1 cruiser",
    )
    async def bombard(
        self, interaction: discord.Interaction[Any], space: str, frm: str, units: str
    ) -> None:
        await play(interaction, f"bombard {space} from {frm} with {units}")

    @ac.completes("odds")
    @app_commands.command(
        name="odds", description="Battle odds: exact where feasible, else Monte Carlo"
    )
    @app_commands.describe(
        attackers="e.g. 3 infantry, 1 tank",
        defenders="e.g. 2 infantry",
        space="Optional: the space (territory or sea zone)",
        public=PUBLIC_HELP,
    )
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        attackers: str,
        defenders: str,
        space: str = "",
        public: bool = False,
    ) -> None:
        # Private by default: odds asked before an attack would announce the plan.
        text = f"odds {attackers} vs {defenders}" + (f" in {space}" if space.strip() else "")
        await self._read(interaction, text, public)

    @ac.completes("luck")
    @app_commands.command(name="luck", description="Hits rolled against hits expected")
    @app_commands.describe(space="Optional: one space's battles", public=PUBLIC_HELP)
    async def luck(
        self, interaction: discord.Interaction[Any], space: str = "", public: bool = False
    ) -> None:
        await self._read(interaction, f"luck {space}".strip(), public)

    async def _read(self, interaction: discord.Interaction[Any], text: str, public: bool) -> None:
        await begin(interaction, public)
        bot = umpire(interaction)
        result = await bot.service.handle(channel_key(interaction), person(interaction.user), text)
        await read(interaction, result, f"{interaction.user.display_name}: {text}", public=public)

    @dice.command(
        name="verify", description="Recompute revealed rounds' rolls from the revealed seeds"
    )
    @app_commands.describe(round="Only this round")
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        round: app_commands.Range[int, 1, 999] | None = None,
    ) -> None:
        await play(interaction, "dice verify" + ("" if round is None else f" {round}"))
