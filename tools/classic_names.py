"""Space names for Classic: TripleA's ``classic.xml`` name -> our canonical name.

Our canonical names follow the rulebook digest (``rules/classic.md`` §3.3/§3.5) where it names a
space, and fix TripleA's misspellings; every TripleA name stays an alias, so players who know
the TripleA board are understood too. Both converters (``tools/import_triplea.py`` for the map
data, ``tools/import_geometry.py`` for the drawing) use this one table.
"""

from __future__ import annotations

RENAMES: dict[str, str] = {
    "East US": "Eastern United States",
    "West US": "Western United States",
    "Anglo Sudan Egypt": "Anglo-Egyptian Sudan",
    "Syria Jordan": "Syria-Iraq",
    "East Europe": "Eastern Europe",
    "West Europe": "Western Europe",
    "South Europe": "Southern Europe",
    "East Canada": "Eastern Canada",
    "West Canada": "Western Canada",
    "Antartic Sea Zone": "Antarctic Sea Zone",
    "Carribean Sea Zone": "Caribbean Sea Zone",
    "Central Mediteranean Sea Zone": "Central Mediterranean Sea Zone",
    "East Mediteranean Sea Zone": "East Mediterranean Sea Zone",
    "West Mediteranean Sea Zone": "West Mediterranean Sea Zone",
    "East US Sea Zone": "Eastern United States Sea Zone",
    "West US Sea Zone": "Western United States Sea Zone",
}

# Extra names players use (rulebook digest §3.3-§3.5): canonical name -> aliases.
EXTRA_ALIASES: dict[str, tuple[str, ...]] = {
    # Capitals by their cities (issue 13 item 13): Washington, Moscow, Berlin, London, Tokyo.
    "Eastern United States": ("Eastern U.S.", "Eastern US", "Washington"),
    "Russia": ("Moscow",),
    "Germany": ("Berlin",),
    "United Kingdom": ("London",),
    "Japan": ("Tokyo",),
    "Western United States": ("Western U.S.", "Western US"),
    "Soviet Far East": ("Eastern Russia",),
    "Ukraine S.S.R.": ("Ukraine",),
    "Karelia S.S.R.": ("Karelia", "Leningrad"),
    "Yakut S.S.R.": ("Yakut",),
    "Kazakh S.S.R.": ("Kazakh",),
    "Finland Norway": ("Finland-Norway",),
    "Hawaiian Islands": ("Hawaii",),
    "North Sea Zone": ("English Channel", "United Kingdom Sea Zone"),
    "West Mediterranean Sea Zone": ("Gibraltar Sea Zone",),
    "Central Mediterranean Sea Zone": ("Mediterranean",),
    "West Spain Sea Zone": ("Atlantic",),
}


def canonical(triplea_name: str) -> str:
    """Our name for a TripleA space name."""
    return RENAMES.get(triplea_name, triplea_name)
