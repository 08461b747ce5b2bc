// SPDX-License-Identifier: Apache-2.0
// A Parquet file read through its footer: the FileMetaData (src/parquet/format/footer.h)
// and, for every column chunk, where its Bloom filter is and whether it can
// be used, each filter judged on its own. Behind the C API of
// blockbloom/parquet_file.h (src/parquet/format/parquet_file.cc), its only user.
//
// Internal: not installed; the library is compiled with hidden visibility,
// so none of it is exported.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_FILE_INFO_H_
#define BLOCKBLOOM_PARQUET_FORMAT_FILE_INFO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/parquet/format/footer.h"

namespace blockbloom::internal {
namespace parquet {

// The bytes of a file: a regular file read with pread, or a buffer in memory
// the caller owns. Not copyable; closes its descriptor when destroyed.
//
// A file by path has its last kWindowBytes (all of it, when smaller) read at
// open in one pread and kept: the tail, the footer and, as writers put them
// just before the footer, the filters of a small file are then served from
// memory. A dataset of small files is read with one pread a file instead of
// one per range (magic, tail, footer, each header, each bitset).
class FileBytes {
 public:
  FileBytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  ~FileBytes();
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  static constexpr std::size_t kWindowBytes = std::size_t{64} << 10;

  // Opens a regular file and reads its window. BB_OK, or BB_ERR_PARQUET_IO
  // with *reason.
  static int OpenPath(const std::string& path, FileBytes** out, std::string* reason);

  std::uint64_t size() const { return size_; }
  // The whole file when it is in memory, else nullptr.
  const std::uint8_t* memory() const { return data_; }
  // out[0 .. length) = the bytes at offset (offset + length <= size()).
  // BB_OK, or BB_ERR_PARQUET_IO with *reason (a file that shrank).
  int Read(std::uint64_t offset, std::size_t length, std::uint8_t* out, std::string* reason) const;

 private:
  FileBytes(std::string path, int fd, std::uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}

  std::string path_;
  int fd_ = -1;
  std::vector<std::uint8_t> window_;  // the file's last window_.size() bytes
  const std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// One column chunk's Bloom filter as far as it could be checked. Compact
// (40 bytes): one per chunk, and a footer may hold millions of them.
struct FilterState {
  std::int64_t length = 0;          // bloom_filter_length, or header + numBytes; 0: unknown
  std::uint64_t header_offset = 0;
  std::uint64_t bitset_bytes = 0;   // checked only
  std::int32_t status = BB_ERR_PARQUET_NO_FILTER;  // BB_OK: usable
  std::uint32_t reason = 0;         // why not (ParquetFileInfo::reasons), when status is not BB_OK
  std::uint32_t header_bytes = 0;   // checked only (at most 1 MiB)
  bool checked = false;             // its header was read

  std::uint64_t bitset_offset() const { return header_offset + header_bytes; }  // checked only
};

struct ParquetFileInfo {
  FileMetaData meta;
  std::vector<FilterState> filters;  // one per chunk, as meta.chunks
  std::vector<std::string> reasons;  // each distinct reason once; [0] is ""
  bool has_file = false;             // false: from the FileMetaData bytes alone
  std::uint64_t metadata_offset = 0;  // has_file: where the FileMetaData starts
  std::uint32_t metadata_length = 0;

  const FilterState& filter(std::size_t row_group, std::size_t column) const {
    return filters[row_group * meta.columns.size() + column];
  }
  const std::string& reason(const FilterState& f) const { return reasons[f.reason]; }
};

// Reads the whole file through bytes: its tail, its footer, and each
// filter's BloomFilterHeader (each distinct offset once), within limits
// (null: the defaults). BB_OK, or the file's error (NOT_PARQUET,
// FOOTER_MALFORMED, IO, LIMIT, BUFFER_TOO_SMALL for a bad limits struct_size)
// with *reason; a bad filter is only its own status. May throw
// std::bad_alloc.
int ReadParquetFile(const FileBytes& bytes, const bb_parquet_limits* limits,
                    ParquetFileInfo* out, std::string* reason);

// The FileMetaData bytes alone: the footer, and what it says of each filter
// (an offset or length no file can have is malformed; nothing is checked).
int ReadFileMetaDataOnly(const std::uint8_t* data, std::size_t len,
                         const bb_parquet_limits* limits, ParquetFileInfo* out,
                         std::string* reason);

}  // namespace parquet
}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_FILE_INFO_H_
