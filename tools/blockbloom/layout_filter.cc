// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/layout_filter.h"

#include "blockbloom/kudu.h"
#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

void Check(int status, const std::string& context) {
  if (status < 0) throw CliError(context + ": " + bb_status_message(status));
}

std::vector<std::uint32_t> Narrow(const std::vector<std::uint64_t>& hashes) {
  return std::vector<std::uint32_t>(hashes.begin(), hashes.end());  // each is < 2^32
}

}  // namespace

void InitFilter(Layout layout, std::size_t bytes, std::uint32_t seed, OwnedFilter* filter,
                const std::string& context) {
  if (layout == Layout::kKudu) {
    Check(bb_kudu_filter_init(filter->get(), KuduLogSpaceBytes(bytes), seed), context);
  } else {
    Check(bb_filter_init(filter->get(), bytes), context);
  }
}

void InsertHashes(Layout layout, const std::vector<std::uint64_t>& hashes, OwnedFilter* filter,
                  const std::string& context) {
  if (layout == Layout::kKudu) {
    const std::vector<std::uint32_t> narrow = Narrow(hashes);
    Check(bb_kudu_insert_batch(filter->get(), narrow.data(), narrow.size()), context);
  } else {
    Check(bb_insert_batch(filter->get(), hashes.data(), hashes.size()), context);
  }
}

std::size_t ProbeBitset(Layout layout, const std::uint8_t* data, std::size_t bytes,
                        std::uint32_t seed, const std::vector<std::uint64_t>& hashes,
                        std::uint8_t* bitmap, const std::string& context) {
  bb_filter view{};
  std::size_t hits = 0;
  if (layout == Layout::kKudu) {
    // A raw directory carries no always-false flag; an empty one finds nothing anyway.
    Check(bb_kudu_filter_init_view_readonly(&view, data, bytes, 0, seed), context);
    const std::vector<std::uint32_t> narrow = Narrow(hashes);
    Check(bb_kudu_find_batch_bitmap(&view, narrow.data(), narrow.size(), bitmap, &hits), context);
  } else {
    Check(bb_filter_init_view_readonly(&view, data, bytes), context);
    Check(bb_find_batch_bitmap(&view, hashes.data(), hashes.size(), bitmap, &hits), context);
  }
  return hits;
}

void UnionBitsets(Layout layout, std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes,
                  const std::string& context) {
  bb_filter dst_view{};
  bb_filter src_view{};
  if (layout == Layout::kKudu) {
    Check(bb_kudu_filter_init_view(&dst_view, dst, bytes, 0, 0), context);
    Check(bb_kudu_filter_init_view_readonly(&src_view, src, bytes, 0, 0), context);
  } else {
    Check(bb_filter_init_view(&dst_view, dst, bytes), context);
    Check(bb_filter_init_view_readonly(&src_view, src, bytes), context);
  }
  Check(bb_filter_union(&dst_view, &src_view), context);
}

}  // namespace blockbloom_tools
