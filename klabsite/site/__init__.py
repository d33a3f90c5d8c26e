"""The static-site builder: load (``loader``) → render (``render``) → write (``writer``).

``python build.py`` or ``klabsite build`` builds ``_site/``; see :mod:`klabsite.site.build`.

The modules, in the order a build uses them:

- the build: :mod:`~klabsite.site.build` (the recipe), :mod:`~klabsite.site.config` (the
  settings), :mod:`~klabsite.site.project` (which site), :mod:`~klabsite.site.cache` (rebuilding
  only what changed) and :mod:`~klabsite.site.errors` (a message at a file and line);
- loading: :mod:`~klabsite.site.loader`, :mod:`~klabsite.site.sources` (files of the source tree),
  :mod:`~klabsite.site.catalogs` and :mod:`~klabsite.site.po_syntax` (the translations),
  :mod:`~klabsite.site.replays` (the shipped deals as plain values) and
  :mod:`~klabsite.site.titles` (their titles);
- the rules pages: :mod:`~klabsite.site.markdown_ext` (the Markdown pipeline),
  :mod:`~klabsite.site.blocks` (translatable blocks), :mod:`~klabsite.site.directives`,
  :mod:`~klabsite.site.pictures` and :mod:`~klabsite.site.deal_links` (what ``[[klab:…]]`` draws),
  :mod:`~klabsite.site.glossary` (the terms and the links to them) and
  :mod:`~klabsite.site.checks` (what the build checks in their words);
- rendering: :mod:`~klabsite.site.render` (every page to bytes), :mod:`~klabsite.site.pages`
  (one page), :mod:`~klabsite.site.replay_pages` (the replay pages) and
  :mod:`~klabsite.site.replay_parts` (their parts drawn once and reused),
  :mod:`~klabsite.site.pagework` (on every core), :mod:`~klabsite.site.i18n` (one language's
  words and numbers), :mod:`~klabsite.site.views` and :mod:`~klabsite.site.components` (what the
  macros draw), :mod:`~klabsite.site.guard` (what no page may hold) and
  :mod:`~klabsite.site.linkcheck` (every link reaches its page);
- writing and after: :mod:`~klabsite.site.writer` (the one function that touches the output),
  :mod:`~klabsite.site.server` (``klabsite serve``) and :mod:`~klabsite.site.i18n_tools` (``klabsite
  i18n``).
"""
