"""Command-line sub-commands of ``klabsite``: one module each (:mod:`~klabsite.commands.check`,
:mod:`~klabsite.commands.simulate`, :mod:`~klabsite.commands.analyse`,
:mod:`~klabsite.commands.score`, :mod:`~klabsite.commands.site` for ``build``, ``replay``,
``serve`` and ``i18n``, :mod:`~klabsite.commands.init`); each has ``register(subparsers)``,
which adds its parser.

What they share: :mod:`~klabsite.commands.help` (the parser, help texts and usage errors),
:mod:`klabsite.files` (safe writes, a folder lock, the report of a bug; the site's catalog
tools write through it too) and, for
``simulate``, :mod:`~klabsite.commands.simulation` (simulated records) and
:mod:`~klabsite.commands.find` (``--find``).
"""
