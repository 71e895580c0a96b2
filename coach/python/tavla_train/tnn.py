"""The network file (`.tnn`, written and read by src/nn/mlp.rs) on the Python side, in one place.

The file is a 12-byte header (magic `TVNN`, inputs, hidden as little-endian
u32) and then little-endian f32 weights: the input-major first layer, its
biases, the output-major second layer, its biases. The engine reads it with
`Mlp::from_bytes`; the numpy trainers (rank, calibrate) and the snapshot
average use these functions.
"""

from __future__ import annotations

import struct

import numpy as np

HEADER = 12
MAGIC = b"TVNN"


def average(blobs: list[bytes]) -> bytes:
    """Element-wise mean of the weights of `blobs`, which must share one header."""
    if not blobs:
        raise ValueError("no networks to average")
    header = blobs[0][:HEADER]
    for k, blob in enumerate(blobs):
        if blob[:4] != MAGIC:
            raise ValueError(f"network {k} is not a tavla network file (bad magic)")
        if blob[:HEADER] != header or len(blob) != len(blobs[0]):
            raise ValueError(f"network {k} has a different shape from network 0")
    weights = np.mean([np.frombuffer(b[HEADER:], dtype="<f4").astype(np.float64) for b in blobs], axis=0)
    return header + weights.astype("<f4").tobytes()


def read_network(blob: bytes) -> list[np.ndarray]:
    """The four weight arrays of a network file: w1 (inputs x hidden), b1, w2 (5 x hidden), b2."""
    if blob[:4] != MAGIC:
        raise SystemExit("not a tavla network file")
    inputs, hidden = struct.unpack("<II", blob[4:12])
    f = np.frombuffer(blob[12:], "<f4")
    sizes = [inputs * hidden, hidden, 5 * hidden, 5]
    if len(f) != sum(sizes):
        raise SystemExit("network file of the wrong length")
    parts = np.split(f, np.cumsum(sizes)[:-1])
    return [parts[0].reshape(inputs, hidden).copy(), parts[1].copy(), parts[2].reshape(5, hidden).copy(), parts[3].copy()]


def network_bytes(params: list[np.ndarray]) -> bytes:
    """The network file of the four arrays `read_network` gives."""
    w1 = params[0]
    return MAGIC + struct.pack("<II", *w1.shape) + b"".join(np.asarray(p, "<f4").tobytes() for p in params)


def with_inputs(blob: bytes, inputs: int) -> bytes:
    """The network with `inputs` inputs: new ones appended with zero weights (the network
    judges as before until training moves them), never fewer than it has."""
    w1, b1, w2, b2 = read_network(blob)
    if inputs < w1.shape[0]:
        raise SystemExit(f"the network has {w1.shape[0]} inputs: it cannot be cut to {inputs}")
    w1 = np.vstack([w1, np.zeros((inputs - w1.shape[0], w1.shape[1]), w1.dtype)])
    return network_bytes([w1, b1, w2, b2])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w1, b1, w2, b2 = params
    hidden = sigmoid(x @ w1 + b1)
    return hidden, sigmoid(hidden @ w2.T + b2)
