"""The turn orders: ``/research``, ``/declare``, ``/buy``, ``/repair``, ``/move``, ``/rocket``,
``/place``, ``/end``, ``/undo``, ``/standing``.

Each command is the same line of the order language the local table reads; the service checks
that the person holds the power whose turn it is, and the rules check the order.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import _complete as ac
from cogs._batch import OrdersModal
from cogs._views import play


class OrdersCog(commands.Cog):
    """Orders of the power whose turn it is."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="research", description="Weapons development: buy research dice and roll them"
    )
    @app_commands.describe(dice="How many research dice to buy and roll (editions that have it)")
    async def research(
        self, interaction: discord.Interaction[Any], dice: app_commands.Range[int, 1, 99]
    ) -> None:
        await play(interaction, f"research {dice}")

    @ac.completes("declare war")
    @app_commands.command(
        name="declare", description="Declare war on a power of the other side (editions with "
        "politics)"
    )
    @app_commands.describe(power="The power you declare war on")
    async def declare(self, interaction: discord.Interaction[Any], power: str) -> None:
        await play(interaction, f"declare war on {power}")

    @ac.completes("buy")
    @app_commands.command(
        name="buy", description="Purchase units (cumulative; 'clear' empties the list)"
    )
    @app_commands.describe(units="e.g. 3 infantry, 1 tank — or: clear")
    async def buy(self, interaction: discord.Interaction[Any], units: str) -> None:
        await play(interaction, f"buy {units}")

    @ac.completes("repair")
    @app_commands.command(
        name="repair", description="Remove damage markers from your facility (1 IPC each)"
    )
    @app_commands.rename(where="in")
    @app_commands.describe(
        facility="e.g. major ic, air base, naval base",
        where="The territory of your damaged facility",
        markers="How many damage markers to remove (default: all of them)",
    )
    async def repair(
        self,
        interaction: discord.Interaction[Any],
        facility: str,
        where: str,
        markers: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        count = f"{markers} " if markers else ""
        await play(interaction, f"repair {count}{facility} in {where}")

    @ac.completes("move")
    @app_commands.command(
        name="move", description="Move units (combat or noncombat move, per phase)"
    )
    @app_commands.rename(frm="from")
    @app_commands.describe(
        units="e.g. 2 infantry, 1 tank",
        frm="Where the units are",
        to="Where they go (a sea zone loads onto transports; a coast offloads)",
        via="Spaces to pass through, comma-separated, when the path is ambiguous",
        raid="Bombers declare a strategic bombing raid on the target (editions that have it)",
        escort="Fighters escort the raid on the target (editions that have escorts)",
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        units: str,
        frm: str,
        to: str,
        via: str = "",
        raid: bool = False,
        escort: bool = False,
    ) -> None:
        text = f"move {units} from {frm} to {to}"
        if via.strip():
            text += f" via {via}"
        if raid:
            text += " raid"
        if escort:
            text += " escort"
        await play(interaction, text)

    @ac.completes("rocket")
    @app_commands.command(
        name="rocket", description="Rockets: an AA gun fires at an enemy industrial complex"
    )
    @app_commands.rename(frm="from", target="at")
    @app_commands.describe(
        frm="A territory with your antiaircraft gun",
        target="A territory with an enemy industrial complex in range",
    )
    async def rocket(self, interaction: discord.Interaction[Any], frm: str, target: str) -> None:
        await play(interaction, f"rocket {frm} at {target}")

    @ac.completes("place")
    @app_commands.command(name="place", description="Mobilize purchased units")
    @app_commands.rename(where="in")
    @app_commands.describe(
        units="e.g. 2 infantry", where="A territory with a factory, or its sea zone"
    )
    async def place(self, interaction: discord.Interaction[Any], units: str, where: str) -> None:
        await play(interaction, f"place {units} in {where}")

    @ac.completes("free units")
    @app_commands.command(
        name="free", description="A liberated power's free units, where the edition has them"
    )
    @app_commands.rename(where="in")
    @app_commands.describe(units="e.g. 2 infantry, 1 artillery", where="The liberated territory")
    async def free(self, interaction: discord.Interaction[Any], units: str, where: str) -> None:
        await play(interaction, f"free units {units} in {where}")

    @ac.completes("end")
    @app_commands.command(name="end", description="End the current phase")
    @app_commands.describe(
        phase="The phase to end (offered as you type: the current one); refused once it has "
        "passed, so a repeated /end never ends the next phase",
        confirm="End even if it forfeits something (e.g. unplaced units)",
    )
    async def end(
        self, interaction: discord.Interaction[Any], phase: str, confirm: bool = False
    ) -> None:
        await play(interaction, f"end {phase}" + (" confirm" if confirm else ""))

    @app_commands.command(
        name="undo", description="Take back your last order of this phase (not after dice)"
    )
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await play(interaction, "undo")

    @ac.completes("standing casualties")
    @app_commands.command(name="standing", description="A defender's default casualty order")
    @app_commands.describe(
        power="One of your powers",
        units="Unit types in the order they are lost, e.g. infantry, tank, fighter",
    )
    async def standing(self, interaction: discord.Interaction[Any], power: str, units: str) -> None:
        await play(interaction, f"standing casualties {power} {units}")

    @app_commands.command(
        name="orders", description="Several orders at once (a whole phase): paste one per line"
    )
    async def orders(self, interaction: discord.Interaction[Any]) -> None:
        # A modal must be the first answer to the interaction: no defer before it. The lines
        # are checked when it is submitted (cogs/_batch.py).
        await interaction.response.send_modal(OrdersModal())
