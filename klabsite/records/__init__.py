"""Deal records: the ``.klab`` format, replaying records through the engine, score sheets.

- :mod:`~klabsite.records.klab`: reading and writing ``.klab`` files, ids (docs/record-format.md);
- :mod:`~klabsite.records.decks`: decks from a seed;
- :mod:`~klabsite.records.replay`: every deal of a record through its rules engine;
- :mod:`~klabsite.records.steps`: the steps of a replayed deal, each with its table;
- :mod:`~klabsite.records.tags`: the tag words that say what makes a deal interesting;
- :mod:`~klabsite.records.sheet`: score sheets (a match kept as results only);
- :mod:`~klabsite.records.undo`: a score sheet's undo history (the ``FILE.undo`` sidecar).
"""
