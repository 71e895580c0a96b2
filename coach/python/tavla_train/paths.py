"""Where the training package reads and writes: the repository (weights/ is
what the library compiles in) and its ignored data/ folder (checkpoints,
position sets, labels, logs). TAVLA_ROOT overrides the repository, for a
checkout that is not the one the package was installed from."""

from __future__ import annotations

import os
from pathlib import Path

# coach/python/tavla_train/paths.py: the repository is three folders up.
ROOT = Path(os.environ.get("TAVLA_ROOT") or Path(__file__).resolve().parents[3])
DATA = ROOT / "data"
WEIGHTS = ROOT / "weights"
