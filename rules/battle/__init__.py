"""Battles: one battle model, two evaluators (issue 15, deliverable 4).

The model, stated once, with no dice, no events and no game state:

- ``model``: sides, casualty classes and hit categories, each unit's firing value and dice, who
  may hit whom, the steps of a round per ruleset, who strikes first, whose victims fire back,
  the end of a battle;
- ``casualties``: the constraints on assigning hits and the referee's default casualties.

The odds, which compute exact distributions or Monte Carlo samples of a battle fought to the
end, evaluate this model from the package ``odds`` above ``rules`` (its fastest method is array
arithmetic, which ``rules`` may not import).

The combat, which rolls dice, asks players and emits events (``rules.combat`` takes its orders):
``forces`` (the units of an open battle, as the model sees them), ``opening`` (finding
battles), ``rounds`` (the steps of a round), ``choice`` (casualty choices), ``retreat``,
``conclude`` (Step 7), and ``submerge`` (1941 SS-2/SS-3). Mechanisms of their own
(``rules/mechanisms/``) build on these modules; nothing here imports them.

Modules here import each other without cycles (import-linter ``battle-acyclic``).
"""
