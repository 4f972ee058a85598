"""Battles: one battle model, two evaluators (issue 15, deliverable 4).

- ``model``: the rules of a battle round, stated once (sides, values, who may hit whom, the
  steps of a round per ruleset, the end of a battle); ``casualties``: the constraints on
  assigning hits and the referee's default casualties. No dice, no events, no game state.
- ``odds`` and ``odds_core``: the evaluator that computes exact distributions or Monte Carlo
  samples of a battle fought to the end.
- The combat, which rolls dice and emits events, is ``rules.combat`` (being moved here).

Modules here import each other without cycles (import-linter ``battle-acyclic``).
"""
