# SPDX-License-Identifier: Apache-2.0
"""An independent model of what a Parquet writer puts in a Bloom filter:
XXH64 written from the xxHash specification (primes, four-lane rounds,
merge, tail, avalanche) and the split block filter written from the Parquet
format's description (BloomFilter.md), in plain Python, sharing nothing with
the library or with tests/cli/cli_support.py. Used by
parquet_files.logical_types_parquet() and the tests of its file.

Run directly, it checks the published XXH64 test vectors."""

import struct

MASK64 = (1 << 64) - 1
PRIME64_1 = 0x9E3779B185EBCA87
PRIME64_2 = 0xC2B2AE3D27D4EB4F
PRIME64_3 = 0x165667B19E3779F9
PRIME64_4 = 0x85EBCA77C2B2AE63
PRIME64_5 = 0x27D4EB2F165667C5

# Published vectors: (input, seed, XXH64).
KNOWN_VECTORS = [(b"", 0, 0xEF46DB3751D8E999), (b"a", 0, 0xD24EC4F1A98C6E5B),
                 (b"abc", 0, 0x44BC2CF5AD770999)]

SALTS = (0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,
         0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31)


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & MASK64


def _round(acc, lane):
    acc = (acc + lane * PRIME64_2) & MASK64
    return (_rotl(acc, 31) * PRIME64_1) & MASK64


def _merge(acc, val):
    acc ^= _round(0, val)
    return (acc * PRIME64_1 + PRIME64_4) & MASK64


def xxh64(data, seed=0):
    """XXH64 of bytes with a 64-bit seed."""
    data = bytes(data)
    n = len(data)
    p = 0
    if n >= 32:
        v = [(seed + PRIME64_1 + PRIME64_2) & MASK64, (seed + PRIME64_2) & MASK64,
             seed & MASK64, (seed - PRIME64_1) & MASK64]
        while p + 32 <= n:
            for i in range(4):
                v[i] = _round(v[i], struct.unpack_from("<Q", data, p + 8 * i)[0])
            p += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & MASK64
        for lane in v:
            h = _merge(h, lane)
    else:
        h = (seed + PRIME64_5) & MASK64
    h = (h + n) & MASK64
    while p + 8 <= n:
        h ^= _round(0, struct.unpack_from("<Q", data, p)[0])
        h = (_rotl(h, 27) * PRIME64_1 + PRIME64_4) & MASK64
        p += 8
    if p + 4 <= n:
        h ^= (struct.unpack_from("<I", data, p)[0] * PRIME64_1) & MASK64
        h = (_rotl(h, 23) * PRIME64_2 + PRIME64_3) & MASK64
        p += 4
    while p < n:
        h ^= (data[p] * PRIME64_5) & MASK64
        h = (_rotl(h, 11) * PRIME64_1) & MASK64
        p += 1
    h ^= h >> 33
    h = (h * PRIME64_2) & MASK64
    h ^= h >> 29
    h = (h * PRIME64_3) & MASK64
    h ^= h >> 32
    return h


def _block_and_masks(h, num_blocks):
    block = ((h >> 32) * num_blocks) >> 32
    key = h & 0xFFFFFFFF
    return block, [1 << (((key * salt) & 0xFFFFFFFF) >> 27) for salt in SALTS]


def split_block_bitset(hashes, num_bytes):
    """The bitset (num_bytes, a multiple of 32) holding the 64-bit hashes:
    block ((h >> 32) * blocks) >> 32, bit (key * salt[i]) >> 27 of its word i
    (key the low 32 bits); words little-endian."""
    num_blocks = num_bytes // 32
    words = [0] * (num_bytes // 4)
    for h in hashes:
        block, masks = _block_and_masks(h, num_blocks)
        for i, m in enumerate(masks):
            words[8 * block + i] |= m
    return struct.pack("<%dI" % len(words), *words)


def split_block_find(bitset, h):
    """Whether every bit of h is set in the bitset: the filter's maybe."""
    num_blocks = len(bitset) // 32
    block, masks = _block_and_masks(h, num_blocks)
    words = struct.unpack_from("<8I", bitset, 32 * block)
    return all(w & m == m for w, m in zip(words, masks))


def check_vectors():
    for data, seed, want in KNOWN_VECTORS:
        got = xxh64(data, seed)
        if got != want:
            raise AssertionError("XXH64(%r, %d) = %#x, not %#x" % (data, seed, got, want))


if __name__ == "__main__":
    check_vectors()
    print("xxh64_model: %d vectors agree" % len(KNOWN_VECTORS))
