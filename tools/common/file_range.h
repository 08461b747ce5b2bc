// SPDX-License-Identifier: Apache-2.0
// Bytes [offset, offset + length) of a regular file, or everything from
// offset to the end of the file, read into memory the tool owns.
//
// Read, not mapped: a mapping of a file that another process truncates
// meanwhile kills the tool with SIGBUS at the first touch of a vanished page.
// A read that comes up short is an error naming the file instead, and once
// read, the bytes cannot change or vanish under the probe.
#ifndef BLOCKBLOOM_TOOLS_COMMON_FILE_RANGE_H_
#define BLOCKBLOOM_TOOLS_COMMON_FILE_RANGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace blockbloom_tools {

class FileRange {
 public:
  // Reads the range; throws CliError naming path if the file cannot be
  // opened, is not a regular file (a FIFO or device is refused at once, never
  // waited for), ends before offset + length, or shrinks while it is read.
  // length must be > 0.
  FileRange(const std::string& path, std::uint64_t offset, std::size_t length);
  // Reads from offset to the end of the file (for a header that says how long
  // its content is, or a file whose size is its content). An offset at the
  // end gives an empty range (size() 0, data() nullptr); past the end throws.
  FileRange(const std::string& path, std::uint64_t offset);

  // The byte at the requested offset. Its address mod the page size equals
  // offset mod the page size, as in a mapping of the file: a bitset is probed
  // with the alignment it has in the file (what aligncheck reports).
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return length_; }

 private:
  // Reads [offset, offset + length) of the open file fd; length > 0.
  void Read(const std::string& path, int fd, std::uint64_t offset, std::size_t length);

  // Frees the buffer with the alignment it was allocated with.
  struct AlignedDelete {
    std::size_t alignment;
    void operator()(unsigned char* p) const;
  };
  std::unique_ptr<unsigned char[], AlignedDelete> buffer_{nullptr, AlignedDelete{0}};
  const unsigned char* data_ = nullptr;
  std::size_t length_ = 0;
};

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_FILE_RANGE_H_
