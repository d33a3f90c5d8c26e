"""Packaging that pyproject.toml cannot say: the default site travels with the package, and the
solver's optional C extension is built. Everything else is in pyproject.toml.

``site_src/`` and ``locales/`` stay at the top of the repository, where people edit them; a wheel
carries them as the package data ``klabsite/_default/site_src`` and ``klabsite/_default/locales``
(see :mod:`klabsite.site.project`).

``klabsite.solver._search`` is the solver's search cores in C (klabsite/solver/_search.c). It is
optional: without a C compiler the build skips it and the solver uses its Python cores
(:mod:`klabsite.solver.native`).
"""

from setuptools import Extension, find_packages, setup

DEFAULT_SITE = {"klabsite._default.site_src": "site_src", "klabsite._default.locales": "locales",
                "klabsite._default.docs": "docs"}

setup(
    packages=[*find_packages(include=["klabsite", "klabsite.*"]), *DEFAULT_SITE],
    package_dir=DEFAULT_SITE,
    ext_modules=[
        Extension("klabsite.solver._search", ["klabsite/solver/_search.c"], optional=True,
                  extra_compile_args=["-O2"]),
    ],
)
