// SPDX-License-Identifier: Apache-2.0
// Reads an input file into hashes: one per line, either a hash already
// (raw hashes: an unsigned number, see number_parse.h; at most 2^32-1 for
// the kudu layout) or a value of a type to hash (value_hashing.h; a string
// value is the line's bytes without the '\n').
#ifndef BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_INPUT_H_
#define BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tools/common/filter_options.h"
#include "tools/blockbloom/hash_options.h"

namespace blockbloom_tools {

// Hashes are handed on in batches of this many (the last one may be
// shorter), so that memory stays bounded however long the input is.
constexpr std::size_t kHashBatch = std::size_t{1} << 16;

// Reads the hashes of path ("-" for standard input) line by line and calls
// on_batch with each batch, in input order; every batch but the last holds
// exactly kHashBatch. Throws CliError naming the file (and the 1-based line)
// on an unreadable file or a bad line, possibly after some batches were
// handed on. Kudu hashes are 32-bit values widened to 64 bits.
void ForEachHashBatch(const std::string& path, const HashOptions& options, Layout layout,
                      const std::function<void(const std::vector<std::uint64_t>&)>& on_batch);

// The most text a batch of ForEachHashBatchWithLines holds: with lines of up
// to 1 MiB, kHashBatch of them could take 64 GiB.
constexpr std::size_t kLineBatchBytes = std::size_t{4} << 20;

// As ForEachHashBatch, also handing on each batch's lines as read (without
// their line ends; lines[i] is the text of hashes[i]), for output that shows
// each value beside its answer. A batch then also ends once its lines hold
// kLineBatchBytes, so it may be shorter than kHashBatch.
void ForEachHashBatchWithLines(
    const std::string& path, const HashOptions& options, Layout layout,
    const std::function<void(const std::vector<std::uint64_t>&, const std::vector<std::string>&)>&
        on_batch);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_BLOCKBLOOM_HASH_INPUT_H_
