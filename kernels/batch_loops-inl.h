// Batch loops shared by every tier. No include guard on purpose: each tier
// includes this inside its own namespace, after defining
//   uint32_t FindOne(const uint8_t* blocks, uint32_t num_blocks, uint64_t hash);  // 0 or 1
//   void InsertOne(uint8_t* blocks, uint32_t num_blocks, uint64_t hash);
// so the loops inline that tier's block operation and, inside a Highway
// target namespace, compile with that target's instruction set.
// Needs <cstddef> and <cstdint>.

inline void InsertBatch(uint8_t* blocks, uint32_t num_blocks, const uint64_t* hashes,
                        size_t n) {
  for (size_t i = 0; i < n; ++i) InsertOne(blocks, num_blocks, hashes[i]);
}

// Branch-free: absent keys are the common case in a selective join, and a
// mispredicted early exit costs more than the work it would skip.
inline size_t FindBatchBitmap(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint8_t* bitmap) {
  size_t hits = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint32_t byte = 0;
    for (uint32_t j = 0; j < 8; ++j) byte |= FindOne(blocks, num_blocks, hashes[i + j]) << j;
    bitmap[i / 8] = static_cast<uint8_t>(byte);
    hits += static_cast<size_t>(__builtin_popcount(byte));
  }
  if (i < n) {
    uint32_t byte = 0;
    for (uint32_t j = 0; i + j < n; ++j) byte |= FindOne(blocks, num_blocks, hashes[i + j]) << j;
    bitmap[i / 8] = static_cast<uint8_t>(byte);
    hits += static_cast<size_t>(__builtin_popcount(byte));
  }
  return hits;
}

// Writes every index and advances the cursor only on a hit: no branch, and
// selection has room for n entries, so the speculative store stays in bounds.
inline size_t FindBatchSelect(const uint8_t* blocks, uint32_t num_blocks,
                              const uint64_t* hashes, size_t n, uint32_t* selection) {
  size_t hits = 0;
  for (size_t i = 0; i < n; ++i) {
    selection[hits] = static_cast<uint32_t>(i);
    hits += FindOne(blocks, num_blocks, hashes[i]);
  }
  return hits;
}
