// SPDX-License-Identifier: Apache-2.0
// Opening a regular file and reading byte ranges of it with pread: what the
// Parquet file layer (src/parquet/format/parquet_file.cc) does with a path, and what the
// tools' FileRange (tools/common/file_range.cc) reads filter files with.
// Read, never mapped: a mapping of a file another process truncates kills
// the reader with SIGBUS; a read that comes up short is an error instead.
//
// Internal: not installed; the library is compiled with hidden visibility,
// so none of it is exported.
#ifndef BLOCKBLOOM_PARQUET_FORMAT_PREAD_FILE_H_
#define BLOCKBLOOM_PARQUET_FORMAT_PREAD_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace blockbloom::internal {

// Opens path read-only; it must be a regular file (a FIFO or device is
// refused at once, never waited on: it is opened with O_NONBLOCK, which is
// cleared once fstat shows a regular file). BB_OK with *fd (the caller's to
// close) and *size; else BB_ERR_PARQUET_IO, *fd and *size untouched, and
// *reason "PATH: cannot open: <strerror>", "PATH: not a regular file", ...
int OpenRegularFile(const std::string& path, int* fd, std::uint64_t* size, std::string* reason);

// Fills out[0 .. length) with the bytes of fd at offset, in reads of at most
// 1 GiB (Linux reads at most 0x7ffff000 bytes a call), retrying on EINTR.
// BB_OK, or BB_ERR_PARQUET_IO with *reason naming path: a read error, or
// "PATH: shrank while being read: ..." when the file ends first.
int ReadFully(const std::string& path, int fd, std::uint64_t offset, std::uint8_t* out,
              std::size_t length, std::string* reason);

}  // namespace blockbloom::internal

#endif  // BLOCKBLOOM_PARQUET_FORMAT_PREAD_FILE_H_
