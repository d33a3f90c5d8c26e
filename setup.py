"""Packaging that pyproject.toml cannot say: the default site travels with the package.

``site_src/`` and ``locales/`` stay at the top of the repository, where people edit them; a wheel
carries them as the package data ``klabsite/_default/site_src`` and ``klabsite/_default/locales``
(see :mod:`klabsite.site.project`). Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

DEFAULT_SITE = {"klabsite._default.site_src": "site_src", "klabsite._default.locales": "locales"}

setup(
    packages=[*find_packages(include=["klabsite", "klabsite.*"]), *DEFAULT_SITE],
    package_dir=DEFAULT_SITE,
)
