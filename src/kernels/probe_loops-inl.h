// SPDX-License-Identifier: Apache-2.0
// The batch probes of a whole batch: find_batch_bitmap and
// find_batch_select, eight keys a bitmap byte. Needs src/kernels/chunk_loop-inl.h.
// No include guard on purpose: src/kernels/batch_loops-inl.h includes it inside each
// tier's namespace, so it compiles with what that tier provides (the tier
// contract: src/kernels/kernel_table-inl.h) and, inside a Highway target
// namespace, with that target's instructions.

// Up to eight keys of a chunk, from key i on, into one bitmap byte, key i + j
// at bit j (LSB first). Branch-free: absent keys are the common case in a
// selective join, and a mispredicted early exit costs more than the work it
// would skip. Where the find result is a carry flag, the last key goes first
// and each result shifts in at the bottom (one ADC a key); elsewhere each
// result is shifted to its bit and ORed in, which keeps the keys independent
// (a shift-in chain would cost two dependent instructions a key).
template <class C>
inline uint32_t FindByte(const C& c, size_t i, size_t count) {
  uint32_t byte = 0;
  if constexpr (kFindSetsCarry) {
    for (size_t j = count; j-- > 0;) byte = ShiftInFind(byte, c.Block(i + j), c.Key(i + j));
  } else {
    for (size_t j = 0; j < count; ++j) byte |= FindInBlock(c.Block(i + j), c.Key(i + j)) << j;
  }
  return byte;
}

// Runs group(i, count) for the groups of eight keys of a chunk in order
// (count = 8 but for the batch's last, partial group), prefetching ahead.
template <int kHint, class C, class Group>
inline void ForEachKeyGroup(const C& c, size_t distance, Group&& group) {
  const size_t prefix = PrefetchingPrefix<kHint>(c, distance, 8);
  size_t i = 0;
  for (; i < prefix; i += 8) {
    for (size_t j = 0; j < 8; ++j) PrefetchBlock<kHint>(c.AheadBlock(i + distance + j));
    group(i, size_t{8});
  }
  for (; i + 8 <= c.len; i += 8) group(i, size_t{8});  // unrolled: a constant count
  if (i < c.len) group(i, c.len - i);
}

// Runs byte_out(i, byte, count) for the bitmap bytes of a chunk in order.
template <int kHint, class C, class ByteOut>
inline void ForEachFindByte(const C& c, size_t distance, ByteOut&& byte_out) {
  ForEachKeyGroup<kHint>(c, distance, [&](size_t i, size_t count) {
    byte_out(i, FindByte(c, i, count), count);
  });
}

template <class Layout>
size_t FindBatchBitmap(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint8_t* bitmap) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    size_t total = 0;
    // Pointers captured by value and a local count, not references: the
    // byte stores may alias anything, so whatever is reached through a
    // reference would be reloaded (or stored) for every byte.
    ForEachChunk<Layout, kHint>(blocks, num_blocks, hashes, n, distance,
                                [=, &total](const auto& c) {
      uint8_t* out = bitmap + c.start / 8;
      size_t hits = 0;
      ForEachFindByte<kHint>(c, distance, [&](size_t i, uint32_t byte, size_t) {
        out[i / 8] = static_cast<uint8_t>(byte);  // a partial byte's high bits are 0
        hits += static_cast<size_t>(__builtin_popcount(byte));
      });
      total += hits;
    });
    return total;
  });
}

// The indices of the set bits among the first `count` of byte, first + j
// for bit j, to out[0 .. popcount): writes every index and advances the
// cursor only on a hit (no branch), so it writes no more than count entries.
inline size_t AppendHitIndices(uint32_t* out, uint32_t first, uint32_t byte, size_t count) {
  size_t hits = 0;
  for (size_t j = 0; j < count; ++j) {
    out[hits] = first + static_cast<uint32_t>(j);
    hits += (byte >> j) & 1u;
  }
  return hits;
}

// The loop of both selection kernels: the bitmap bytes of each chunk turned
// into its hits, appended after those of the chunks before.
// append(out, c, i, byte, count) writes the hits among keys i .. i + count
// of chunk c (bits of byte) to out and returns how many. Pointers captured
// by value and a local count, as in FindBatchBitmap.
template <class Layout, class Rows, class Append>
size_t SelectHits(const uint8_t* blocks, uint32_t num_blocks, Rows& rows, size_t n,
                  uint32_t* selection, Append append) {
  return WithPrefetchPlan(num_blocks, [&](auto hint, size_t distance) {
    constexpr int kHint = decltype(hint)::value;
    size_t total = 0;
    ForEachChunkOf<Layout, kHint>(blocks, num_blocks, rows, n, distance,
                                  [=, &total](const auto& c) {
      uint32_t* out = selection + total;
      size_t hits = 0;
      ForEachFindByte<kHint>(c, distance, [&](size_t i, uint32_t byte, size_t count) {
        hits += append(out + hits, c, i, byte, count);
      });
      total += hits;
    });
    return total;
  });
}

// The bitmap's bytes, turned into indices eight at a time (AppendHitIndices8:
// on the SIMD tiers a table of bit positions, widened and offset), so that
// selecting costs little more than the bitmap. A full group may write up to
// 8 entries at out + hits, and hits <= the group's first index, so it stays
// within the n entries selection has; the batch's last, partial group writes
// only its own.
template <class Layout>
size_t FindBatchSelect(const uint8_t* blocks, uint32_t num_blocks,
                       const typename Layout::Hash* hashes, size_t n, uint32_t* selection) {
  EveryRow<Layout> rows{hashes};
  return SelectHits<Layout>(blocks, num_blocks, rows, n, selection,
                            [](uint32_t* out, const auto& c, size_t i, uint32_t byte, size_t count) {
    const auto index = static_cast<uint32_t>(c.start + i);  // n < 2^32: the API checks it
    return count == 8 ? AppendHitIndices8(out, index, byte) : AppendHitIndices(out, index, byte, count);
  });
}
