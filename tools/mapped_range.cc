#include "mapped_range.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>

#include "cli_error.h"

namespace blockbloom_cli {
namespace {

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
  // O_NONBLOCK: opening a FIFO for reading otherwise waits, forever, for a
  // writer, before fstat could tell that it is no regular file. It changes
  // nothing for a regular file, and is cleared once the file is known to be one.
  FdCloser file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) throw CliError(path + ": cannot open: " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw CliError(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw CliError(path + ": not a regular file");
  const int flags = ::fcntl(file.fd, F_GETFL);
  if (flags < 0 || ::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    throw CliError(path + ": cannot clear O_NONBLOCK: " + std::strerror(errno));
  }
  *size = static_cast<std::uint64_t>(info.st_size);
  const int fd = file.fd;
  file.fd = -1;  // handed to the caller
  return fd;
}

}  // namespace

MappedRange::MappedRange(const std::string& path, std::uint64_t offset, std::size_t length)
    : length_(length) {
  std::uint64_t file_size = 0;
  const FdCloser file{OpenRegularFile(path, &file_size)};
  if (offset > file_size || length > file_size - offset) {
    throw CliError(path + ": too short: --offset " + std::to_string(offset) + " + --bytes " +
                   std::to_string(length) + " runs past its " + std::to_string(file_size) +
                   " bytes");
  }
  Map(path, file.fd, offset, length);
}

MappedRange::MappedRange(const std::string& path, std::uint64_t offset) {
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
  if (length_ > 0) Map(path, file.fd, offset, length_);
}

void MappedRange::Map(const std::string& path, int fd, std::uint64_t offset, std::size_t length) {
  // mmap wants a page-aligned file offset: map from the page holding offset.
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t map_offset = offset - offset % page;
  const std::uint64_t map_size = offset - map_offset + length;
  if (map_size > std::numeric_limits<std::size_t>::max() ||
      map_offset > static_cast<std::uint64_t>(std::numeric_limits<off_t>::max())) {
    throw CliError(path + ": the range does not fit in memory");
  }
  mapping_size_ = static_cast<std::size_t>(map_size);
  mapping_ = ::mmap(nullptr, mapping_size_, PROT_READ, MAP_PRIVATE, fd,
                    static_cast<off_t>(map_offset));
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw CliError(path + ": cannot map: " + std::strerror(errno));
  }
  data_ = static_cast<const unsigned char*>(mapping_) + (offset - map_offset);
}

MappedRange::~MappedRange() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
}

}  // namespace blockbloom_cli
