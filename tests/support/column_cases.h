// SPDX-License-Identifier: Apache-2.0
// Columns of every bb_column_type for the typed-column tests
// (tests/columns/column_*_test.cc), each with the bytes that must be hashed for each
// row, written down independently of the library:
// - Parquet: the plain encoding after the widening a writer does, built here
//   by shifting (little-endian whatever the host), hashed by the shared
//   libxxhash's XXH64;
// - Kudu: the cell's bytes, hashed by bb_kudu_fasthash32 (checked against
//   independent vectors in tests/hashing/hashing_test.cc; a single-value path that
//   shares no code with the column hashers).
// The first rows of each column are the type's edge values (INT8_MIN/MAX, 0,
// -1, UINT*_MAX, NaN payloads, -0.0/+0.0, empty strings, ...), the rest
// pseudo-random, so columns longer than a chunk (1024 rows) cross chunk and
// vector boundaries. Also: validity bitmaps, and the tier loop over the
// public bb_select_isa.
#ifndef BLOCKBLOOM_TESTS_COLUMN_CASES_H_
#define BLOCKBLOOM_TESTS_COLUMN_CASES_H_

#include <gtest/gtest.h>
#include <xxhash.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/column.h"
#include "blockbloom/hashing.h"
#include "isa_names.h"
#include "tools/common/splitmix64.h"

namespace coltest {

using Bytes = std::string;  // a row's bytes

// The little-endian bytes of the low `size` bytes of v.
inline Bytes LittleEndian(uint64_t v, size_t size) {
  Bytes b(size, '\0');
  for (size_t i = 0; i < size; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return b;
}

inline uint64_t ParquetReference(const Bytes& b) { return XXH64(b.data(), b.size(), 0); }

inline uint32_t KuduReference(const Bytes& b, uint32_t seed) {
  static const char kSome = 0;
  return bb_kudu_fasthash32(b.empty() ? &kSome : b.data(), b.size(), seed);  // non-NULL: empty rule
}

// Deterministic 64-bit values.
using Rng = blockbloom_tools::SplitMix64;

// A column and its buffers (the descriptor points into them; not copyable).
struct Case {
  std::string name;
  bb_column col = BB_COLUMN_INIT;  // validity NULL
  bool kudu = true;                // Kudu has a meaning for the type
  size_t value_width = 0;          // fixed-width: bytes per value; byte arrays: 0
  std::vector<Bytes> parquet;      // per row: what Parquet hashes
  std::vector<Bytes> cell;         // per row: what Kudu hashes (when kudu)
  std::vector<uint64_t> storage;   // values (8-byte aligned) or the data bytes
  std::vector<int32_t> offsets32;
  std::vector<int64_t> offsets64;

  Case() = default;
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  size_t size() const { return col.length; }
  uint64_t ParquetHash(size_t row) const { return ParquetReference(parquet[row]); }
  uint32_t KuduHash(size_t row, uint32_t seed) const { return KuduReference(cell[row], seed); }
};

using CasePtr = std::unique_ptr<Case>;

// A fixed-width column of `raw` values, each the `width` bytes the engine's
// buffer holds (the native bytes of the C value), with the bytes each layout
// must hash for it.
inline CasePtr FixedCase(const std::string& name, bb_column_type type, size_t width,
                         const std::vector<Bytes>& raw, const std::vector<Bytes>& parquet,
                         const std::vector<Bytes>& cell, bool kudu, size_t column_width = 0) {
  auto c = std::make_unique<Case>();
  c->name = name;
  c->kudu = kudu;
  c->parquet = parquet;
  c->cell = cell;
  c->storage.assign((raw.size() * width + 7) / 8 + 1, 0);
  auto* bytes = reinterpret_cast<uint8_t*>(c->storage.data());
  for (size_t i = 0; i < raw.size(); ++i) std::memcpy(bytes + i * width, raw[i].data(), width);
  c->value_width = width;
  c->col.type = type;
  c->col.width = column_width;
  c->col.length = raw.size();
  c->col.values = bytes;
  return c;
}

// The native bytes of a T (the engine's buffer).
template <typename T>
Bytes Native(T v) {
  Bytes b(sizeof v, '\0');
  std::memcpy(&b[0], &v, sizeof v);
  return b;
}

// n values of T: `edges` first, then pseudo-random ones.
template <typename T>
std::vector<T> ValuesOf(const std::vector<T>& edges, size_t n, uint64_t seed) {
  std::vector<T> v = edges;
  Rng rng(seed);
  while (v.size() < n) {
    const uint64_t bits = rng.Next() >> (rng.Next() % 64 < 16 ? rng.Next() % 64 : 0);
    T x;
    std::memcpy(&x, &bits, sizeof x);  // little-endian host: the low bytes
    v.push_back(x);
  }
  v.resize(n);
  return v;
}

// An integer column whose Parquet bytes are the value converted to Wide
// (INT32/INT64 after sign- or zero-extension) and whose Kudu cell is the
// value's own bytes.
template <typename T, typename Wide>
CasePtr IntegerCase(const std::string& name, bb_column_type type, const std::vector<T>& edges,
                    size_t n, bool kudu) {
  const std::vector<T> v = ValuesOf(edges, n, 0x1000 + type);
  std::vector<Bytes> raw, parquet, cell;
  for (T x : v) {
    raw.push_back(Native(x));
    parquet.push_back(LittleEndian(static_cast<uint64_t>(static_cast<Wide>(x)), sizeof(Wide)));
    cell.push_back(LittleEndian(static_cast<uint64_t>(x), sizeof(T)));
  }
  return FixedCase(name, type, sizeof(T), raw, parquet, cell, kudu);
}

template <typename T, typename Bits>
CasePtr FloatCase(const std::string& name, bb_column_type type, const std::vector<Bits>& edge_bits,
                  size_t n) {
  const std::vector<Bits> bits = ValuesOf(edge_bits, n, 0x2000 + type);
  std::vector<Bytes> raw, parquet;
  for (Bits b : bits) {
    T x;
    std::memcpy(&x, &b, sizeof x);
    raw.push_back(Native(x));
    parquet.push_back(LittleEndian(b, sizeof b));
  }
  return FixedCase(name, type, sizeof(T), raw, parquet, parquet, true);
}

// Arrow's writer: static_cast<int32_t>(ms / 86400000), C++ division (toward zero).
inline uint32_t Date64Days(int64_t ms) { return static_cast<uint32_t>(static_cast<uint64_t>(ms / 86400000)); }

inline CasePtr Date64Case(size_t n) {
  const int64_t day = 86400000;
  const std::vector<int64_t> edges = {0,         day,       -day,      -1,        day - 1,
                                      -day - 1,  1,         day * 19000 + 12345,
                                      std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max(),
                                      day * (int64_t{INT32_MAX} + 1),  // wraps to INT32_MIN
                                      day * int64_t{INT32_MIN} - day};
  const std::vector<int64_t> v = ValuesOf(edges, n, 0x3000);
  std::vector<Bytes> raw, days;
  for (int64_t x : v) {
    raw.push_back(Native(x));
    days.push_back(LittleEndian(Date64Days(x), 4));
  }
  return FixedCase("date64", BB_TYPE_DATE64, 8, raw, days, days, true);
}

// Raw byte values of `width` bytes each (INT96, FIXED_LEN_BYTE_ARRAY): the
// bytes are what both layouts hash.
inline CasePtr BytesEachCase(const std::string& name, bb_column_type type, size_t width, size_t n,
                             bool kudu) {
  Rng rng(0x4000 + width);
  std::vector<Bytes> raw;
  raw.push_back(Bytes(width, '\0'));
  raw.push_back(Bytes(width, '\xff'));
  while (raw.size() < n) {
    Bytes b(width, '\0');
    for (auto& ch : b) ch = static_cast<char>(rng.Next());
    raw.push_back(b);
  }
  raw.resize(n);
  return FixedCase(name, type, width, raw, raw, raw, kudu,
                   type == BB_TYPE_FIXED_LEN_BYTE_ARRAY ? width : 0);
}

// Strings, empty ones included, sliced (offsets[0] > 0) and with unused bytes
// after the last one.
inline CasePtr ByteArrayCase(bool large, size_t n) {
  auto c = std::make_unique<Case>();
  c->name = large ? "large_byte_array" : "byte_array";
  std::vector<Bytes> v = {"", "a", "hello", "", Bytes(1, '\0'), "parquet", Bytes(40, 'x'),
                          Bytes(200, 'y'), "", "bloom"};
  Rng rng(large ? 0x5001 : 0x5000);
  while (v.size() < n) {
    Bytes b(rng.Next() % 24, '\0');
    for (auto& ch : b) ch = static_cast<char>(rng.Next());
    v.push_back(b);
  }
  v.resize(n);
  Bytes data = "pre";  // a slice: the column starts at offset 3
  std::vector<int64_t> offsets = {3};
  for (const Bytes& s : v) {
    data += s;
    offsets.push_back(static_cast<int64_t>(data.size()));
  }
  data += "post";
  c->parquet = v;
  c->cell = v;
  c->storage.assign(data.size() / 8 + 1, 0);
  std::memcpy(c->storage.data(), data.data(), data.size());
  c->col.type = large ? BB_TYPE_LARGE_BYTE_ARRAY : BB_TYPE_BYTE_ARRAY;
  c->col.length = n;
  c->col.data = c->storage.data();
  c->col.data_len = data.size();
  if (large) {
    c->offsets64 = offsets;
    c->col.offsets = c->offsets64.data();
  } else {
    c->offsets32.assign(offsets.begin(), offsets.end());
    c->col.offsets = c->offsets32.data();
  }
  return c;
}

// One column of every type (and FIXED_LEN_BYTE_ARRAY of several widths), n rows each.
inline std::vector<CasePtr> AllCases(size_t n) {
  using L = std::numeric_limits<int8_t>;
  std::vector<CasePtr> cases;
  cases.push_back(IntegerCase<int8_t, int32_t>("int8", BB_TYPE_INT8,
                                               {L::min(), L::max(), 0, -1, 1, -2}, n, true));
  cases.push_back(IntegerCase<int16_t, int32_t>(
      "int16", BB_TYPE_INT16, {INT16_MIN, INT16_MAX, 0, -1, 1, 0x1234, -0x1234}, n, true));
  cases.push_back(IntegerCase<int32_t, int32_t>("int32", BB_TYPE_INT32,
                                                {INT32_MIN, INT32_MAX, 0, -1, 1}, n, true));
  cases.push_back(IntegerCase<int64_t, int64_t>("int64", BB_TYPE_INT64,
                                                {INT64_MIN, INT64_MAX, 0, -1, 1}, n, true));
  cases.push_back(IntegerCase<uint8_t, int32_t>("uint8", BB_TYPE_UINT8,
                                                {0, UINT8_MAX, 0x7f, 0x80, 1}, n, false));
  cases.push_back(IntegerCase<uint16_t, int32_t>("uint16", BB_TYPE_UINT16,
                                                 {0, UINT16_MAX, 0x7fff, 0x8000, 1}, n, false));
  cases.push_back(IntegerCase<uint32_t, uint32_t>("uint32", BB_TYPE_UINT32,
                                                  {0, UINT32_MAX, 0x7fffffffu, 0x80000000u}, n,
                                                  false));
  cases.push_back(IntegerCase<uint64_t, uint64_t>(
      "uint64", BB_TYPE_UINT64, {0, UINT64_MAX, 0x8000000000000000ull, 1}, n, false));
  cases.push_back(FloatCase<float, uint32_t>(
      "float", BB_TYPE_FLOAT,
      {0x00000000u, 0x80000000u /* -0.0 */, 0x3f800000u, 0x7f800000u, 0xff800000u,
       0x7fc00000u /* quiet NaN */, 0x7fc00001u, 0xffc12345u, 0x7f800001u /* signalling */,
       0x00000001u /* denormal */},
      n));
  cases.push_back(FloatCase<double, uint64_t>(
      "double", BB_TYPE_DOUBLE,
      {0x0ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0x7ff0000000000000ull,
       0x7ff8000000000000ull, 0x7ff8000000000001ull, 0xfff8dead0000beefull,
       0x7ff0000000000001ull, 0x1ull},
      n));
  cases.push_back(IntegerCase<int32_t, int32_t>("date32", BB_TYPE_DATE32,
                                                {0, -1, 19000, INT32_MIN, INT32_MAX}, n, true));
  cases.push_back(Date64Case(n));
  cases.push_back(IntegerCase<int32_t, int32_t>("time32", BB_TYPE_TIME32, {0, 86399999, -1}, n,
                                                false));
  cases.push_back(IntegerCase<int64_t, int64_t>(
      "time64", BB_TYPE_TIME64, {0, 86399999999999LL, -1}, n, false));
  cases.push_back(IntegerCase<int64_t, int64_t>(
      "timestamp", BB_TYPE_TIMESTAMP, {INT64_MIN, 0, 1700000000000000LL, INT64_MAX}, n, true));
  cases.push_back(BytesEachCase("int96", BB_TYPE_INT96, 12, n, false));
  for (size_t w : {1, 2, 4, 8, 12, 16, 17, 33}) {
    cases.push_back(BytesEachCase("flba" + std::to_string(w), BB_TYPE_FIXED_LEN_BYTE_ARRAY, w, n,
                                  true));
  }
  cases.push_back(ByteArrayCase(false, n));
  cases.push_back(ByteArrayCase(true, n));
  return cases;
}

// ---------------------------------------------------------------- validity

// A validity bitmap for n rows at bit offset `offset` (the bits before it
// are set to the opposite of what they guard, so a misread shows).
struct Validity {
  std::vector<uint8_t> bytes;
  size_t offset = 0;
  std::vector<bool> valid;  // per row

  bool Valid(size_t row) const { return valid[row]; }
  size_t CountValid() const {
    size_t k = 0;
    for (bool b : valid) k += b;
    return k;
  }
};

// pattern: 0 random (about 1 in 4 null), 1 all null, 2 none null, 3 one
// chunk of nulls among valid rows (rows 1024 .. 2047), 4 alternating.
inline Validity MakeValidity(size_t n, size_t offset, int pattern, uint64_t seed) {
  Validity v;
  v.offset = offset;
  v.valid.resize(n);
  Rng rng(seed);
  for (size_t i = 0; i < n; ++i) {
    switch (pattern) {
      case 0: v.valid[i] = rng.Next() % 4 != 0; break;
      case 1: v.valid[i] = false; break;
      case 2: v.valid[i] = true; break;
      case 3: v.valid[i] = i < 1024 || i >= 2048; break;
      default: v.valid[i] = i % 2 == 0; break;
    }
  }
  // Bits outside [offset, offset + n) are random garbage.
  v.bytes.resize((offset + n + 7) / 8 + 2);
  for (auto& b : v.bytes) b = static_cast<uint8_t>(rng.Next());
  for (size_t i = 0; i < n; ++i) {
    const size_t bit = offset + i;
    if (v.valid[i]) {
      v.bytes[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    } else {
      v.bytes[bit / 8] &= static_cast<uint8_t>(~(1u << (bit % 8)));
    }
  }
  return v;
}

inline bool BitAt(const uint8_t* bitmap, size_t i) { return ((bitmap[i / 8] >> (i % 8)) & 1) != 0; }

// --------------------------------------------------------------- the tiers

// Runs a test once per tier with that tier selected process-wide through
// the public bb_select_isa (every column call uses the selected tier's
// kernels); a tier this build or CPU cannot run is skipped with the reason.
class PerTier : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    saved_ = bb_selected_isa();
    if (bb_isa_supported(GetParam()) == 0) {
      GTEST_SKIP() << "ISA skipped: " << GetParam() << " is not compiled or this CPU cannot run it";
    }
    ASSERT_EQ(bb_select_isa(GetParam()), BB_OK);
    ASSERT_STREQ(bb_selected_isa(), GetParam());
  }
  void TearDown() override { bb_select_isa(saved_.c_str()); }

 private:
  std::string saved_;
};

inline std::string TierName(const ::testing::TestParamInfo<const char*>& info) { return info.param; }

}  // namespace coltest

#define COLTEST_INSTANTIATE_PER_TIER(Suite) \
  INSTANTIATE_TEST_SUITE_P(Tier, Suite, ::testing::ValuesIn(::bbtest::RegistryIsaNames()), ::coltest::TierName)

#endif  // BLOCKBLOOM_TESTS_COLUMN_CASES_H_
