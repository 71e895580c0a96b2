"""The ``tavla`` command line, as a package.

- ``registry``: the one list of sub-commands (``COMMANDS``) and ``main``, the dispatch;
- ``arguments``: what the command modules share (``--rule``, checker counts, reading a position);
- one module per group of commands: ``positions`` (``moves``, ``show``), ``engine``
  (``cube``, ``hint``, ``eval``), ``games`` (``play``, ``duel``), ``serve`` (``serve``),
  ``diagnostics`` (``bench``, ``bearoff``).

``tavla.cli:main`` is the ``tavla`` script's entry point (and ``python -m tavla``'s).
"""

from .registry import main

__all__ = ["main"]
