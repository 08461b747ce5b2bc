// SPDX-License-Identifier: Apache-2.0
// The Parquet serialization: the Thrift compact BloomFilterHeader parquet-mr
// writes, the bounds-checked reader (truncations, malformed and hostile input,
// unknown fields), and the real file from apache/parquet-testing.
//
// Buffers handed to the reader end exactly at an inaccessible guard page
// (see ExactBuffer), so any read past the end crashes the test, with or
// without ASan.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"
#include "blockbloom/parquet_format.h"

namespace {

using Bytes = std::vector<uint8_t>;

// What parquet-mr writes for numBytes = 1024 (bloom_filter.xxhash.bin).
const Bytes kHeader1024 = {0x15, 0x80, 0x10, 0x1c, 0x1c, 0x00, 0x00, 0x1c,
                           0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};

// The bytes under test end exactly where an inaccessible guard page begins,
// so reading one byte past data() + size() faults in any build (and ASan
// would report it too). Falls back to an exactly-sized heap copy where mmap
// is unavailable.
class ExactBuffer {
 public:
  explicit ExactBuffer(const Bytes& bytes) : size_(bytes.size()) {
#if defined(__unix__) || defined(__APPLE__)
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    map_bytes_ = ((size_ + page - 1) / page + 1) * page;
    void* map = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map != MAP_FAILED) {
      map_ = static_cast<uint8_t*>(map);
      uint8_t* guard = map_ + map_bytes_ - page;
      if (mprotect(guard, page, PROT_NONE) == 0) {
        data_ = guard - size_;
      } else {
        munmap(map_, map_bytes_);
        map_ = nullptr;
      }
    }
#endif
    if (data_ == nullptr) {
      heap_.reset(new uint8_t[size_]);
      data_ = heap_.get();
    }
    if (size_ > 0) std::memcpy(data_, bytes.data(), size_);
  }
  ~ExactBuffer() {
#if defined(__unix__) || defined(__APPLE__)
    if (map_ != nullptr) munmap(map_, map_bytes_);
#endif
  }
  ExactBuffer(const ExactBuffer&) = delete;
  ExactBuffer& operator=(const ExactBuffer&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  size_t size_;
  uint8_t* data_ = nullptr;
  uint8_t* map_ = nullptr;
  size_t map_bytes_ = 0;
  std::unique_ptr<uint8_t[]> heap_;
};

int ReadHeader(const Bytes& bytes, size_t* header_bytes = nullptr, size_t* num_bytes = nullptr) {
  ExactBuffer buf(bytes);
  // Passes the caller's values through, so a test sees what an error leaves.
  size_t h = header_bytes != nullptr ? *header_bytes : 0;
  size_t n = num_bytes != nullptr ? *num_bytes : 0;
  const int status = bb_parquet_header_read(buf.data(), buf.size(), &h, &n);
  if (header_bytes != nullptr) *header_bytes = h;
  if (num_bytes != nullptr) *num_bytes = n;
  return status;
}

// ---- A tiny Thrift compact writer for hand-made headers.
void Varint(Bytes* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}
uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
// Field header in short form (delta 1..15) from the previous id.
void Field(Bytes* out, int delta, uint8_t type) {
  out->push_back(static_cast<uint8_t>((delta << 4) | type));
}
// Field header in long form (absolute id).
void LongField(Bytes* out, int16_t id, uint8_t type) {
  out->push_back(type);
  Varint(out, ZigZag(id));
}
void Append(Bytes* out, std::initializer_list<uint8_t> bytes) { out->insert(out->end(), bytes); }
// A union field holding member `member` (an empty struct), with the given delta.
void UnionField(Bytes* out, int delta, int member) {
  Field(out, delta, 0x0c);
  Field(out, member, 0x0c);
  Append(out, {0x00, 0x00});
}
// numBytes as field 1, then the three unions with the given members.
Bytes Header(int64_t num_bytes, int algorithm = 1, int hash = 1, int compression = 1) {
  Bytes h;
  Field(&h, 1, 0x05);
  Varint(&h, ZigZag(num_bytes) & 0xffffffffu);
  UnionField(&h, 1, algorithm);
  UnionField(&h, 1, hash);
  UnionField(&h, 1, compression);
  h.push_back(0x00);
  return h;
}
Bytes WithBitset(Bytes header, size_t bitset_bytes) {
  header.resize(header.size() + bitset_bytes, 0);
  return header;
}

// The file from ../shared/testdata, or a skip reason. Never skips silently.
bool LoadTestFile(Bytes* bytes, std::string* why_not) {
  const char* dir = std::getenv("BLOCKBLOOM_TESTDATA");
  if (dir == nullptr || dir[0] == '\0') {
    *why_not = "shared testdata is absent: BLOCKBLOOM_TESTDATA is not set "
               "(meson test sets it to ../shared/testdata)";
    return false;
  }
  const std::string path = std::string(dir) + "/bloom_filter.xxhash.bin";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *why_not = "shared testdata is absent: " + path + " not found";
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// ------------------------------------------------------------------ writer

TEST(ParquetHeaderWrite, HeaderFor1024IsTheParquetMrBytes) {
  uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
  size_t written = 0;
  ASSERT_EQ(bb_parquet_header_write(1024, out, sizeof(out), &written), BB_OK);
  EXPECT_EQ(Bytes(out, out + written), kHeader1024);
}

TEST(ParquetHeaderWrite, HandMadeBuilderAgreesWithWriterForManySizes) {
  // Cross-checks the test's own Thrift builder against the library, so the
  // hand-made malformed headers below start from a correct base.
  for (size_t n : {size_t{32}, size_t{96}, size_t{1024}, size_t{1} << 20, size_t{0x7fffffe0}}) {
    uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
    size_t written = 0;
    ASSERT_EQ(bb_parquet_header_write_any_size(n, out, sizeof(out), &written), BB_OK) << n;
    EXPECT_EQ(Bytes(out, out + written), Header(static_cast<int64_t>(n))) << n;
  }
}

TEST(ParquetHeaderWrite, InvalidSizesAreRefused) {
  uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
  size_t written = 99;
  EXPECT_EQ(bb_parquet_header_write(0, out, sizeof(out), &written), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(written, 99u);  // out-parameters keep their contents on error
  EXPECT_EQ(bb_parquet_header_write(33, out, sizeof(out), &written), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_parquet_header_write(size_t{32} * BB_MAX_BLOCKS + 32, out, sizeof(out), &written),
            BB_ERR_TOO_MANY_BLOCKS);
  for (const auto write : {&bb_parquet_header_write, &bb_parquet_header_write_any_size}) {
    EXPECT_EQ(write(0, out, sizeof(out), &written), BB_ERR_SIZE_ZERO);
    EXPECT_EQ(write(33, out, sizeof(out), &written), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  }
  EXPECT_EQ(written, 99u);
}

// Arrow C++, Velox and ClickHouse refuse a bitset that is not a power of two
// from 32 B to 128 MiB, so the default writers do too; the _any_size ones
// write what a header can hold, and the reader takes both.
TEST(ParquetHeaderWrite, DefaultWritersTakeOnlySizesEveryReaderAccepts) {
  for (size_t n = 32; n <= (size_t{128} << 20); n *= 2) {
    EXPECT_EQ(bb_parquet_check_size(n), BB_OK) << n;
    uint8_t strict[BB_PARQUET_HEADER_MAX_BYTES], any[BB_PARQUET_HEADER_MAX_BYTES];
    size_t strict_n = 0, any_n = 0;
    ASSERT_EQ(bb_parquet_header_write(n, strict, sizeof strict, &strict_n), BB_OK) << n;
    ASSERT_EQ(bb_parquet_header_write_any_size(n, any, sizeof any, &any_n), BB_OK) << n;
    EXPECT_EQ(Bytes(strict, strict + strict_n), Bytes(any, any + any_n)) << n;
  }
  const size_t unsafe[] = {64 + 32, 32 * 7, 1344, 1316160, (size_t{128} << 20) + 32,
                           size_t{256} << 20, size_t{1} << 30, size_t{0x7fffffe0},
                           size_t{0x80000000}};
  for (size_t n : unsafe) {
    EXPECT_EQ(bb_parquet_check_size(n), BB_ERR_PARQUET_UNSAFE_SIZE) << n;
    Bytes out(BB_PARQUET_HEADER_MAX_BYTES, 0xab);
    size_t written = 55;
    EXPECT_EQ(bb_parquet_header_write(n, out.data(), out.size(), &written),
              BB_ERR_PARQUET_UNSAFE_SIZE) << n;
    EXPECT_EQ(written, 55u);
    EXPECT_EQ(out, Bytes(BB_PARQUET_HEADER_MAX_BYTES, 0xab));
  }
  EXPECT_EQ(bb_parquet_check_size(0), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_parquet_check_size(48), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_parquet_check_size(size_t{32} * BB_MAX_BLOCKS + 32), BB_ERR_TOO_MANY_BLOCKS);

  // A 3-block filter: refused by the default writer, untouched; written by
  // the explicit one; read back (reading stays lenient, as DuckDB's does).
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 96), BB_OK);
  ASSERT_EQ(bb_insert(&f, 0x26c7827d889f6da3ull), BB_OK);
  Bytes file(200, 0xcd);
  size_t written = 55;
  EXPECT_EQ(bb_parquet_filter_write(&f, file.data(), file.size(), &written),
            BB_ERR_PARQUET_UNSAFE_SIZE);
  EXPECT_EQ(written, 55u);
  EXPECT_EQ(file, Bytes(200, 0xcd));
  ASSERT_EQ(bb_parquet_filter_write_any_size(&f, file.data(), file.size(), &written), BB_OK);
  Bytes expected = Header(96);
  expected.insert(expected.end(), f.data, f.data + 96);
  EXPECT_EQ(Bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(written)), expected);
  bb_filter g;
  ASSERT_EQ(bb_parquet_filter_read(&g, file.data(), written, nullptr), BB_OK);
  EXPECT_EQ(g.num_bytes, 96u);
  EXPECT_EQ(bb_find(&g, 0x26c7827d889f6da3ull), 1);
  bb_filter_release(&g);
  bb_filter_release(&f);
}

TEST(ParquetHeaderWrite, SizesBeyondThriftI32AreRefusedWithHeaderNumBytes) {
  // numBytes is a Thrift i32: 32 * BB_MAX_BLOCKS is a valid filter size but
  // cannot be written into a Parquet header. The largest that can is
  // 2^31 - 32 (2^26 - 1 blocks).
  // (Only the _any_size writer gets that far: the default one stops at 128 MiB.)
  uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
  size_t written = 0;
  EXPECT_EQ(bb_parquet_header_write_any_size(size_t{32} * BB_MAX_BLOCKS, out, sizeof(out),
                                             &written),
            BB_ERR_HEADER_NUM_BYTES);
  EXPECT_EQ(bb_parquet_header_write_any_size(size_t{0x80000000}, out, sizeof(out), &written),
            BB_ERR_HEADER_NUM_BYTES);
  EXPECT_EQ(bb_parquet_header_write_any_size(size_t{0x7fffffe0}, out, sizeof(out), &written),
            BB_OK);
}

TEST(ParquetHeaderWrite, TooSmallBufferLeavesItUntouched) {
  for (size_t capacity = 0; capacity < kHeader1024.size(); ++capacity) {
    Bytes out(32, 0xab);
    size_t written = 99;
    EXPECT_EQ(bb_parquet_header_write(1024, out.data(), capacity, &written), BB_ERR_BUFFER_TOO_SMALL)
        << capacity;
    EXPECT_EQ(written, 99u);
    EXPECT_EQ(out, Bytes(32, 0xab)) << "capacity " << capacity;
  }
  Bytes out(16);
  size_t written = 0;
  EXPECT_EQ(bb_parquet_header_write(1024, out.data(), out.size(), &written), BB_OK);
  EXPECT_EQ(written, 16u);
}

TEST(ParquetHeaderWrite, NullPointers) {
  uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
  size_t written = 0;
  EXPECT_EQ(bb_parquet_header_write(1024, nullptr, sizeof(out), &written), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_header_write(1024, out, sizeof(out), nullptr), BB_ERR_NULL_POINTER);
}

// ------------------------------------------------------------ round trips

TEST(ParquetRoundTrip, HeaderWriteThenReadForManySizesIncludingOddBlockCounts) {
  const size_t sizes[] = {32,       64,         96,         32 * 7,      1024,      32 * 1001,
                          1u << 20, 32 * 65535, 32 * 65537, 0x7fffffe0u, 0x40000000u};
  for (size_t n : sizes) {
    uint8_t out[BB_PARQUET_HEADER_MAX_BYTES];
    size_t written = 0;
    ASSERT_EQ(bb_parquet_header_write_any_size(n, out, sizeof(out), &written), BB_OK) << n;
    // Header only: the announced bitset is absent...
    size_t header_bytes = 0;
    size_t num_bytes = 0;
    EXPECT_EQ(ReadHeader(Bytes(out, out + written)), BB_ERR_BITSET_TRUNCATED) << n;
    // ...or present (the bitset bytes are not read, so a header followed by
    // zeros of the right length stands in for the large sizes).
    if (n <= (1u << 20)) {
      EXPECT_EQ(ReadHeader(WithBitset(Bytes(out, out + written), n), &header_bytes, &num_bytes), BB_OK);
      EXPECT_EQ(header_bytes, written) << n;
      EXPECT_EQ(num_bytes, n);
    }
  }
}

TEST(ParquetRoundTrip, FilterWriteThenReadGivesIdenticalBitsAndAnswers) {
  std::mt19937_64 rng(42);
  for (size_t n : {size_t{32}, size_t{64}, size_t{96}, size_t{32 * 7}, size_t{1024}, size_t{32 * 1001},
                   size_t{1} << 20}) {
    bb_filter f;
    ASSERT_EQ(bb_filter_init(&f, n), BB_OK);
    std::vector<uint64_t> hashes(n / 8);
    for (auto& h : hashes) h = rng();
    ASSERT_EQ(bb_insert_batch(&f, hashes.data(), hashes.size()), BB_OK);

    Bytes file(16 + n + 7, 0xcd);
    size_t written = 0;
    const bool safe = (n & (n - 1)) == 0;  // the default writer takes powers of two only
    ASSERT_EQ(safe ? bb_parquet_filter_write(&f, file.data(), file.size(), &written)
                   : bb_parquet_filter_write_any_size(&f, file.data(), file.size(), &written),
              BB_OK)
        << n;
    ASSERT_GE(written, n);
    EXPECT_EQ(file[written], 0xcd) << "wrote past *written";
    file.resize(written);

    bb_filter g;
    size_t consumed = 0;
    ExactBuffer buf(file);
    ASSERT_EQ(bb_parquet_filter_read(&g, buf.data(), buf.size(), &consumed), BB_OK) << n;
    EXPECT_EQ(consumed, written);
    EXPECT_EQ(g.num_bytes, n);
    EXPECT_EQ(g.num_blocks, n / 32);
    EXPECT_EQ(g.layout, static_cast<uint32_t>(BB_LAYOUT_PARQUET));
    EXPECT_NE(g.flags & BB_FILTER_OWNED, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(g.data) % BB_ALLOC_ALIGNMENT, 0u);
    EXPECT_EQ(std::memcmp(g.data, f.data, n), 0) << n;
    for (uint64_t h : hashes) ASSERT_EQ(bb_find(&g, h), 1);
    bb_filter_release(&f);
    bb_filter_release(&g);
  }
}

TEST(ParquetRoundTrip, ReadsFromEveryUnalignedOffset) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  for (uint64_t h = 1; h < 200; ++h) ASSERT_EQ(bb_insert(&f, h * 0x9e3779b97f4a7c15ull), BB_OK);
  Bytes file(1040);
  size_t written = 0;
  ASSERT_EQ(bb_parquet_filter_write(&f, file.data(), file.size(), &written), BB_OK);
  ASSERT_EQ(written, 1040u);

  for (size_t offset = 1; offset < 64; ++offset) {
    // The file at `offset` bytes past a 64-byte boundary.
    std::unique_ptr<uint8_t[]> storage(new uint8_t[offset + file.size() + 63]);
    uint8_t* base = reinterpret_cast<uint8_t*>(
        (reinterpret_cast<uintptr_t>(storage.get()) + 63) & ~uintptr_t{63});
    uint8_t* at = base + offset;
    std::memcpy(at, file.data(), file.size());

    bb_filter g;
    size_t consumed = 0;
    ASSERT_EQ(bb_parquet_filter_read(&g, at, file.size(), &consumed), BB_OK) << offset;
    EXPECT_EQ(consumed, 1040u);
    EXPECT_EQ(std::memcmp(g.data, f.data, 1024), 0) << offset;
    bb_filter_release(&g);

    // In place: header_read + a read-only view over the unaligned bitset.
    size_t header_bytes = 0;
    size_t num_bytes = 0;
    ASSERT_EQ(bb_parquet_header_read(at, file.size(), &header_bytes, &num_bytes), BB_OK);
    bb_filter view;
    ASSERT_EQ(bb_filter_init_view_readonly(&view, at + header_bytes, num_bytes), BB_OK);
    for (uint64_t h = 1; h < 200; ++h) ASSERT_EQ(bb_find(&view, h * 0x9e3779b97f4a7c15ull), 1);
  }
  bb_filter_release(&f);
}

// ------------------------------------------------------------- real file

TEST(ParquetRealFile, ParquetMrFileReadsAndWritesBackByteForByte) {
  Bytes file;
  std::string why_not;
  if (!LoadTestFile(&file, &why_not)) GTEST_SKIP() << why_not;
  ASSERT_EQ(file.size(), 1040u);
  ExactBuffer buf(file);

  size_t header_bytes = 0;
  size_t num_bytes = 0;
  ASSERT_EQ(bb_parquet_header_read(buf.data(), buf.size(), &header_bytes, &num_bytes), BB_OK);
  EXPECT_EQ(header_bytes, 16u);
  EXPECT_EQ(num_bytes, 1024u);

  bb_filter f;
  size_t consumed = 0;
  ASSERT_EQ(bb_parquet_filter_read(&f, buf.data(), buf.size(), &consumed), BB_OK);
  EXPECT_EQ(consumed, 1040u);
  for (const char* word : {"hello", "parquet", "bloom", "filter"}) {
    EXPECT_EQ(bb_find(&f, XXH64(word, std::strlen(word), 0)), 1) << word;
  }

  Bytes out(1040);
  size_t written = 0;
  ASSERT_EQ(bb_parquet_filter_write(&f, out.data(), out.size(), &written), BB_OK);
  EXPECT_EQ(written, 1040u);
  EXPECT_EQ(out, file);
  bb_filter_release(&f);
}

// ----------------------------------------------------------- truncation

TEST(ParquetHeaderRead, EveryTruncationOfTheHeaderIsHeaderTruncated) {
  for (size_t len = 0; len < kHeader1024.size(); ++len) {
    const Bytes prefix(kHeader1024.begin(), kHeader1024.begin() + static_cast<std::ptrdiff_t>(len));
    size_t h = 99;
    size_t n = 99;
    EXPECT_EQ(ReadHeader(prefix, &h, &n), BB_ERR_HEADER_TRUNCATED) << "len " << len;
    EXPECT_EQ(h, 99u);  // untouched on error
    EXPECT_EQ(n, 99u);
    ExactBuffer buf(prefix);
    bb_filter f;
    EXPECT_EQ(bb_parquet_filter_read(&f, buf.data(), buf.size(), nullptr), BB_ERR_HEADER_TRUNCATED);
    EXPECT_EQ(f.data, nullptr);
  }
}

TEST(ParquetHeaderRead, EveryTruncationOfTheBitsetIsBitsetTruncated) {
  const Bytes file = WithBitset(kHeader1024, 1024);
  for (size_t len = 16; len < file.size(); len += (len < 64 ? 1 : 61)) {
    const Bytes prefix(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_EQ(ReadHeader(prefix), BB_ERR_BITSET_TRUNCATED) << "len " << len;
    ExactBuffer buf(prefix);
    bb_filter f;
    EXPECT_EQ(bb_parquet_filter_read(&f, buf.data(), buf.size(), nullptr), BB_ERR_BITSET_TRUNCATED);
  }
  EXPECT_EQ(ReadHeader(Bytes(file.begin(), file.end() - 1)), BB_ERR_BITSET_TRUNCATED);
  EXPECT_EQ(ReadHeader(file), BB_OK);
}

TEST(ParquetHeaderRead, TrailingBytesAfterTheBitsetAreNotConsumed) {
  ExactBuffer buf(WithBitset(kHeader1024, 1024 + 100));
  bb_filter f;
  size_t consumed = 0;
  ASSERT_EQ(bb_parquet_filter_read(&f, buf.data(), buf.size(), &consumed), BB_OK);
  EXPECT_EQ(consumed, 1040u);
  bb_filter_release(&f);
}

// --------------------------------------------------------------- numBytes

TEST(ParquetHeaderRead, NumBytesNegativeZeroOrNotAMultipleOf32IsHeaderNumBytes) {
  for (int64_t n : {int64_t{-32}, int64_t{-1}, int64_t{INT32_MIN}, int64_t{0}, int64_t{1}, int64_t{31},
                    int64_t{33}, int64_t{1000}, int64_t{INT32_MAX}}) {
    EXPECT_EQ(ReadHeader(WithBitset(Header(n), 2048)), BB_ERR_HEADER_NUM_BYTES) << n;
  }
}

TEST(ParquetHeaderRead, NumBytesLargerThanTheBufferIsBitsetTruncated) {
  EXPECT_EQ(ReadHeader(WithBitset(Header(2048), 1024)), BB_ERR_BITSET_TRUNCATED);
  EXPECT_EQ(ReadHeader(WithBitset(Header(0x7fffffe0), 64)), BB_ERR_BITSET_TRUNCATED);
}

TEST(ParquetHeaderRead, MissingRequiredFieldIsMalformed) {
  Bytes no_num_bytes;
  LongField(&no_num_bytes, 2, 0x0c);  // field 2 first, long form
  Append(&no_num_bytes, {0x1c, 0x00, 0x00});
  UnionField(&no_num_bytes, 1, 1);
  UnionField(&no_num_bytes, 1, 1);
  no_num_bytes.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(no_num_bytes, 64)), BB_ERR_HEADER_MALFORMED);

  Bytes no_compression;
  Field(&no_compression, 1, 0x05);
  Varint(&no_compression, ZigZag(32));
  UnionField(&no_compression, 1, 1);
  UnionField(&no_compression, 1, 1);
  no_compression.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(no_compression, 64)), BB_ERR_HEADER_MALFORMED);

  EXPECT_EQ(ReadHeader(Bytes{0x00}), BB_ERR_HEADER_MALFORMED);  // an empty struct
}

TEST(ParquetHeaderRead, KnownFieldWithTheWrongTypeIsMalformed) {
  Bytes h = {0x16};  // field 1 as i64
  Varint(&h, ZigZag(32));
  UnionField(&h, 1, 1);
  UnionField(&h, 1, 1);
  UnionField(&h, 1, 1);
  h.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(h, 64)), BB_ERR_HEADER_MALFORMED);

  Bytes u = {0x15, 0x40, 0x15, 0x00};  // field 2 as i32
  UnionField(&u, 1, 1);
  UnionField(&u, 1, 1);
  u.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(u, 64)), BB_ERR_HEADER_MALFORMED);
}

// ----------------------------------------------------------------- unions

TEST(ParquetHeaderRead, UnionMemberOtherThanOneIsUnsupported) {
  EXPECT_EQ(ReadHeader(WithBitset(Header(64, 2, 1, 1), 64)), BB_ERR_UNSUPPORTED_ALGORITHM);
  EXPECT_EQ(ReadHeader(WithBitset(Header(64, 1, 2, 1), 64)), BB_ERR_UNSUPPORTED_HASH);
  EXPECT_EQ(ReadHeader(WithBitset(Header(64, 1, 1, 2), 64)), BB_ERR_UNSUPPORTED_COMPRESSION);
  EXPECT_EQ(ReadHeader(WithBitset(Header(64, 15, 1, 1), 64)), BB_ERR_UNSUPPORTED_ALGORITHM);
  // The algorithm is judged before the size it announces.
  EXPECT_EQ(ReadHeader(WithBitset(Header(33, 2, 1, 1), 64)), BB_ERR_UNSUPPORTED_ALGORITHM);
}

TEST(ParquetHeaderRead, UnionMemberOfANonStructTypeIsSkippedOrRefused) {
  // Member 2 holding an i64 (an unknown future member): skipped, unsupported.
  Bytes h = {0x15, 0x80, 0x01, 0x1c, 0x26};
  Varint(&h, ZigZag(123456789));
  h.push_back(0x00);
  UnionField(&h, 1, 1);
  UnionField(&h, 1, 1);
  h.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(h, 64)), BB_ERR_UNSUPPORTED_ALGORITHM);
  // Member 1 (BLOCK) must be a struct.
  Bytes b = {0x15, 0x80, 0x01, 0x1c, 0x15, 0x02, 0x00};
  UnionField(&b, 1, 1);
  UnionField(&b, 1, 1);
  b.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(b, 64)), BB_ERR_HEADER_MALFORMED);
}

TEST(ParquetHeaderRead, UnionWithNoneOrTwoMembersIsMalformed) {
  Bytes empty = {0x15, 0x80, 0x01, 0x1c, 0x00};
  UnionField(&empty, 1, 1);
  UnionField(&empty, 1, 1);
  empty.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(empty, 64)), BB_ERR_HEADER_MALFORMED);

  Bytes two = {0x15, 0x80, 0x01, 0x1c, 0x1c, 0x00, 0x1c, 0x00, 0x00};
  UnionField(&two, 1, 1);
  UnionField(&two, 1, 1);
  two.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(two, 64)), BB_ERR_HEADER_MALFORMED);
}

// --------------------------------------------------------- unknown fields

TEST(ParquetHeaderRead, UnknownFieldsOfEveryTypeAreSkipped) {
  Bytes h = Header(64);
  h.pop_back();  // reopen the struct after field 4
  Field(&h, 1, 0x06);  // 5: i64, a 10-byte varint
  Varint(&h, ZigZag(INT64_MIN));
  Field(&h, 1, 0x08);  // 6: binary
  Varint(&h, 5);
  Append(&h, {'h', 'e', 'l', 'l', 'o'});
  Field(&h, 1, 0x01);  // 7: bool true
  Field(&h, 1, 0x02);  // 8: bool false
  Field(&h, 1, 0x03);  // 9: byte
  h.push_back(0xff);
  Field(&h, 1, 0x04);  // 10: i16
  Varint(&h, ZigZag(-300));
  Field(&h, 1, 0x07);  // 11: double
  Append(&h, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
  Field(&h, 1, 0x09);  // 12: list<i32> of 3
  h.push_back(0x35);
  Varint(&h, 1);
  Varint(&h, 2);
  Varint(&h, 3);
  Field(&h, 1, 0x0a);  // 13: set<bool> of 2 (one byte each)
  Append(&h, {0x21, 0x01, 0x02});
  Field(&h, 1, 0x09);  // 14: list<binary> of 20 (long-form count)
  h.push_back(0xf8);
  Varint(&h, 20);
  for (int i = 0; i < 20; ++i) Append(&h, {0x01, 'x'});
  Field(&h, 1, 0x0b);  // 15: map<i32, struct> of 2
  Varint(&h, 2);
  h.push_back(0x5c);
  Append(&h, {0x02, 0x15, 0x02, 0x00});  // 1 -> {1: 1}
  Append(&h, {0x04, 0x00});              // 2 -> {}
  LongField(&h, 100, 0x0b);  // 100: empty map (no key/value byte)
  h.push_back(0x00);
  LongField(&h, 200, 0x0c);  // 200: nested struct with its own unknowns
  Append(&h, {0x18, 0x02, 'a', 'b', 0x1c, 0x16, 0x04, 0x00, 0x00});
  LongField(&h, -5, 0x0d);  // -5: uuid
  h.insert(h.end(), 16, 0x11);
  LongField(&h, 32767, 0x05);  // 32767: i32
  Varint(&h, 7);
  h.push_back(0x00);

  size_t header_bytes = 0;
  size_t num_bytes = 0;
  ASSERT_EQ(ReadHeader(WithBitset(h, 64), &header_bytes, &num_bytes), BB_OK);
  EXPECT_EQ(header_bytes, h.size());
  EXPECT_EQ(num_bytes, 64u);
  // Cut anywhere inside those fields, the header is truncated.
  for (size_t len = kHeader1024.size() - 1; len < h.size(); ++len) {
    EXPECT_EQ(ReadHeader(Bytes(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(len))),
              BB_ERR_HEADER_TRUNCATED)
        << len;
  }
}

TEST(ParquetHeaderRead, UnknownFieldsInsideUnionMembersAreSkipped) {
  Bytes h = {0x15, 0x80, 0x01};
  Append(&h, {0x1c, 0x1c, 0x15, 0x02, 0x18, 0x01, 'z', 0x00, 0x00});  // BLOCK{1: 1, 2: "z"}
  UnionField(&h, 1, 1);
  UnionField(&h, 1, 1);
  h.push_back(0x00);
  EXPECT_EQ(ReadHeader(WithBitset(h, 64)), BB_OK);
}

TEST(ParquetHeaderRead, FieldsInAnyOrderAndLongFormIdsAreAccepted) {
  Bytes h;
  LongField(&h, 4, 0x0c);
  Append(&h, {0x1c, 0x00, 0x00});
  LongField(&h, 3, 0x0c);
  Append(&h, {0x1c, 0x00, 0x00});
  LongField(&h, 1, 0x05);
  Varint(&h, ZigZag(96));
  UnionField(&h, 1, 1);  // delta 1 from field 1: field 2
  h.push_back(0x00);
  size_t num_bytes = 0;
  EXPECT_EQ(ReadHeader(WithBitset(h, 96), nullptr, &num_bytes), BB_OK);
  EXPECT_EQ(num_bytes, 96u);
}

// ----------------------------------------------------- garbage and limits

TEST(ParquetHeaderRead, RepeatedFfBytesAreMalformed) {
  EXPECT_EQ(ReadHeader(Bytes(64, 0xff)), BB_ERR_HEADER_MALFORMED);
  EXPECT_EQ(ReadHeader(Bytes(1, 0xff)), BB_ERR_HEADER_MALFORMED);
}

TEST(ParquetHeaderRead, DeepNestingIsMalformedNotAStackOverflow) {
  // Unknown field 5, a struct holding a struct holding ... far past the limit.
  Bytes structs = {0x5c};
  structs.insert(structs.end(), 100000, 0x1c);
  EXPECT_EQ(ReadHeader(structs), BB_ERR_HEADER_MALFORMED);
  // Lists of lists.
  Bytes lists = Header(64);
  lists.pop_back();
  lists.push_back(0x19);
  for (int i = 0; i < 100000; ++i) lists.push_back(0x19);
  EXPECT_EQ(ReadHeader(lists), BB_ERR_HEADER_MALFORMED);
  // A map whose values are maps whose values are maps...
  Bytes maps = {0x5b};
  for (int i = 0; i < 100000; ++i) Append(&maps, {0x01, 0x5b, 0x00});
  EXPECT_EQ(ReadHeader(maps), BB_ERR_HEADER_MALFORMED);
}

TEST(ParquetHeaderRead, ShallowNestingThatEndsEarlyIsTruncated) {
  Bytes structs = {0x5c};
  structs.insert(structs.end(), 10, 0x1c);
  EXPECT_EQ(ReadHeader(structs), BB_ERR_HEADER_TRUNCATED);
}

TEST(ParquetHeaderRead, OverlongVarintsAreMalformed) {
  // numBytes as a 6-byte varint.
  Bytes i32 = {0x15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  EXPECT_EQ(ReadHeader(i32), BB_ERR_HEADER_MALFORMED);
  // A 5-byte varint carrying more than 32 bits.
  Bytes wide = {0x15, 0x80, 0x80, 0x80, 0x80, 0x10};
  EXPECT_EQ(ReadHeader(wide), BB_ERR_HEADER_MALFORMED);
  // The same value padded to 5 bytes is fine.
  Bytes padded = {0x15, 0x80, 0x82, 0x80, 0x80, 0x00};  // zigzag 256 -> 128
  UnionField(&padded, 1, 1);
  UnionField(&padded, 1, 1);
  UnionField(&padded, 1, 1);
  padded.push_back(0x00);
  size_t num_bytes = 0;
  EXPECT_EQ(ReadHeader(WithBitset(padded, 128), nullptr, &num_bytes), BB_OK);
  EXPECT_EQ(num_bytes, 128u);
  // An unknown i64 field with an 11-byte varint, and with 64+ bits in 10.
  Bytes i64 = Header(64);
  i64.pop_back();
  i64.push_back(0x16);
  i64.insert(i64.end(), 10, 0x80);
  i64.push_back(0x00);
  EXPECT_EQ(ReadHeader(i64), BB_ERR_HEADER_MALFORMED);
  Bytes i64_wide = Header(64);
  i64_wide.pop_back();
  i64_wide.push_back(0x16);
  i64_wide.insert(i64_wide.end(), 9, 0xff);
  i64_wide.push_back(0x02);
  EXPECT_EQ(ReadHeader(i64_wide), BB_ERR_HEADER_MALFORMED);
  // A long-form field id beyond i16.
  Bytes id = {0x05};
  Varint(&id, ZigZag(40000));
  EXPECT_EQ(ReadHeader(id), BB_ERR_HEADER_MALFORMED);
}

TEST(ParquetHeaderRead, InvalidTypesAndSizesAreMalformed) {
  EXPECT_EQ(ReadHeader(Bytes{0x1e, 0x00}), BB_ERR_HEADER_MALFORMED);  // type 14
  EXPECT_EQ(ReadHeader(Bytes{0x10, 0x00}), BB_ERR_HEADER_MALFORMED);  // type 0 with a delta
  Bytes list_of_stop = Header(64);
  list_of_stop.pop_back();
  Append(&list_of_stop, {0x59, 0x10, 0x00});  // list with element type 0
  EXPECT_EQ(ReadHeader(list_of_stop), BB_ERR_HEADER_MALFORMED);
  Bytes negative_binary = Header(64);
  negative_binary.pop_back();
  Append(&negative_binary, {0x58, 0xff, 0xff, 0xff, 0xff, 0x0f});  // length 2^32 - 1
  EXPECT_EQ(ReadHeader(negative_binary), BB_ERR_HEADER_MALFORMED);
}

TEST(ParquetHeaderRead, HugeAnnouncedLengthsAreTruncatedWithoutReadingPastTheEnd) {
  Bytes binary = Header(64);
  binary.pop_back();
  binary.push_back(0x58);
  Varint(&binary, 0x7fffffff);
  EXPECT_EQ(ReadHeader(binary), BB_ERR_HEADER_TRUNCATED);
  Bytes list = Header(64);
  list.pop_back();
  list.push_back(0x59);
  list.push_back(0xf3);  // list<byte>, long count
  Varint(&list, 0x7fffffff);
  list.insert(list.end(), 100, 0);
  EXPECT_EQ(ReadHeader(list), BB_ERR_HEADER_TRUNCATED);
}

TEST(ParquetHeaderRead, RandomMutationsNeverCrashAndGiveOnlyHeaderCodes) {
  // A deterministic fuzz: mutate the real header (plus an unknown field),
  // cut it anywhere; the reader must answer with a documented code. Under
  // ASan this also proves it never reads past the exactly-sized buffer.
  Bytes base = Header(64);
  base.pop_back();
  Append(&base, {0x19, 0x38, 0x01, 'a', 0x02, 'b', 'c', 0x01, 'd', 0x00});
  std::mt19937 rng(7);
  for (int iter = 0; iter < 100000; ++iter) {
    Bytes b = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) b[rng() % b.size()] = static_cast<uint8_t>(rng());
    b.resize(rng() % (b.size() + 80));
    const int status = ReadHeader(b);
    ASSERT_TRUE(status == BB_OK || status == BB_ERR_HEADER_TRUNCATED ||
                status == BB_ERR_HEADER_MALFORMED || status == BB_ERR_HEADER_NUM_BYTES ||
                status == BB_ERR_BITSET_TRUNCATED || status == BB_ERR_UNSUPPORTED_ALGORITHM ||
                status == BB_ERR_UNSUPPORTED_HASH || status == BB_ERR_UNSUPPORTED_COMPRESSION)
        << "iteration " << iter << " status " << status;
  }
}

// docs/reliability.md: on error out-parameters keep their contents (they
// used to be zeroed). Header read: every failure class, with pre-set outputs.
TEST(ParquetHeaderRead, ErrorsLeaveTheOutParametersUntouched) {
  const Bytes file = WithBitset(kHeader1024, 1024);
  const struct {
    Bytes bytes;
    int status;
  } cases[] = {
      {Bytes(kHeader1024.begin(), kHeader1024.begin() + 3), BB_ERR_HEADER_TRUNCATED},
      {Bytes(16, 0xff), BB_ERR_HEADER_MALFORMED},
      {Bytes(file.begin(), file.end() - 1), BB_ERR_BITSET_TRUNCATED},
  };
  for (const auto& c : cases) {
    size_t h = 77, n = 88;
    EXPECT_EQ(ReadHeader(c.bytes, &h, &n), c.status);
    EXPECT_EQ(h, 77u) << c.status;
    EXPECT_EQ(n, 88u) << c.status;
    size_t consumed = 66;
    ExactBuffer buf(c.bytes);
    bb_filter f;
    EXPECT_EQ(bb_parquet_filter_read(&f, buf.data(), buf.size(), &consumed), c.status);
    EXPECT_EQ(consumed, 66u) << c.status;
    EXPECT_EQ(f.data, nullptr);  // a failed read, like a failed init, leaves *f zeroed
  }
  size_t h = 77, n = 88;
  EXPECT_EQ(bb_parquet_header_read(nullptr, 16, &h, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_header_read(kHeader1024.data(), 16, nullptr, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_header_read(kHeader1024.data(), 16, &h, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(h, 77u);
  EXPECT_EQ(n, 88u);
}

// Header write and filter write: every failure keeps *written and the buffer.
TEST(ParquetHeaderWrite, ErrorsLeaveWrittenAndTheBufferUntouched) {
  for (size_t num_bytes : {size_t{0}, size_t{33}, size_t{96}, size_t{0x80000000}, size_t{1024}}) {
    Bytes out(BB_PARQUET_HEADER_MAX_BYTES, 0xab);
    size_t written = 55;
    const size_t capacity = num_bytes == 1024 ? 4 : out.size();  // 1024: too small a buffer
    EXPECT_NE(bb_parquet_header_write(num_bytes, out.data(), capacity, &written), BB_OK);
    EXPECT_EQ(written, 55u) << num_bytes;
    EXPECT_EQ(out, Bytes(BB_PARQUET_HEADER_MAX_BYTES, 0xab)) << num_bytes;
  }
  size_t written = 55;
  EXPECT_EQ(bb_parquet_header_write(1024, nullptr, 32, &written), BB_ERR_NULL_POINTER);
  EXPECT_EQ(written, 55u);
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 10, 0), BB_OK);
  Bytes out(2048, 0xab);
  EXPECT_EQ(bb_parquet_filter_write(&kudu, out.data(), out.size(), &written), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(bb_parquet_filter_write(nullptr, out.data(), out.size(), &written), BB_ERR_NULL_POINTER);
  EXPECT_EQ(written, 55u);
  EXPECT_EQ(out, Bytes(2048, 0xab));
  bb_filter_release(&kudu);
}

TEST(ParquetHeaderRead, NullPointers) {
  size_t h = 0;
  size_t n = 0;
  EXPECT_EQ(bb_parquet_header_read(nullptr, 16, &h, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_header_read(kHeader1024.data(), 16, nullptr, &n), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_header_read(kHeader1024.data(), 16, &h, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_filter_read(nullptr, kHeader1024.data(), 16, nullptr), BB_ERR_NULL_POINTER);
  bb_filter f;
  EXPECT_EQ(bb_parquet_filter_read(&f, nullptr, 16, nullptr), BB_ERR_NULL_POINTER);
}

// ------------------------------------------------------------ filter write

TEST(ParquetFilterWrite, TooSmallBufferIsRefusedAndLeftUntouched) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1024), BB_OK);
  ASSERT_EQ(bb_insert(&f, 12345), BB_OK);
  for (size_t capacity : {size_t{0}, size_t{15}, size_t{16}, size_t{1024}, size_t{1039}}) {
    Bytes out(1100, 0xab);
    size_t written = 99;
    EXPECT_EQ(bb_parquet_filter_write(&f, out.data(), capacity, &written), BB_ERR_BUFFER_TOO_SMALL)
        << capacity;
    EXPECT_EQ(written, 99u);
    EXPECT_EQ(out, Bytes(1100, 0xab)) << "capacity " << capacity;
  }
  Bytes exact(1040);
  size_t written = 0;
  EXPECT_EQ(bb_parquet_filter_write(&f, exact.data(), exact.size(), &written), BB_OK);
  EXPECT_EQ(written, 1040u);
  EXPECT_EQ(Bytes(exact.begin(), exact.begin() + 16), kHeader1024);
  bb_filter_release(&f);
}

TEST(ParquetFilterWrite, KuduLayoutFilterIsLayoutMismatch) {
  Bytes directory(64, 0);
  bb_kudu_directory d{};
  d.log_space_bytes = 6;
  d.bloom_data = directory.data();
  d.bloom_data_size = directory.size();
  d.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_import(&kudu, &d), BB_OK);
  Bytes out(200, 0xab);
  size_t written = 0;
  EXPECT_EQ(bb_parquet_filter_write(&kudu, out.data(), out.size(), &written), BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(out, Bytes(200, 0xab));
  bb_filter_release(&kudu);
}

TEST(ParquetFilterWrite, NullPointers) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 64), BB_OK);
  Bytes out(100);
  size_t written = 0;
  EXPECT_EQ(bb_parquet_filter_write(nullptr, out.data(), out.size(), &written), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_filter_write(&f, nullptr, out.size(), &written), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_parquet_filter_write(&f, out.data(), out.size(), nullptr), BB_ERR_NULL_POINTER);
  bb_filter released;
  ASSERT_EQ(bb_filter_init(&released, 64), BB_OK);
  bb_filter_release(&released);
  EXPECT_EQ(bb_parquet_filter_write(&released, out.data(), out.size(), &written), BB_ERR_NULL_POINTER);
  bb_filter_release(&f);
}

}  // namespace
