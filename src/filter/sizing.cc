// SPDX-License-Identifier: Apache-2.0
// Sizing: the exact split-block false-positive model (Putze et al., eq. 3)
// and the searches built on it. See docs/sizing.md for the model and for why
// the naive (1 - e^(-8n/m))^8 undersizes.
#include "blockbloom/sizing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/filter/layout_ops.h"
#include "blockbloom/kudu.h"
#include "blockbloom/parquet_format.h"

namespace {

// FPP of a filter with lambda keys per block on average: block loads are
// Poisson(lambda), and a block holding i keys answers yes to a foreign key
// with probability (1 - (31/32)^i)^8 (8 lanes of 32 bits, one bit per lane).
double SplitBlockFpp(double lambda) {
  const double sd = std::sqrt(lambda);
  // Beyond +-12 sd (plus slack for small lambda) the Poisson mass is < 1e-30.
  const double lo = std::floor(std::fmax(0.0, lambda - 12.0 * sd - 20.0));
  const double hi = std::ceil(lambda + 12.0 * sd + 50.0);
  // From 1500 keys in a block up, 1 - (1 - (31/32)^i)^8 < 1e-19: every load in
  // the window gives a yes, so the FPP is 1.0 in double. Returning early keeps
  // the cost bounded for any lambda (bb_max_ndv probes up to 2^64 keys).
  if (lo >= 1500.0) return 1.0;

  const double log_q = std::log1p(-1.0 / 32.0);
  const auto block_fpp = [log_q](double i) { return std::pow(-std::expm1(i * log_q), 8); };

  // Weights relative to the mode's, stepped outward by the Poisson ratio: no
  // term overflows or underflows, and dividing by the summed weights (the
  // window's mass, 1 to 1e-30) cancels the rounding that a directly computed
  // e^-lambda * lambda^i / i! carries at large lambda (|log| ~ 1e5).
  const double mode = std::floor(lambda);
  double mass = 1.0;
  double sum = block_fpp(mode);
  double w = 1.0;
  for (double i = mode + 1.0; i <= hi; i += 1.0) {
    w *= lambda / i;
    mass += w;
    sum += w * block_fpp(i);
  }
  w = 1.0;
  for (double i = mode; i > lo; i -= 1.0) {
    w *= i / lambda;
    mass += w;
    sum += w * block_fpp(i - 1.0);
  }
  return sum / mass;
}

double Fpp(uint64_t ndv, uint64_t blocks) {
  if (ndv == 0) return 0.0;
  return SplitBlockFpp(static_cast<double>(ndv) / static_cast<double>(blocks));
}

// The FPP a sizing kind's filter of `blocks` blocks gives for ndv distinct
// values: the one model both bb_bytes_for and bb_max_ndv_for search, so that
// a size and the ndv it holds agree. A Kudu filter derives block and bits
// from one 32-bit hash, so a foreign value whose hash equals one of the ndv
// inserted hashes always hits: about ndv / 2^32 more false positives that no
// size removes. Parquet's 64-bit hashes make that term negligible.
double KindFpp(uint64_t ndv, uint64_t blocks, bb_sizing kind) {
  if (kind != BB_SIZE_KUDU) return Fpp(ndv, blocks);
  const double collision = std::min(1.0, static_cast<double>(ndv) / 4294967296.0);
  return collision + (1.0 - collision) * Fpp(ndv, blocks);
}

bool ValidFpp(double fpp) { return fpp > 0.0 && fpp < 1.0; }  // false for NaN

// Whether num_bytes is a size bb_bytes_for may give for kind: any filter size
// (BB_SIZE_PARQUET), a Parquet-safe power of two (_POW2, _SAFE), a Kudu size.
int CheckKindSize(size_t num_bytes, bb_sizing kind) {
  switch (kind) {
    case BB_SIZE_PARQUET:
      return bb_filter_check_size(num_bytes);
    case BB_SIZE_PARQUET_POW2:
    case BB_SIZE_PARQUET_SAFE:
      return bb_parquet_check_size(num_bytes);
    case BB_SIZE_KUDU:
      return bb_kudu_filter_check_size(num_bytes);
    default:
      return BB_ERR_INVALID_SIZING;
  }
}

// The largest ndv whose FPP in a filter of `blocks` blocks of kind is at most
// fpp: fits(lo) holds throughout (0 keys: FPP 0), fits(hi) never: at 2^64
// keys per filter of at most 2^31 blocks the FPP is 1.0 > fpp.
uint64_t MaxNdv(uint64_t blocks, double fpp, bb_sizing kind) {
  uint64_t lo = 0, hi = UINT64_MAX;
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (KindFpp(mid, blocks, kind) <= fpp ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

extern "C" {

int bb_fpp(uint64_t ndv, size_t num_bytes, double* fpp) {
  if (fpp == nullptr) return BB_ERR_NULL_POINTER;
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  *fpp = Fpp(ndv, num_bytes / BB_BLOCK_BYTES);
  return BB_OK;
}

int bb_bytes_for(uint64_t ndv, double fpp, bb_sizing kind, size_t* num_bytes) {
  if (num_bytes == nullptr) return BB_ERR_NULL_POINTER;
  if (!ValidFpp(fpp)) return BB_ERR_INVALID_FPP;
  // ndv 0 (an empty build side) fits every size: the searches below give
  // the kind's smallest.
  // kind by value: a reference would make every use of it a load from memory,
  // which UBSan's enum check flags for the unknown kinds refused below.
  const auto fits = [ndv, fpp, kind](uint64_t blocks) { return KindFpp(ndv, blocks, kind) <= fpp; };

  uint64_t blocks = 0;
  switch (kind) {
    case BB_SIZE_PARQUET: {
      if (!fits(BB_MAX_BLOCKS)) return BB_ERR_TOO_MANY_BLOCKS;
      // fits(hi) holds throughout; lo is never taken (0 blocks hold nothing).
      uint64_t lo = 0, hi = BB_MAX_BLOCKS;
      while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
      }
      blocks = hi;
      break;
    }
    case BB_SIZE_PARQUET_POW2:
    case BB_SIZE_PARQUET_SAFE: {
      // Arrow clamps to 32 B .. 128 MiB and writes 128 MiB even when that
      // misses the target (POW2 does the same; callers who care compare
      // bb_fpp of the result). SAFE says so instead.
      const uint64_t max_blocks = BB_PARQUET_SAFE_MAX_BYTES / BB_BLOCK_BYTES;
      for (blocks = BB_PARQUET_SAFE_MIN_BYTES / BB_BLOCK_BYTES; blocks < max_blocks && !fits(blocks);
           blocks *= 2) {
      }
      if (kind == BB_SIZE_PARQUET_SAFE && !fits(blocks)) return BB_ERR_PARQUET_SIZE_LIMIT;
      break;
    }
    case BB_SIZE_KUDU: {
      // Kudu's log_space_bytes runs 6 .. 35: 2 .. 2^30 blocks.
      const uint64_t max_blocks = uint64_t{1} << 30;
      for (blocks = 2; blocks <= max_blocks && !fits(blocks); blocks *= 2) {
      }
      if (blocks > max_blocks) return BB_ERR_TOO_MANY_BLOCKS;
      break;
    }
    default:
      return BB_ERR_INVALID_SIZING;
  }
  // 2^35 bytes does not fit a 32-bit size_t.
  if (blocks > SIZE_MAX / BB_BLOCK_BYTES) return BB_ERR_TOO_MANY_BLOCKS;
  *num_bytes = static_cast<size_t>(blocks * BB_BLOCK_BYTES);
  return BB_OK;
}

int bb_max_ndv(size_t num_bytes, double fpp, uint64_t* ndv) {
  if (ndv == nullptr) return BB_ERR_NULL_POINTER;
  const int status = bb_filter_check_size(num_bytes);
  if (status != BB_OK) return status;
  if (!ValidFpp(fpp)) return BB_ERR_INVALID_FPP;
  *ndv = MaxNdv(num_bytes / BB_BLOCK_BYTES, fpp, BB_SIZE_PARQUET);
  return BB_OK;
}

int bb_max_ndv_for(size_t num_bytes, double fpp, bb_sizing kind, uint64_t* ndv) {
  if (ndv == nullptr) return BB_ERR_NULL_POINTER;
  const int status = CheckKindSize(num_bytes, kind);
  if (status != BB_OK) return status;
  if (!ValidFpp(fpp)) return BB_ERR_INVALID_FPP;
  *ndv = MaxNdv(num_bytes / BB_BLOCK_BYTES, fpp, kind);
  return BB_OK;
}

int bb_filter_estimate_ndv(const bb_filter* f, uint64_t* bits_set, double* ndv) {
  if (f == nullptr || f->data == nullptr || ndv == nullptr) return BB_ERR_NULL_POINTER;
  uint64_t set = 0;
  if (!blockbloom::internal::AlwaysFalse(f)) {
    for (size_t i = 0; i < f->num_bytes; i += 8) {  // num_bytes is a multiple of 32
      uint64_t word;
      std::memcpy(&word, f->data + i, sizeof word);
      set += static_cast<uint64_t>(__builtin_popcountll(word));
    }
  }
  const uint64_t bits = 8 * static_cast<uint64_t>(f->num_bytes);
  const double fraction = static_cast<double>(set) / static_cast<double>(bits);
  // log1p keeps the precision where both logarithms are tiny.
  *ndv = set == bits ? HUGE_VAL
                     : std::log1p(-fraction) / std::log1p(-1.0 / (32.0 * f->num_blocks));
  if (bits_set != nullptr) *bits_set = set;
  return BB_OK;
}

}  // extern "C"
