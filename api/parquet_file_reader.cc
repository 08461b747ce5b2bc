// SPDX-License-Identifier: Apache-2.0
#include "api/parquet_file_reader.h"

#include <unistd.h>

#include <algorithm>
#include <vector>

#include "api/bloom_filter_header.h"
#include "api/file_read.h"
#include "blockbloom/parquet_format.h"

namespace blockbloom {
namespace parquet {
namespace {

// A BloomFilterHeader longer than this (unknown fields can make it any
// length) is refused, so that a hostile one cannot make a reader of a file
// by path fetch the whole file to find where the header ends.
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
// How much is read first: any header a writer produces today (15 to 19 bytes).
constexpr std::size_t kFirstHeaderRead = 64;

FilterState Malformed(std::string reason) {
  FilterState f;
  f.status = BB_ERR_PARQUET_FOOTER_MALFORMED;
  f.reason = std::move(reason);
  return f;
}

// What the footer alone says of a chunk's filter: none, one whose offset or
// length no file could have, or one to look at (BB_OK, unchecked).
FilterState FromFooter(const Chunk& chunk) {
  FilterState f;
  if (!chunk.has_meta_data || !chunk.has_bloom_filter_offset) {
    f.reason = "the column chunk has no bloom_filter_offset";
    return f;
  }
  if (chunk.has_file_path) {
    f.status = BB_ERR_PARQUET_UNSUPPORTED;
    f.reason = "the column chunk's data is in another file (file_path \"" + chunk.file_path +
               "\"); its Bloom filter is not read from this one";
    return f;
  }
  if (chunk.bloom_filter_offset < 0) {
    return Malformed("bloom_filter_offset " + std::to_string(chunk.bloom_filter_offset) +
                     " is negative");
  }
  // A length of 0 or less describes no filter at all: that is the fault,
  // not where the filter would end.
  if (chunk.has_bloom_filter_length && chunk.bloom_filter_length <= 0) {
    return Malformed("bloom_filter_length " + std::to_string(chunk.bloom_filter_length) +
                     " is invalid (a filter's header and bitset take at least 1 byte)");
  }
  f.status = BB_OK;
  f.header_offset = static_cast<std::uint64_t>(chunk.bloom_filter_offset);
  if (chunk.has_bloom_filter_length) f.length = chunk.bloom_filter_length;
  return f;
}

// Parses the header at offset within available bytes of the file, reading
// more of it only while the header is cut short. BB_OK with *header_bytes and
// *num_bytes; a header code; or BB_ERR_PARQUET_IO with *reason.
int ReadHeader(const FileBytes& bytes, std::uint64_t offset, std::uint64_t available,
               std::size_t* header_bytes, std::size_t* num_bytes, std::string* reason) {
  const std::size_t limit =
      static_cast<std::size_t>(std::min<std::uint64_t>(available, kMaxHeaderBytes));
  std::vector<std::uint8_t> buffer;
  std::size_t have = bytes.memory() != nullptr ? limit : std::min(limit, kFirstHeaderRead);
  for (;;) {
    const std::uint8_t* start = nullptr;
    if (bytes.memory() != nullptr) {
      start = bytes.memory() + offset;
    } else {
      buffer.resize(have);
      const int status = bytes.Read(offset, have, buffer.data(), reason);
      if (status != BB_OK) return status;
      start = buffer.data();
    }
    const int status = ParseBloomFilterHeader(start, have, header_bytes, num_bytes);
    if (status != BB_ERR_HEADER_TRUNCATED || have == limit) {
      if (status == BB_ERR_HEADER_TRUNCATED && limit < available) {
        *reason = "the BloomFilterHeader is longer than " + std::to_string(kMaxHeaderBytes) +
                  " bytes";
        return BB_ERR_HEADER_MALFORMED;
      }
      if (status == BB_OK && *num_bytes > available - *header_bytes) {
        return BB_ERR_BITSET_TRUNCATED;
      }
      return status;
    }
    have = std::min(limit, have * 16);
  }
}

// Checks a filter the footer locates against the file's bytes: it must lie
// before the FileMetaData, which starts at footer_start.
FilterState Check(const Chunk& chunk, const FileBytes& bytes, std::uint64_t footer_start) {
  FilterState f = FromFooter(chunk);
  if (f.status != BB_OK) return f;
  const std::uint64_t size = bytes.size();
  const std::uint64_t offset = f.header_offset;
  if (offset >= size) {
    return Malformed("bloom_filter_offset " + std::to_string(offset) + " is outside the file (" +
                     std::to_string(size) + " bytes)");
  }
  if (offset >= footer_start) {
    return Malformed("bloom_filter_offset " + std::to_string(offset) +
                     " is inside the footer (which starts at " + std::to_string(footer_start) + ")");
  }
  std::uint64_t available = footer_start - offset;
  if (chunk.has_bloom_filter_length) {
    const auto length = static_cast<std::uint64_t>(chunk.bloom_filter_length);
    if (length > size - offset) {
      return Malformed("bloom_filter_length " + std::to_string(length) + " at offset " +
                       std::to_string(offset) + " runs past the end of the file (" +
                       std::to_string(size) + " bytes)");
    }
    if (length > available) {
      return Malformed("bloom_filter_length " + std::to_string(length) + " at offset " +
                       std::to_string(offset) + " runs into the footer (which starts at " +
                       std::to_string(footer_start) + ")");
    }
    available = length;
  }
  std::size_t header_bytes = 0;
  std::size_t num_bytes = 0;
  std::string reason;
  const int status = ReadHeader(bytes, offset, available, &header_bytes, &num_bytes, &reason);
  if (status != BB_OK) {
    f.status = status;
    f.reason = "BloomFilterHeader at offset " + std::to_string(offset) + ": " +
               (reason.empty() ? bb_status_message(status) : reason);
    return f;
  }
  f.checked = true;
  f.header_bytes = header_bytes;
  f.bitset_offset = offset + header_bytes;
  f.bitset_bytes = num_bytes;
  if (!chunk.has_bloom_filter_length) f.length = static_cast<std::int64_t>(header_bytes + num_bytes);
  return f;
}

}  // namespace

FileBytes::~FileBytes() {
  if (fd_ >= 0) ::close(fd_);
}

int FileBytes::OpenPath(const std::string& path, FileBytes** out, std::string* reason) {
  int fd = -1;
  std::uint64_t size = 0;
  const int status = OpenRegularFile(path, &fd, &size, reason);
  if (status != BB_OK) return status;
  try {
    *out = new FileBytes(path, fd, size);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return BB_OK;
}

int FileBytes::Read(std::uint64_t offset, std::size_t length, std::uint8_t* out,
                    std::string* reason) const {
  if (data_ != nullptr) {
    std::copy(data_ + offset, data_ + offset + length, out);
    return BB_OK;
  }
  return ReadFully(path_, fd_, offset, out, length, reason);
}

int ReadParquetFile(const FileBytes& bytes, ParquetFileInfo* out, std::string* reason) {
  std::uint8_t head[kMagicBytes] = {};
  std::uint8_t tail[kTailBytes] = {};
  const std::uint64_t size = bytes.size();
  if (size >= kMinFileBytes) {
    int status = bytes.Read(0, kMagicBytes, head, reason);
    if (status == BB_OK) status = bytes.Read(size - kTailBytes, kTailBytes, tail, reason);
    if (status != BB_OK) return status;
  }
  int status = LocateFileMetaData(size, head, tail, &out->metadata_offset, &out->metadata_length,
                                  reason);
  if (status != BB_OK) return status;
  std::vector<std::uint8_t> copy;
  const std::uint8_t* metadata = nullptr;
  if (bytes.memory() != nullptr) {
    metadata = bytes.memory() + out->metadata_offset;
  } else {
    copy.resize(out->metadata_length);
    status = bytes.Read(out->metadata_offset, copy.size(), copy.data(), reason);
    if (status != BB_OK) return status;
    metadata = copy.data();
  }
  status = ParseFileMetaData(metadata, out->metadata_length, &out->meta, reason);
  if (status != BB_OK) return status;
  copy = std::vector<std::uint8_t>();
  out->has_file = true;
  out->filters.reserve(out->meta.chunks.size());
  for (const Chunk& chunk : out->meta.chunks) {
    out->filters.push_back(Check(chunk, bytes, out->metadata_offset));
  }
  return BB_OK;
}

int ReadFileMetaDataOnly(const std::uint8_t* data, std::size_t len, ParquetFileInfo* out,
                         std::string* reason) {
  const int status = ParseFileMetaData(data, len, &out->meta, reason);
  if (status != BB_OK) return status;
  out->has_file = false;
  out->filters.reserve(out->meta.chunks.size());
  for (const Chunk& chunk : out->meta.chunks) out->filters.push_back(FromFooter(chunk));
  return BB_OK;
}

}  // namespace parquet
}  // namespace blockbloom
