# SPDX-License-Identifier: Apache-2.0
"""A pure-numpy split block Bloom filter, written from the formulas of
../shared/design/facts.md and sharing nothing with the library: the tests'
independent model and bench.py's numpy baseline. Both layouts."""
import numpy as np

SALTS = np.array([0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,
                  0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31], dtype=np.uint32)
_U32 = np.uint64(32)
_CHUNK = 1 << 20  # keys per step: bounds the n x 8 temporaries


def splitmix64(seed, n):
    """tests/support/oracle.h's Hashes(seed, n): the stream the golden digests were made from."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def splitmix32(seed, n):
    """tests/support/oracle.h's Hashes32: bits 16..47 of the same stream."""
    return (splitmix64(seed, n) >> np.uint64(16)).astype(np.uint32)


class NumpyFilter:
    """layout "parquet" (uint64 hashes) or "kudu" (uint32 hashes); the bitset
    is `words`, little-endian uint32 lanes, lane i of block b at word 8b + i."""

    def __init__(self, num_bytes, layout="parquet"):
        self.layout = layout
        self.num_blocks = num_bytes // 32
        self.words = np.zeros(num_bytes // 4, dtype="<u4")

    def _blocks_and_keys(self, hashes):
        if self.layout == "parquet":
            hashes = np.asarray(hashes, dtype=np.uint64)
            blocks = ((hashes >> _U32) * np.uint64(self.num_blocks)) >> _U32
            return blocks, hashes.astype(np.uint32)
        keys = np.asarray(hashes, dtype=np.uint32)
        with np.errstate(over="ignore"):
            rehashed = (keys.astype(np.uint64) * np.uint64(0x7850F11EC6D14889)
                        + np.uint64(0x6773610597CA4C63)) >> _U32
        return rehashed & np.uint64(self.num_blocks - 1), keys

    @staticmethod
    def _masks(keys):
        with np.errstate(over="ignore"):
            return np.uint32(1) << ((keys[:, None] * SALTS[None, :]) >> np.uint32(27))

    def insert(self, hashes):
        hashes = np.ravel(hashes)
        for first in range(0, len(hashes), _CHUNK):
            blocks, keys = self._blocks_and_keys(hashes[first:first + _CHUNK])
            words = (blocks[:, None] * np.uint64(8) + np.arange(8, dtype=np.uint64)).ravel()
            masks = self._masks(keys).ravel()
            # OR the masks of equal words together (sorted runs), then into the bitset.
            order = np.argsort(words, kind="stable")
            words, masks = words[order], masks[order]
            starts = np.flatnonzero(np.r_[True, words[1:] != words[:-1]])
            self.words[words[starts]] |= np.bitwise_or.reduceat(masks, starts)

    def find(self, hashes):
        hashes = np.ravel(hashes)
        out = np.empty(len(hashes), dtype=bool)
        lanes = self.words.reshape(-1, 8)
        for first in range(0, len(hashes), _CHUNK):
            blocks, keys = self._blocks_and_keys(hashes[first:first + _CHUNK])
            masks = self._masks(keys)
            out[first:first + len(keys)] = ((lanes[blocks] & masks) == masks).all(axis=1)
        return out

    def tobytes(self):
        return self.words.tobytes()
