"""Compiles the Boggle path walk (solver/paths.pyx); everything else about the package is in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import setup

setup(ext_modules=cythonize("solver/paths.pyx"))
