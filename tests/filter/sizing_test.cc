// SPDX-License-Identifier: Apache-2.0
// Sizing: bb_fpp against the Parquet spec's published figures and an
// independent closed form; bb_bytes_for, bb_max_ndv and bb_max_ndv_for
// against bb_fpp and each other; and the
// model against false-positive rates measured on real filters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <vector>

#include "blockbloom/blockbloom.h"
#include "blockbloom/kudu.h"
#include "blockbloom/parquet_format.h"
#include "blockbloom/sizing.h"
#include "support/oracle.h"
#include "support/stress_scale.h"

namespace {

constexpr uint64_t kMillion = 1000000;

double Fpp(uint64_t ndv, size_t num_bytes) {
  double fpp = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(bb_fpp(ndv, num_bytes, &fpp), BB_OK) << ndv << " keys, " << num_bytes << " bytes";
  return fpp;
}

// ndv * bits_per_key / 8 bytes, rounded to whole blocks.
size_t BytesAt(uint64_t ndv, double bits_per_key) {
  return static_cast<size_t>(std::llround(static_cast<double>(ndv) * bits_per_key / 256.0)) * 32;
}

void ExpectNear(double actual, double expected, double relative, const char* what) {
  EXPECT_NEAR(actual, expected, relative * expected) << what;
}

bool IsPowerOfTwo(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

// The same expectation as the summed model, by inclusion-exclusion:
// E[(1 - q^I)^8] = sum_k C(8,k) (-1)^k E[q^(kI)] and E[q^(kI)] = e^(-lambda (1 - q^k))
// for I ~ Poisson(lambda). Exact, but its alternating terms cancel, so it is
// only a reference where the FPP is not tiny.
double ClosedFormFpp(double lambda) {
  const double q = 31.0 / 32.0;
  const double binomial[9] = {1, 8, 28, 56, 70, 56, 28, 8, 1};
  double sum = 0;
  for (int k = 0; k <= 8; ++k) {
    sum += (k % 2 == 0 ? 1 : -1) * binomial[k] * std::exp(-lambda * (1 - std::pow(q, k)));
  }
  return sum;
}

// ---------------------------------------------------------------- bb_fpp

TEST(FppTest, ReachesParquetSpecTargetsAtPublishedBitsPerKey) {
  const struct {
    double bits_per_key, target;
  } table[] = {{10.5, 1e-2}, {16.9, 1e-3}, {26.4, 1e-4}, {41, 1e-5}};
  for (const auto& row : table) {
    ExpectNear(Fpp(kMillion, BytesAt(kMillion, row.bits_per_key)), row.target, 0.03,
               "spec table row");
  }
}

TEST(FppTest, MatchesPublishedFppAtWholeBitsPerKey) {
  const struct {
    double bits_per_key, fpp;
  } table[] = {{8, 0.0332}, {10, 0.0126}, {16, 0.00132}, {20, 0.00042}};
  for (const auto& row : table) {
    ExpectNear(Fpp(kMillion, BytesAt(kMillion, row.bits_per_key)), row.fpp, 0.02,
               "bits per key row");
  }
}

TEST(FppTest, ReproducesParquetSpecWorkedExample) {
  ExpectNear(Fpp(26214, 1024 * 32), 0.0126, 0.01, "1024 blocks, 26214 inserts");
}

TEST(FppTest, AgreesWithClosedFormWhereThatIsAccurate) {
  const uint64_t blocks = 1 << 20;
  for (const uint64_t ndv : {2 * blocks, 8 * blocks, uint64_t{26843546} /* 25.6 */, 100 * blocks,
                             500 * blocks, 1000 * blocks, 5000 * blocks}) {
    const double lambda = static_cast<double>(ndv) / blocks;
    const double expected = ClosedFormFpp(lambda);
    EXPECT_NEAR(Fpp(ndv, blocks * 32), expected, 1e-13 + 1e-9 * expected) << "lambda " << lambda;
  }
}

TEST(FppTest, StaysAccurateAtTinyLoads) {
  // One key in a block matches a foreign key with probability (1/32)^8, so
  // FPP = lambda (1/32)^8 (1 + ~110 lambda). The closed form loses this entirely.
  for (const uint64_t blocks : {kMillion, uint64_t{BB_MAX_BLOCKS}}) {
    const double lambda = 1.0 / static_cast<double>(blocks);
    ExpectNear(Fpp(1, blocks * 32), lambda * std::pow(1.0 / 32, 8), 1e-3, "one key");
  }
}

TEST(FppTest, RisesMonotonicallyToExactlyOne) {
  double previous = 0;
  const size_t bytes = 1000 * 32;
  for (uint64_t ndv = 1; ndv <= 20000000; ndv = ndv * 11 / 10 + 1) {  // lambda 1e-3 .. 2e4
    const double fpp = Fpp(ndv, bytes);
    EXPECT_GE(fpp, previous) << ndv;
    EXPECT_LE(fpp, 1.0) << ndv;
    previous = fpp;
  }
  EXPECT_EQ(previous, 1.0);
  EXPECT_EQ(Fpp(UINT64_MAX, 32), 1.0);
  EXPECT_EQ(Fpp(UINT64_MAX, size_t{BB_MAX_BLOCKS} * 32), 1.0);
}

TEST(FppTest, IsZeroWithNothingInserted) { EXPECT_EQ(Fpp(0, 32), 0.0); }

TEST(FppTest, RejectsNullOutputAndInvalidSizes) {
  double fpp = 0.5;
  EXPECT_EQ(bb_fpp(1, 32, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_fpp(1, 0, &fpp), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_fpp(1, 48, &fpp), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_fpp(1, (size_t{BB_MAX_BLOCKS} + 1) * 32, &fpp), BB_ERR_TOO_MANY_BLOCKS);
  EXPECT_EQ(fpp, 0.5);
}

// ---------------------------------------------------------- bb_bytes_for

const uint64_t kNdvs[] = {1, 1000, kMillion, 1000000000};
const double kTargets[] = {0.5, 1e-2, 1e-3, 1e-4, 1e-6};

size_t BytesFor(uint64_t ndv, double fpp, bb_sizing kind) {
  size_t bytes = 0;
  EXPECT_EQ(bb_bytes_for(ndv, fpp, kind, &bytes), BB_OK) << ndv << " keys at " << fpp;
  return bytes;
}

TEST(BytesForTest, ParquetIsTheSmallestWholeBlockCountWithinTarget) {
  for (const uint64_t ndv : kNdvs) {
    for (const double p : kTargets) {
      const size_t bytes = BytesFor(ndv, p, BB_SIZE_PARQUET);
      ASSERT_EQ(bytes % 32, 0u);
      EXPECT_LE(Fpp(ndv, bytes), p) << ndv << " keys at " << p;
      if (bytes > 32) {
        EXPECT_GT(Fpp(ndv, bytes - 32), p) << ndv << " keys at " << p;
      }
    }
  }
  EXPECT_EQ(BytesFor(1, 0.5, BB_SIZE_PARQUET), 32u);
}

// What a Kudu filter of `bytes` gives for ndv foreign probes: the model plus
// the ndv / 2^32 probes whose 32-bit hash collides with an inserted one.
double KuduFpp(uint64_t ndv, size_t bytes) {
  const double collision = std::min(1.0, static_cast<double>(ndv) / 4294967296.0);
  return collision + (1.0 - collision) * Fpp(ndv, bytes);
}

TEST(BytesForTest, PowerOfTwoKindsAreTheSmallestPowerOfTwoWithinTarget) {
  const struct {
    bb_sizing kind;
    size_t min_bytes, clamp_bytes;  // clamp_bytes 0: no clamp (an error instead)
    double (*fpp)(uint64_t, size_t);
    size_t max_bytes;  // without a clamp: beyond it, over_max_status
    int over_max_status;
  } kinds[] = {{BB_SIZE_PARQUET_POW2, 32, size_t{128} << 20, &Fpp, 0, BB_OK},
               {BB_SIZE_KUDU, 64, 0, &KuduFpp, sizeof(size_t) < 8 ? 0 : size_t{1} << 35,
                BB_ERR_TOO_MANY_BLOCKS},
               {BB_SIZE_PARQUET_SAFE, 32, 0, &Fpp, size_t{128} << 20, BB_ERR_PARQUET_SIZE_LIMIT}};
  for (const auto& k : kinds) {
    if (k.clamp_bytes == 0 && k.max_bytes == 0) continue;  // Kudu's 2^35 needs a 64-bit size_t
    for (const uint64_t ndv : kNdvs) {
      for (const double p : kTargets) {
        size_t bytes = 0;
        const int status = bb_bytes_for(ndv, p, k.kind, &bytes);
        if (k.clamp_bytes == 0 && k.fpp(ndv, k.max_bytes) > p) {
          // Kudu: collisions alone may exceed the target; SAFE: 128 MiB is too small.
          EXPECT_EQ(status, k.over_max_status) << ndv << " keys at " << p;
          continue;
        }
        ASSERT_EQ(status, BB_OK) << ndv << " keys at " << p;
        ASSERT_TRUE(IsPowerOfTwo(bytes)) << bytes;
        EXPECT_GE(bytes, k.min_bytes);
        if (k.clamp_bytes != 0) {
          EXPECT_LE(bytes, k.clamp_bytes);
        }
        // At the clamp the target may be missed (1e9 keys here); see the next test.
        if (bytes != k.clamp_bytes) {
          EXPECT_LE(k.fpp(ndv, bytes), p) << ndv << " keys at " << p;
        }
        if (bytes > k.min_bytes) {
          EXPECT_GT(k.fpp(ndv, bytes / 2), p) << ndv << " keys at " << p;
        }
      }
    }
  }
  EXPECT_EQ(BytesFor(1, 0.5, BB_SIZE_PARQUET_POW2), 32u);
  EXPECT_EQ(BytesFor(1, 0.5, BB_SIZE_KUDU), 64u);
}

TEST(BytesForTest, ParquetPowerOfTwoClampsAt128MiBLikeArrow) {
  const uint64_t ndv = 10000000000;  // needs ~2 GiB at 0.1%
  const size_t bytes = BytesFor(ndv, 1e-3, BB_SIZE_PARQUET_POW2);
  EXPECT_EQ(bytes, size_t{128} << 20);
  EXPECT_GT(Fpp(ndv, bytes), 1e-3);  // the clamp misses the target; bb_fpp says by how much
}

TEST(BytesForTest, ParquetSafeIsThePowerOfTwoReadersAcceptOrAnError) {
  // 1,000 keys at 1%: 42 blocks would do; readers take 64 (2048 bytes).
  EXPECT_EQ(BytesFor(1000, 0.01, BB_SIZE_PARQUET), 1344u);
  EXPECT_EQ(BytesFor(1000, 0.01, BB_SIZE_PARQUET_SAFE), 2048u);
  EXPECT_EQ(BytesFor(1, 0.5, BB_SIZE_PARQUET_SAFE), 32u);
  // A million keys at 1%: 1,316,160 bytes, so 2 MiB (FPP about 0.1%).
  EXPECT_EQ(BytesFor(1000000, 0.01, BB_SIZE_PARQUET), 1316160u);
  EXPECT_EQ(BytesFor(1000000, 0.01, BB_SIZE_PARQUET_SAFE), size_t{2} << 20);
  // Exactly at a power of two: bb_max_ndv(1 MiB, 1%) = 796,696 keys (docs/sizing.md).
  EXPECT_EQ(BytesFor(796696, 0.01, BB_SIZE_PARQUET_SAFE), size_t{1} << 20);
  EXPECT_EQ(BytesFor(796697, 0.01, BB_SIZE_PARQUET_SAFE), size_t{2} << 20);
  // And at the top: 128 MiB holds 101,977,207 keys at 1%, not one more.
  EXPECT_EQ(BytesFor(101977207, 0.01, BB_SIZE_PARQUET_SAFE), size_t{128} << 20);
  size_t bytes = 7;
  EXPECT_EQ(bb_bytes_for(101977208, 0.01, BB_SIZE_PARQUET_SAFE, &bytes), BB_ERR_PARQUET_SIZE_LIMIT);
  EXPECT_EQ(bb_bytes_for(1000000000, 0.01, BB_SIZE_PARQUET_SAFE, &bytes),
            BB_ERR_PARQUET_SIZE_LIMIT);
  EXPECT_EQ(bytes, 7u);  // untouched on error
  // Where POW2 clamps to 128 MiB (FPP 99.5% for a billion keys), SAFE refuses.
  EXPECT_EQ(BytesFor(1000000000, 0.01, BB_SIZE_PARQUET_POW2), size_t{128} << 20);
  // Every answer is a size a Parquet header may announce.
  for (const uint64_t ndv : kNdvs) {
    for (const double p : kTargets) {
      if (bb_bytes_for(ndv, p, BB_SIZE_PARQUET_SAFE, &bytes) != BB_OK) continue;
      EXPECT_EQ(bb_parquet_check_size(bytes), BB_OK) << bytes;
    }
  }
}

TEST(BytesForTest, KuduReachesTwoToThe35BytesAndNoFurther) {
  if (sizeof(size_t) < 8) GTEST_SKIP() << "2^35 bytes does not fit size_t";
  // 2^31 values collide with half of all 32-bit hashes; a target just above
  // that needs the largest directory.
  const uint64_t ndv = uint64_t{1} << 31;
  EXPECT_EQ(BytesFor(ndv, KuduFpp(ndv, size_t{1} << 35), BB_SIZE_KUDU), size_t{1} << 35);
  size_t bytes = 7;
  EXPECT_EQ(bb_bytes_for(100000000000, 1e-3, BB_SIZE_KUDU, &bytes), BB_ERR_TOO_MANY_BLOCKS);
  EXPECT_EQ(bytes, 7u);
}

TEST(BytesForTest, ParquetFailsWhenEvenMaxBlocksMissTheTarget) {
  size_t bytes = 7;
  EXPECT_EQ(bb_bytes_for(1000000000000, 1e-3, BB_SIZE_PARQUET, &bytes), BB_ERR_TOO_MANY_BLOCKS);
  EXPECT_EQ(bytes, 7u);
  // ... but the largest filter is returned when it does reach it.
  const uint64_t ndv = 20000000000;
  EXPECT_EQ(BytesFor(ndv, Fpp(ndv, size_t{BB_MAX_BLOCKS} * 32), BB_SIZE_PARQUET),
            size_t{BB_MAX_BLOCKS} * 32);
}

TEST(BytesForTest, RejectsTargetsOutsideZeroOneAndNullOutput) {
  size_t bytes = 7;
  for (const bb_sizing kind :
       {BB_SIZE_PARQUET, BB_SIZE_PARQUET_POW2, BB_SIZE_KUDU, BB_SIZE_PARQUET_SAFE}) {
    for (const double p : {0.0, 1.0, -0.1, 1.5, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()}) {
      EXPECT_EQ(bb_bytes_for(1000, p, kind, &bytes), BB_ERR_INVALID_FPP) << p;
      EXPECT_EQ(bb_bytes_for(0, p, kind, &bytes), BB_ERR_INVALID_FPP) << p;
    }
    EXPECT_EQ(bb_bytes_for(1000, 0.01, kind, nullptr), BB_ERR_NULL_POINTER);
    EXPECT_EQ(bb_bytes_for(0, 0.01, kind, nullptr), BB_ERR_NULL_POINTER);
  }
  EXPECT_EQ(bytes, 7u);
}

// An empty build side (a runtime filter over no rows) is common: ndv 0 gets
// the kind's smallest filter, as Arrow's OptimalNumOfBytes and Kudu's
// MinLogSpace give, at any valid target.
TEST(BytesForTest, ZeroNdvGivesTheKindsSmallestFilter) {
  const struct {
    bb_sizing kind;
    size_t smallest;
  } kinds[] = {{BB_SIZE_PARQUET, 32}, {BB_SIZE_PARQUET_POW2, 32}, {BB_SIZE_PARQUET_SAFE, 32},
               {BB_SIZE_KUDU, 64}};
  for (const auto& k : kinds) {
    for (const double p : {0.5, 1e-2, 1e-9, 1e-300}) {
      size_t bytes = 7;
      EXPECT_EQ(bb_bytes_for(0, p, k.kind, &bytes), BB_OK) << k.kind << " at " << p;
      EXPECT_EQ(bytes, k.smallest) << k.kind << " at " << p;
    }
  }
}

TEST(BytesForTest, RejectsUnknownKind) {
  size_t bytes = 7;
  EXPECT_EQ(bb_bytes_for(1000, 0.01, static_cast<bb_sizing>(4), &bytes), BB_ERR_INVALID_SIZING);
  EXPECT_EQ(bb_bytes_for(1000, 0.01, static_cast<bb_sizing>(-1), &bytes), BB_ERR_INVALID_SIZING);
  EXPECT_EQ(bytes, 7u);
}

// ------------------------------------------------------------ bb_max_ndv

uint64_t MaxNdv(size_t bytes, double fpp) {
  uint64_t ndv = 0;
  EXPECT_EQ(bb_max_ndv(bytes, fpp, &ndv), BB_OK) << bytes << " bytes at " << fpp;
  return ndv;
}

TEST(MaxNdvTest, IsTheLargestNdvWithinTarget) {
  for (const size_t bytes : {size_t{32}, size_t{32 * 1024}, size_t{1} << 20, size_t{128} << 20,
                             size_t{BB_MAX_BLOCKS} * 32}) {
    for (const double p : {0.5, 1e-2, 1e-4, 1e-9}) {
      const uint64_t ndv = MaxNdv(bytes, p);
      EXPECT_LE(Fpp(ndv, bytes), p) << bytes << " bytes at " << p;
      EXPECT_GT(Fpp(ndv + 1, bytes), p) << bytes << " bytes at " << p;
      // The two searches invert each other: that many keys fit this filter.
      if (ndv > 0) {
        EXPECT_LE(BytesFor(ndv, p, BB_SIZE_PARQUET), bytes);
      }
    }
  }
}

TEST(MaxNdvTest, IsZeroWhenOneKeyAlreadyMissesTheTarget) {
  EXPECT_EQ(MaxNdv(32, 1e-15), 0u);  // one key in one block: (1/32)^8 ~ 8.7e-13
}

// bb_max_ndv_for and bb_bytes_for search one model per kind, so for every
// size b of the kind: the ndv b holds is sized into at most b, and one more
// value needs a larger size (or none reaches the target). Kudu's 32-bit
// collisions are where a second model would show: from about fpp * 2^32
// values on they dominate the block model.
void ExpectMaxNdvAgreesWithBytesFor(bb_sizing kind, size_t bytes, double p) {
  uint64_t ndv = 0;
  ASSERT_EQ(bb_max_ndv_for(bytes, p, kind, &ndv), BB_OK) << kind << ": " << bytes << " at " << p;
  size_t sized = 0;
  ASSERT_EQ(bb_bytes_for(ndv, p, kind, &sized), BB_OK) << kind << ": " << ndv << " at " << p;
  EXPECT_LE(sized, bytes) << kind << ": " << ndv << " values at " << p;
  const bool clamped = kind == BB_SIZE_PARQUET_POW2 && bytes == BB_PARQUET_SAFE_MAX_BYTES;
  const int status = bb_bytes_for(ndv + 1, p, kind, &sized);
  if (status == BB_OK && !clamped) {
    EXPECT_GT(sized, bytes) << kind << ": " << ndv + 1 << " values at " << p;
  } else if (!clamped) {
    EXPECT_TRUE(status == BB_ERR_TOO_MANY_BLOCKS || status == BB_ERR_PARQUET_SIZE_LIMIT) << status;
  }
}

TEST(MaxNdvForTest, KuduAgreesWithBytesForAtEveryKuduSize) {
  const int max_log = sizeof(size_t) < 8 ? 31 : BB_KUDU_MAX_LOG_SPACE_BYTES;
  for (int log = BB_KUDU_MIN_LOG_SPACE_BYTES; log <= max_log; ++log) {
    for (const double p : {0.5, 1e-2, 1e-4, 1e-6, 1e-9}) {
      ExpectMaxNdvAgreesWithBytesFor(BB_SIZE_KUDU, size_t{1} << log, p);
    }
  }
}

TEST(MaxNdvForTest, ParquetKindsAgreeWithBytesForAtTheirSizes) {
  for (size_t bytes = BB_PARQUET_SAFE_MIN_BYTES; bytes <= BB_PARQUET_SAFE_MAX_BYTES; bytes *= 2) {
    for (const double p : {0.5, 1e-2, 1e-4, 1e-9}) {
      ExpectMaxNdvAgreesWithBytesFor(BB_SIZE_PARQUET_POW2, bytes, p);
      ExpectMaxNdvAgreesWithBytesFor(BB_SIZE_PARQUET_SAFE, bytes, p);
      ExpectMaxNdvAgreesWithBytesFor(BB_SIZE_PARQUET, bytes, p);
    }
  }
  for (const size_t bytes : {size_t{96}, size_t{32} * 1000, size_t{BB_MAX_BLOCKS} * 32}) {
    for (const double p : {0.5, 1e-2, 1e-4, 1e-9}) {
      ExpectMaxNdvAgreesWithBytesFor(BB_SIZE_PARQUET, bytes, p);
      uint64_t plain = 0, kind = 1;
      ASSERT_EQ(bb_max_ndv(bytes, p, &plain), BB_OK);
      ASSERT_EQ(bb_max_ndv_for(bytes, p, BB_SIZE_PARQUET, &kind), BB_OK);
      EXPECT_EQ(plain, kind) << "bb_max_ndv is the Parquet model";
    }
  }
}

// Where the collisions dominate, the Kudu model holds fewer values than the
// block model alone: bb_max_ndv (no collisions) would size a larger filter.
TEST(MaxNdvForTest, KuduCountsCollisionsWhereBbMaxNdvDoesNot) {
  const size_t bytes = size_t{1} << 20;
  uint64_t plain = 0, kudu = 0;
  ASSERT_EQ(bb_max_ndv(bytes, 1e-6, &plain), BB_OK);
  ASSERT_EQ(bb_max_ndv_for(bytes, 1e-6, BB_SIZE_KUDU, &kudu), BB_OK);
  EXPECT_LT(kudu, plain);
  EXPECT_LE(kudu, 4295u);  // its collisions alone: kudu / 2^32 <= 1e-6
  // Sized again with collisions counted, bb_max_ndv's answer needs a larger
  // directory, or none reaches 1e-6 at all.
  size_t sized = 0;
  const int status = bb_bytes_for(plain, 1e-6, BB_SIZE_KUDU, &sized);
  EXPECT_TRUE(status == BB_ERR_TOO_MANY_BLOCKS || (status == BB_OK && sized > bytes)) << status;
}

TEST(MaxNdvForTest, RefusesSizesNotOfTheKindUnknownKindsAndBadTargets) {
  uint64_t ndv = 7;
  EXPECT_EQ(bb_max_ndv_for(64, 0.01, BB_SIZE_KUDU, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_max_ndv_for(96, 0.01, BB_SIZE_KUDU, &ndv), BB_ERR_NOT_POWER_OF_TWO);
  EXPECT_EQ(bb_max_ndv_for(32, 0.01, BB_SIZE_KUDU, &ndv), BB_ERR_LOG_SPACE_OUT_OF_RANGE);
  EXPECT_EQ(bb_max_ndv_for(96, 0.01, BB_SIZE_PARQUET_SAFE, &ndv), BB_ERR_PARQUET_UNSAFE_SIZE);
  EXPECT_EQ(bb_max_ndv_for(size_t{256} << 20, 0.01, BB_SIZE_PARQUET_POW2, &ndv),
            BB_ERR_PARQUET_UNSAFE_SIZE);
  EXPECT_EQ(bb_max_ndv_for(40, 0.01, BB_SIZE_PARQUET, &ndv), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  EXPECT_EQ(bb_max_ndv_for(0, 0.01, BB_SIZE_PARQUET, &ndv), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_max_ndv_for(64, 0.01, static_cast<bb_sizing>(4), &ndv), BB_ERR_INVALID_SIZING);
  for (const double p : {0.0, 1.0, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(bb_max_ndv_for(64, p, BB_SIZE_KUDU, &ndv), BB_ERR_INVALID_FPP) << p;
  }
  EXPECT_EQ(ndv, 7u);
}

TEST(MaxNdvTest, RejectsNullOutputInvalidSizesAndTargets) {
  uint64_t ndv = 7;
  EXPECT_EQ(bb_max_ndv(32, 0.01, nullptr), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_max_ndv(0, 0.01, &ndv), BB_ERR_SIZE_ZERO);
  EXPECT_EQ(bb_max_ndv(40, 0.01, &ndv), BB_ERR_SIZE_NOT_MULTIPLE_OF_32);
  for (const double p : {0.0, 1.0, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(bb_max_ndv(32, p, &ndv), BB_ERR_INVALID_FPP) << p;
  }
  EXPECT_EQ(ndv, 7u);
}

// ------------------------------------------------- measured on real filters

constexpr size_t kProbes = 10000000;
constexpr uint64_t kInsertSeed = 0x5eed0001;
constexpr uint64_t kProbeSeedBase = 0x0b5e70000000;  // chunk c uses kProbeSeedBase + c

// Fraction of kProbes foreign hashes a filter of num_bytes holding ndv hashes
// answers yes to.
double MeasureFpp(uint64_t ndv, size_t num_bytes) {
  bb_filter f;
  if (bb_filter_init(&f, num_bytes) != BB_OK) {
    ADD_FAILURE() << "bb_filter_init " << num_bytes;
    return std::numeric_limits<double>::quiet_NaN();
  }
  const std::vector<uint64_t> keys = oracle::Hashes(kInsertSeed, ndv);
  EXPECT_EQ(bb_insert_batch(&f, keys.data(), keys.size()), BB_OK);
  constexpr size_t kChunk = size_t{1} << 20;
  std::vector<uint8_t> bitmap(kChunk / 8);
  size_t total = 0;
  for (size_t done = 0, c = 0; done < kProbes; done += kChunk, ++c) {
    const std::vector<uint64_t> probes =
        oracle::Hashes(kProbeSeedBase + c, std::min(kChunk, kProbes - done));
    size_t hits = 0;
    EXPECT_EQ(bb_find_batch_bitmap(&f, probes.data(), probes.size(), bitmap.data(), &hits), BB_OK);
    total += hits;
  }
  bb_filter_release(&f);
  return static_cast<double>(total) / kProbes;
}

// Standard deviation of a measured rate when the true rate is p.
double BinomialSd(double p) { return std::sqrt(p * (1 - p) / kProbes); }

TEST(MeasuredFppTest, StaysWithinTargetWhenSizedForIt) {
  if (const char* why = bbtest::StatisticalTestSkipReason()) GTEST_SKIP() << why;
  for (const double p : {1e-2, 1e-3, 1e-4}) {
    const size_t bytes = BytesFor(kMillion, p, BB_SIZE_PARQUET);
    const double measured = MeasureFpp(kMillion, bytes);
    std::printf(
        "[ measured ] target %.4g: %zu bytes (%.2f bits/key), model %.6g, measured %.6g"
        " (%+.2f binomial sd)\n",
        p, bytes, bytes * 8.0 / kMillion, Fpp(kMillion, bytes), measured,
        (measured - p) / BinomialSd(p));
    // At most 4 standard deviations of a binomial count of kProbes trials at
    // rate p above p. (Filters built from other keys spread a little more
    // than the binomial: see docs/sizing.md.)
    EXPECT_LE(measured, p + 4 * BinomialSd(p)) << "target " << p;
  }
}

TEST(MeasuredFppTest, MatchesModelAtWholeBitsPerKey) {
  if (const char* why = bbtest::StatisticalTestSkipReason()) GTEST_SKIP() << why;
  for (const double bits_per_key : {8.0, 10.0, 16.0, 20.0}) {
    const size_t bytes = BytesAt(kMillion, bits_per_key);
    const double model = Fpp(kMillion, bytes);
    const double measured = MeasureFpp(kMillion, bytes);
    std::printf(
        "[ measured ] %.0f bits/key: model %.6g, measured %.6g (%+.2f%%, %+.2f binomial sd)\n",
        bits_per_key, model, measured, 100 * (measured / model - 1),
        (measured - model) / BinomialSd(model));
    // 4 binomial standard deviations, but at least 2%: where probes are many
    // the filter's own draw of keys dominates (about 0.3% sd at 8 bits/key).
    EXPECT_NEAR(measured, model, std::max(4 * BinomialSd(model), 0.02 * model))
        << bits_per_key << " bits/key";
  }
}

TEST(NaiveSizingTest, UndersizesByAboutThreeTimesAtOneInTenThousand) {
  if (const char* why = bbtest::StatisticalTestSkipReason()) GTEST_SKIP() << why;
  // (1 - e^(-8n/m))^8 = p solved for m bits, rounded up to whole blocks.
  const double p = 1e-4;
  const double bits = -8.0 * kMillion / std::log1p(-std::pow(p, 1.0 / 8));
  const size_t bytes = static_cast<size_t>(std::ceil(bits / 256)) * 32;
  const double model = Fpp(kMillion, bytes);
  const double measured = MeasureFpp(kMillion, bytes);
  std::printf(
      "[ measured ] naive size for %.4g: %zu bytes (%.2f bits/key), model %.6g, measured %.6g\n", p,
      bytes, bytes * 8.0 / kMillion, model, measured);
  EXPECT_GT(model, 2 * p);
  EXPECT_GT(measured, 2 * p);
  EXPECT_NEAR(measured, model, std::max(4 * BinomialSd(model), 0.02 * model));
}

// A Kudu filter cannot beat its 32-bit hash collisions: 1e8 values collide
// with about 2.3% of foreign hashes, so no size reaches 1%, while 1e6 values
// (2.3e-4) still reach 1%, needing at least the Parquet-model size.
TEST(BytesForTest, KuduCountsThirtyTwoBitHashCollisions) {
  size_t kudu = 0, parquet = 0;
  EXPECT_EQ(bb_bytes_for(100000000, 0.01, BB_SIZE_KUDU, &kudu), BB_ERR_TOO_MANY_BLOCKS);
  ASSERT_EQ(bb_bytes_for(1000000, 0.01, BB_SIZE_KUDU, &kudu), BB_OK);
  ASSERT_EQ(bb_bytes_for(1000000, 0.01, BB_SIZE_PARQUET_POW2, &parquet), BB_OK);
  EXPECT_GE(kudu, parquet);
  double model = 0;
  ASSERT_EQ(bb_fpp(1000000, kudu, &model), BB_OK);
  EXPECT_LE(2.3283e-4 + model, 0.01);
}

}  // namespace

// ------------------------------------------------ the NDV a density implies

TEST(EstimateNdvTest, InvertsTheExpectedFillExactly) {
  // A bitset with exactly k bits set: the estimate is the n whose expected
  // fraction is k / bits, ln(1 - q) / ln(1 - 1/(32 z)).
  std::vector<uint8_t> bytes(32 * 64, 0);
  for (size_t k : {size_t{0}, size_t{1}, size_t{100}, size_t{8000}, size_t{16383}}) {
    SCOPED_TRACE(k);
    std::fill(bytes.begin(), bytes.end(), 0);
    for (size_t i = 0; i < k; ++i) bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    bb_filter f;
    ASSERT_EQ(bb_filter_init_view_readonly(&f, bytes.data(), bytes.size()), BB_OK);
    uint64_t bits_set = 99;
    double ndv = -1;
    ASSERT_EQ(bb_filter_estimate_ndv(&f, &bits_set, &ndv), BB_OK);
    EXPECT_EQ(bits_set, k);
    const double q = static_cast<double>(k) / 16384.0;
    EXPECT_NEAR(ndv, std::log(1 - q) / std::log(1 - 1.0 / (32.0 * 64)), 1e-9 * (1 + ndv));
  }
}

TEST(EstimateNdvTest, MatchesTheInsertedCountOfARealFilter) {
  bb_filter f;
  ASSERT_EQ(bb_filter_init(&f, 1 << 16), BB_OK);
  const std::vector<uint64_t> keys = oracle::Hashes(7, 5000);
  ASSERT_EQ(bb_insert_batch(&f, keys.data(), keys.size()), BB_OK);
  double ndv = 0;
  ASSERT_EQ(bb_filter_estimate_ndv(&f, nullptr, &ndv), BB_OK);
  EXPECT_NEAR(ndv, 5000.0, 150.0);  // a few standard deviations of the fill
  bb_filter_release(&f);
}

TEST(EstimateNdvTest, EveryBitSetImpliesNoCountAndAlwaysFalseHoldsNothing) {
  std::vector<uint8_t> ones(64, 0xff);
  bb_filter full;
  ASSERT_EQ(bb_filter_init_view_readonly(&full, ones.data(), ones.size()), BB_OK);
  uint64_t bits_set = 0;
  double ndv = 0;
  ASSERT_EQ(bb_filter_estimate_ndv(&full, &bits_set, &ndv), BB_OK);
  EXPECT_EQ(bits_set, 512u);
  EXPECT_TRUE(std::isinf(ndv));
  bb_filter kudu;
  ASSERT_EQ(bb_kudu_filter_init(&kudu, 6, 0), BB_OK);  // always-false until the first insert
  ASSERT_EQ(bb_filter_estimate_ndv(&kudu, &bits_set, &ndv), BB_OK);
  EXPECT_EQ(bits_set, 0u);
  EXPECT_EQ(ndv, 0.0);
  EXPECT_EQ(bb_filter_estimate_ndv(nullptr, &bits_set, &ndv), BB_ERR_NULL_POINTER);
  EXPECT_EQ(bb_filter_estimate_ndv(&kudu, &bits_set, nullptr), BB_ERR_NULL_POINTER);
  bb_filter_release(&kudu);
}
