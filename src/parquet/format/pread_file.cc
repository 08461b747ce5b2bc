// SPDX-License-Identifier: Apache-2.0
#include "src/parquet/format/pread_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "blockbloom/blockbloom.h"

namespace blockbloom::internal {

int OpenRegularFile(const std::string& path, int* fd, std::uint64_t* size, std::string* reason) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits, forever, for a
  // writer, before fstat could tell that it is no regular file. It changes
  // nothing for a regular file, and is cleared once the file is known to be one.
  const int opened = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (opened < 0) {
    *reason = path + ": cannot open: " + std::strerror(errno);
    return BB_ERR_PARQUET_IO;
  }
  struct stat info {};
  std::string problem;
  if (::fstat(opened, &info) != 0) {
    problem = std::string("cannot stat: ") + std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    problem = "not a regular file";
  } else {
    // F_SETFL sets only the status flags (O_APPEND, O_ASYNC, O_DIRECT,
    // O_NOATIME, O_NONBLOCK), of which the open set O_NONBLOCK alone: 0
    // clears it without an F_GETFL first (one call a file, in a dataset walk).
    if (::fcntl(opened, F_SETFL, 0) != 0) {
      problem = std::string("cannot clear O_NONBLOCK: ") + std::strerror(errno);
    }
  }
  if (!problem.empty()) {
    ::close(opened);
    *reason = path + ": " + problem;
    return BB_ERR_PARQUET_IO;
  }
  *fd = opened;
  *size = static_cast<std::uint64_t>(info.st_size);
  return BB_OK;
}

int ReadFully(const std::string& path, int fd, std::uint64_t offset, std::uint8_t* out,
              std::size_t length, std::string* reason) {
  constexpr std::size_t kMaxChunk = std::size_t{1} << 30;
  std::size_t done = 0;
  while (done < length) {
    const std::size_t want = std::min(length - done, kMaxChunk);
    const ssize_t got = ::pread(fd, out + done, want, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      *reason = path + ": cannot read: " + std::strerror(errno);
      return BB_ERR_PARQUET_IO;
    }
    if (got == 0) {
      *reason = path + ": shrank while being read: it ended after " +
                std::to_string(offset + done) + " of the " + std::to_string(offset + length) +
                " bytes needed";
      return BB_ERR_PARQUET_IO;
    }
    done += static_cast<std::size_t>(got);
  }
  return BB_OK;
}

}  // namespace blockbloom::internal
