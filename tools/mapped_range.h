// A read-only memory mapping of bytes [offset, offset + length) of a file, or
// of everything from offset to the end of the file.
#ifndef BLOCKBLOOM_TOOLS_MAPPED_RANGE_H_
#define BLOCKBLOOM_TOOLS_MAPPED_RANGE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace blockbloom_cli {

class MappedRange {
 public:
  // Maps the range; throws CliError naming path if the file cannot be opened,
  // is not a regular file, or ends before offset + length. length must be > 0.
  MappedRange(const std::string& path, std::uint64_t offset, std::size_t length);
  // Maps from offset to the end of the file (for a header that says how long
  // its content is, or a file whose size is its content). An offset at the
  // end gives an empty range (size() 0, data() nullptr); past the end throws.
  MappedRange(const std::string& path, std::uint64_t offset);
  ~MappedRange();
  MappedRange(const MappedRange&) = delete;
  MappedRange& operator=(const MappedRange&) = delete;

  // The byte at the requested offset (generally not aligned).
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return length_; }

 private:
  // Maps [offset, offset + length) of the open file fd; length > 0.
  void Map(const std::string& path, int fd, std::uint64_t offset, std::size_t length);

  void* mapping_ = nullptr;  // page-aligned start of the mapping
  std::size_t mapping_size_ = 0;
  const unsigned char* data_ = nullptr;
  std::size_t length_ = 0;
};

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_MAPPED_RANGE_H_
