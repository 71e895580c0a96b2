"""tavla_train: tavla's training pipeline, outside the engine's wheel.

One command per stage (``python -m tavla_train STAGE --help``) and one that
rebuilds every shipped network from nothing with fixed seeds
(``python -m tavla_train rebuild --scale small``); see docs/training.md. The
Rust side is the training crate (coach/), whose module ``tavla_train._coach``
this package drives; checkpoints, position sets, labels and logs go into the
ignored data/ folder.
"""
