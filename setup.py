"""The optional C extension of the solver (klabsite/solver/_search.c); everything else is in
pyproject.toml. Without a C compiler the build skips it and the Python search cores are used."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("klabsite.solver._search", ["klabsite/solver/_search.c"], optional=True,
                  extra_compile_args=["-O2"]),
    ],
)
