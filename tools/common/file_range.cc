// SPDX-License-Identifier: Apache-2.0
#include "tools/common/file_range.h"

#include <sys/mman.h>
#include <unistd.h>

#include <limits>
#include <new>

#include "src/tools_interface.h"
#include "blockbloom/blockbloom.h"
#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

// The buffer's alignment: at least a page, so that a byte's address mod 4096
// can be made equal to its file offset mod 4096 (see FileRange::data).
constexpr std::size_t kPage = 4096;
// A buffer of at least a transparent huge page is aligned to one and advised
// to use them (as the library does for its own large bitsets): far fewer
// page faults while it is filled, and fewer TLB misses while keys are probed
// at random places in it.
using blockbloom::internal::kHugePage;

// An uninitialised buffer of size bytes, aligned to alignment.
unsigned char* AllocateAligned(std::size_t size, std::size_t alignment) {
  auto* p = static_cast<unsigned char*>(::operator new(size, std::align_val_t{alignment}));
  if (alignment == kHugePage) {
    ::madvise(p, size - size % kHugePage, MADV_HUGEPAGE);  // only a hint: failure is harmless
  }
  return p;
}

// Closes a descriptor when the constructor leaves, on success or by a throw.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens path, which must be a regular file; *size receives its size. The
// caller owns the returned descriptor.
int OpenRegularFile(const std::string& path, std::uint64_t* size) {
  int fd = -1;
  std::string reason;
  if (blockbloom::internal::OpenRegularFile(path, &fd, size, &reason) != BB_OK) throw CliError(reason);
  return fd;
}

// Fills [out, out + length) from the file's bytes at offset.
void ReadFully(const std::string& path, int fd, std::uint64_t offset, unsigned char* out,
               std::size_t length) {
  std::string reason;
  if (blockbloom::internal::ReadFully(path, fd, offset, out, length, &reason) != BB_OK) {
    throw CliError(reason);
  }
}

}  // namespace

void FileRange::AlignedDelete::operator()(unsigned char* p) const {
  ::operator delete(p, std::align_val_t{alignment});
}

FileRange::FileRange(const std::string& path, std::uint64_t offset, std::size_t length)
    : length_(length) {
  std::uint64_t file_size = 0;
  const FdCloser file{OpenRegularFile(path, &file_size)};
  if (offset > file_size || length > file_size - offset) {
    throw CliError(path + ": too short: --offset " + std::to_string(offset) + " + --bytes " +
                   std::to_string(length) + " runs past its " + std::to_string(file_size) +
                   " bytes");
  }
  Read(path, file.fd, offset, length);
}

FileRange::FileRange(const std::string& path, std::uint64_t offset) {
  std::uint64_t file_size = 0;
  const FdCloser file{OpenRegularFile(path, &file_size)};
  if (offset > file_size) {
    throw CliError(path + ": too short: --offset " + std::to_string(offset) + " is past its " +
                   std::to_string(file_size) + " bytes");
  }
  if (file_size - offset > std::numeric_limits<std::size_t>::max()) {
    throw CliError(path + ": the range does not fit in memory");
  }
  length_ = static_cast<std::size_t>(file_size - offset);
  if (length_ > 0) Read(path, file.fd, offset, length_);
}

void FileRange::Read(const std::string& path, int fd, std::uint64_t offset, std::size_t length) {
  const std::size_t skew = static_cast<std::size_t>(offset % kPage);
  const auto off_max = static_cast<std::uint64_t>(std::numeric_limits<off_t>::max());
  if (length > std::numeric_limits<std::size_t>::max() - skew || length > off_max ||
      offset > off_max - length) {
    throw CliError(path + ": the range does not fit in memory");
  }
  const std::size_t alignment = skew + length >= kHugePage ? kHugePage : kPage;
  try {
    // Not zeroed first: every byte is about to be read over.
    buffer_ = std::unique_ptr<unsigned char[], AlignedDelete>(
        AllocateAligned(skew + length, alignment), AlignedDelete{alignment});
  } catch (const std::bad_alloc&) {
    throw CliError(path + ": cannot hold " + std::to_string(length) + " bytes of it in memory");
  }
  data_ = buffer_.get() + skew;
  ReadFully(path, fd, offset, buffer_.get() + skew, length);
}

}  // namespace blockbloom_tools
