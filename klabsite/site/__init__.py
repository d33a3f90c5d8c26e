"""The static-site builder: load (``loader``) → render (``render``) → write (``writer``).

``python build.py`` or ``klabsite build`` builds ``_site/``; see :mod:`klabsite.site.build`.
"""
