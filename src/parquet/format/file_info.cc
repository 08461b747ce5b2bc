// SPDX-License-Identifier: Apache-2.0
#include "src/parquet/format/file_info.h"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <vector>

#include "src/parquet/format/bloom_filter_header.h"
#include "src/parquet/format/pread_file.h"
#include "blockbloom/parquet_format.h"

namespace blockbloom::internal {
namespace parquet {
namespace {

// A BloomFilterHeader longer than this (unknown fields can make it any
// length) is refused, so that a hostile one cannot make a reader of a file
// by path fetch the whole file to find where the header ends.
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
// How much is read first: any header a writer produces today (15 to 19 bytes).
constexpr std::size_t kFirstHeaderRead = 64;

// A FilterState and, when it is not BB_OK, why (interned by Reasons).
struct Judged {
  FilterState state;
  std::string reason;
};

Judged Malformed(std::string reason) {
  Judged j;
  j.state.status = BB_ERR_PARQUET_FOOTER_MALFORMED;
  j.reason = std::move(reason);
  return j;
}

// ParquetFileInfo::reasons built with each distinct text once (most chunks
// of a hostile footer share theirs), counted against the memory budget.
class Reasons {
 public:
  Reasons(std::vector<std::string>* texts, MemoryBudget* budget)
      : texts_(texts), budget_(budget) {
    texts_->assign(1, std::string());
  }
  // The index of text, or false when keeping it passes the budget.
  bool Intern(const std::string& text, std::uint32_t* index) {
    const auto known = index_.find(text);
    if (known != index_.end()) {
      *index = known->second;
      return true;
    }
    // The text twice (the list and the index, each a heap block past the
    // small-string buffer), the list's string as it grows (twice) and the
    // index's string in a hash node with its bucket.
    if (!budget_->Charge(2 * (text.size() + 32) + 3 * sizeof(std::string) + 64)) return false;
    *index = static_cast<std::uint32_t>(texts_->size());
    texts_->push_back(text);
    index_.emplace(text, *index);
    return true;
  }

 private:
  std::vector<std::string>* texts_;
  MemoryBudget* budget_;
  std::unordered_map<std::string, std::uint32_t> index_;
};

// What the footer alone (its bytes: footer) says of a chunk's filter: none,
// one whose offset or length no file could have, or one to look at (BB_OK,
// unchecked).
Judged FromFooter(const Chunk& chunk, const std::uint8_t* footer) {
  Judged j;
  FilterState& f = j.state;
  if (!chunk.has_meta_data || !chunk.has_bloom_filter_offset) {
    j.reason = "the column chunk has no bloom_filter_offset";
    return j;
  }
  if (chunk.has_file_path) {
    f.status = BB_ERR_PARQUET_UNSUPPORTED;
    j.reason = "the column chunk's data is in another file (file_path \"" +
               std::string(reinterpret_cast<const char*>(footer) + chunk.file_path_pos,
                           chunk.file_path_len) +
               "\"); its Bloom filter is not read from this one";
    return j;
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
  return j;
}

// One parse of the BloomFilterHeader at an offset, with all the bytes up to
// the footer, made once however many chunks point there: a hostile footer
// can aim every chunk at one 1 MiB header. Each chunk's bloom_filter_length
// is then judged against it.
struct HeaderParse {
  int status = BB_OK;       // a header code, or BB_ERR_PARQUET_IO
  std::string io_reason;    // BB_ERR_PARQUET_IO only
  std::size_t header_bytes = 0;
  std::size_t num_bytes = 0;
};

// Parses the header at offset within available bytes of the file, reading
// more of it only while the header is cut short.
HeaderParse ParseAt(const FileBytes& bytes, std::uint64_t offset, std::uint64_t available) {
  const std::size_t limit =
      static_cast<std::size_t>(std::min<std::uint64_t>(available, kMaxHeaderBytes));
  HeaderParse p;
  std::vector<std::uint8_t> buffer;
  std::size_t have = bytes.memory() != nullptr ? limit : std::min(limit, kFirstHeaderRead);
  for (;;) {
    const std::uint8_t* start = nullptr;
    if (bytes.memory() != nullptr) {
      start = bytes.memory() + offset;
    } else {
      buffer.resize(have);
      p.status = bytes.Read(offset, have, buffer.data(), &p.io_reason);
      if (p.status != BB_OK) return p;
      start = buffer.data();
    }
    p.status = ParseBloomFilterHeader(start, have, &p.header_bytes, &p.num_bytes);
    if (p.status != BB_ERR_HEADER_TRUNCATED || have == limit) return p;
    have = std::min(limit, have * 16);
  }
}

// What the header parsed as p, from the `available` bytes up to the footer,
// means for its filter: BB_OK (the bitset is there too), a header code, or
// BB_ERR_PARQUET_IO, with *reason when the code alone does not say it.
int Verdict(const HeaderParse& p, std::uint64_t available, std::string* reason) {
  if (p.status == BB_ERR_PARQUET_IO) *reason = p.io_reason;
  if (p.status == BB_ERR_HEADER_TRUNCATED && available > kMaxHeaderBytes) {
    *reason = "the BloomFilterHeader is longer than " + std::to_string(kMaxHeaderBytes) + " bytes";
    return BB_ERR_HEADER_MALFORMED;
  }
  if (p.status != BB_OK) return p.status;
  if (p.num_bytes > available - p.header_bytes) return BB_ERR_BITSET_TRUNCATED;
  return BB_OK;
}

// Each distinct offset's header, parsed when a chunk first needs it.
using HeaderCache = std::unordered_map<std::uint64_t, HeaderParse>;
// What an entry of the cache holds, counted against the memory budget: a
// footer may give every chunk an offset of its own.
constexpr std::uint64_t kHeaderCacheEntryCost = sizeof(HeaderParse) + 6 * sizeof(void*);

// Checks a filter the footer locates against the file's bytes: it must lie
// before the FileMetaData, which starts at footer_start.
// A Judged of status BB_ERR_PARQUET_LIMIT (no chunk's own status) when the
// cache would pass the budget: the open fails with its reason.
Judged Check(const Chunk& chunk, const std::uint8_t* footer, const FileBytes& bytes,
             std::uint64_t footer_start, HeaderCache* headers, MemoryBudget* budget) {
  Judged j = FromFooter(chunk, footer);
  FilterState& f = j.state;
  if (f.status != BB_OK) return j;
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
  const std::uint64_t available = footer_start - offset;
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
  }
  auto parsed = headers->find(offset);
  if (parsed == headers->end()) {
    if (!budget->Charge(kHeaderCacheEntryCost)) {
      Judged over;
      over.state.status = BB_ERR_PARQUET_LIMIT;
      over.reason = "footer limit: " +
                    budget->Exceeded("the BloomFilterHeaders of its " +
                                     std::to_string(headers->size() + 1) + " filter offsets");
      return over;
    }
    parsed = headers->emplace(offset, ParseAt(bytes, offset, available)).first;
  }
  const HeaderParse& p = parsed->second;
  const auto where = [offset] {
    return "BloomFilterHeader at offset " + std::to_string(offset) + ": ";
  };
  // The header and the footer each say how long the filter is. Where they
  // disagree neither can be trusted (a bitset probed over fewer bytes than
  // were written answers "absent" for values it holds; over more, it reads
  // bytes that are no filter), so the filter is not used at all.
  const std::uint64_t total = std::uint64_t{p.header_bytes} + p.num_bytes;
  if (p.status == BB_OK && chunk.has_bloom_filter_length &&
      total != static_cast<std::uint64_t>(chunk.bloom_filter_length)) {
    return Malformed(where() + "numBytes " + std::to_string(p.num_bytes) + " (+ " +
                     std::to_string(p.header_bytes) + " header bytes = " + std::to_string(total) +
                     ") disagrees with bloom_filter_length " +
                     std::to_string(chunk.bloom_filter_length));
  }
  std::string reason;
  const int status = Verdict(p, available, &reason);
  if (status != BB_OK) {
    f.status = status;
    j.reason = where() + (reason.empty() ? bb_status_message(status) : reason);
    return j;
  }
  f.checked = true;
  f.header_bytes = static_cast<std::uint32_t>(p.header_bytes);  // at most kMaxHeaderBytes
  f.bitset_bytes = p.num_bytes;
  if (!chunk.has_bloom_filter_length) f.length = static_cast<std::int64_t>(total);
  return j;
}

// Judges every chunk with judge(chunk) into out->filters and out->reasons.
template <typename Judge>
int JudgeChunks(ParquetFileInfo* out, MemoryBudget* budget, std::string* reason, Judge judge) {
  const std::size_t n = out->meta.chunks.size();
  if (!budget->Charge(static_cast<std::uint64_t>(n) * sizeof(FilterState))) {
    *reason = "footer limit: " + budget->Exceeded("the state of its " + std::to_string(n) +
                                                  " column chunks' filters");
    return BB_ERR_PARQUET_LIMIT;
  }
  Reasons reasons(&out->reasons, budget);
  out->filters.reserve(n);
  for (const Chunk& chunk : out->meta.chunks) {
    Judged j = judge(chunk);
    if (j.state.status == BB_ERR_PARQUET_LIMIT) {
      *reason = j.reason;
      return BB_ERR_PARQUET_LIMIT;
    }
    if (j.state.status != BB_OK && !reasons.Intern(j.reason, &j.state.reason)) {
      *reason = "footer limit: " + budget->Exceeded("the reasons its column chunks' filters "
                                                    "cannot be used");
      return BB_ERR_PARQUET_LIMIT;
    }
    out->filters.push_back(j.state);
  }
  return BB_OK;
}

// The limits for a FileMetaData of len bytes, or the error of a bad struct.
int Resolve(const bb_parquet_limits* limits, std::uint64_t len, FooterLimits* out,
            std::string* reason) {
  const int status = FooterLimits::Resolve(limits, len, out);
  if (status != BB_OK) *reason = "bb_parquet_limits: struct_size is smaller than a size_t";
  return status;
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
  std::unique_ptr<FileBytes> bytes;
  try {
    bytes.reset(new FileBytes(path, fd, size));
  } catch (...) {
    ::close(fd);
    throw;
  }
  const std::size_t window = static_cast<std::size_t>(std::min<std::uint64_t>(size, kWindowBytes));
  bytes->window_.resize(window);
  const int read = ReadFully(path, fd, size - window, bytes->window_.data(), window, reason);
  if (read != BB_OK) return read;
  *out = bytes.release();
  return BB_OK;
}

int FileBytes::Read(std::uint64_t offset, std::size_t length, std::uint8_t* out,
                    std::string* reason) const {
  if (data_ != nullptr) {
    std::copy(data_ + offset, data_ + offset + length, out);
    return BB_OK;
  }
  const std::uint64_t window_start = size_ - window_.size();
  if (offset >= window_start && offset <= size_ && length <= size_ - offset) {
    std::copy_n(window_.data() + (offset - window_start), length, out);
    return BB_OK;
  }
  return ReadFully(path_, fd_, offset, out, length, reason);
}

int ReadParquetFile(const FileBytes& bytes, const bb_parquet_limits* limits,
                    ParquetFileInfo* out, std::string* reason) {
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
  FooterLimits resolved;
  status = Resolve(limits, out->metadata_length, &resolved, reason);
  if (status != BB_OK) return status;
  MemoryBudget budget(resolved.max_memory);
  status = ParseFileMetaData(metadata, out->metadata_length, resolved, &budget, &out->meta, reason);
  if (status != BB_OK) return status;
  out->has_file = true;
  HeaderCache headers;
  return JudgeChunks(out, &budget, reason, [&](const Chunk& chunk) {
    return Check(chunk, metadata, bytes, out->metadata_offset, &headers, &budget);
  });
}

int ReadFileMetaDataOnly(const std::uint8_t* data, std::size_t len,
                         const bb_parquet_limits* limits, ParquetFileInfo* out,
                         std::string* reason) {
  FooterLimits resolved;
  int status = Resolve(limits, len, &resolved, reason);
  if (status != BB_OK) return status;
  MemoryBudget budget(resolved.max_memory);
  status = ParseFileMetaData(data, len, resolved, &budget, &out->meta, reason);
  if (status != BB_OK) return status;
  out->has_file = false;
  return JudgeChunks(out, &budget, reason,
                     [&](const Chunk& chunk) { return FromFooter(chunk, data); });
}

}  // namespace parquet
}  // namespace blockbloom::internal
