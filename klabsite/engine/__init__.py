"""The rules engine: cards, seats, options, actions and events, and the two games. Pure.

Nothing here reads or writes files, prints, draws random numbers, or imports Jinja or Babel; the
layers above (records, bots, the solver, the site, the command line) import the engine, never the
reverse (the import contract in pyproject.toml says so, and CI checks it).

- :mod:`~klabsite.engine.cards`, :mod:`~klabsite.engine.seats`, :mod:`~klabsite.engine.options`,
  :mod:`~klabsite.engine.actions`, :mod:`~klabsite.engine.events`, :mod:`~klabsite.engine.tricks`
  and :mod:`~klabsite.engine.match`: what both games share;
- :mod:`~klabsite.engine.deal`: the deal both engines build on (legal actions, verify, apply);
- :mod:`~klabsite.engine.klaberjass` (with :mod:`~klabsite.engine.melds`) and
  :mod:`~klabsite.engine.klaverjas` (with :mod:`~klabsite.engine.roem`): the two games;
- :mod:`~klabsite.engine.games`: the games by their record name;
- :mod:`~klabsite.engine.fast`: the unchecked bitmask path for bots and the solver;
- :mod:`~klabsite.engine.text`: quoting a player's text in messages.
"""
