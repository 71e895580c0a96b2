"""The tavla hint service (``tavla serve``): a JSON API over HTTP and a web board.

Needs the ``serve`` extra: ``pip install "tavla[serve]"``.
"""

from .app import create_app
from .config import Settings, settings_from_env

__all__ = ["Settings", "create_app", "settings_from_env"]
