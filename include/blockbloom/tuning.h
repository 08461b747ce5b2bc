/* SPDX-License-Identifier: Apache-2.0 */
/* blockbloom tuning: how the batch calls prefetch the blocks of large filters. */
#ifndef BLOCKBLOOM_TUNING_H_
#define BLOCKBLOOM_TUNING_H_

#include "blockbloom/blockbloom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tuning: how the batch kernels prefetch the blocks of filters larger than
 * one core's L2 (process-wide settings, read once per batch call; the
 * defaults were tuned on the development machines: docs/benchmarks.md, and
 * `blockbloom tune` measures them on the machine it runs on).
 *
 * The defaults depend on the filter's size class, decided once per call from
 * its byte size. The classes follow the caches of the CPU the library runs on,
 * read when it loads (CPUID, or sysfs): filters below the L2 size are not
 * prefetched, then one class from the L2 size, one from the L3's share of a
 * core and one from the whole L3 (the hints and distances per class:
 * src/kernels/prefetch.h; docs/benchmarks.md, "Prefetch sweeps", the sweeps they
 * come from; where no cache is reported, the reference machine's 1, 4 and
 * 32 MiB). `blockbloom info` shows the caches and the classes. A filter that
 * fits in the L3 wants a different hint and distance than one in DRAM. A
 * distance or hint that is set (by the environment or the calls below)
 * applies to every size, each on its own: setting only the distance keeps
 * the default hint of each size class, and the other way round.
 *
 * Distance: how many keys ahead, 1 .. BB_MAX_PREFETCH_DISTANCE; 0 restores the
 * defaults (bb_prefetch_distance() then returns 0) and larger values are
 * clamped to the maximum. The environment variable
 * BLOCKBLOOM_PREFETCH_DISTANCE, read when the library loads, sets it too; a
 * value that is not a whole number in 1 .. BB_MAX_PREFETCH_DISTANCE is
 * refused (the defaults stay) and bb_prefetch_override_refused() says why.
 *
 * Hint: which cache level the prefetch fills; BB_PREFETCH_DEFAULT restores
 * the defaults (bb_prefetch_hint() then returns it). BLOCKBLOOM_PREFETCH_HINT=
 * none|l1|l2|l3 sets it when the library loads, refused like the distance.
 * On other architectures the hints map to the compiler's locality levels. */
#define BB_MAX_PREFETCH_DISTANCE 512u
typedef enum bb_prefetch_level {
  BB_PREFETCH_DEFAULT = -1, /* the default of each filter's size class */
  BB_PREFETCH_NONE = 0, /* no prefetching */
  BB_PREFETCH_L1 = 1,   /* x86 prefetcht0 */
  BB_PREFETCH_L2 = 2,   /* x86 prefetcht1 */
  BB_PREFETCH_L3 = 3    /* x86 prefetcht2 */
} bb_prefetch_level;

BB_API size_t bb_prefetch_distance(void);
BB_API void bb_set_prefetch_distance(size_t keys_ahead);
BB_API int bb_prefetch_hint(void);
/* BB_OK, or BB_ERR_INVALID_PREFETCH_HINT for a value outside bb_prefetch_level
 * (the setting is then unchanged). */
BB_API int bb_set_prefetch_hint(int hint);
/* "default", "none", "l1", "l2" or "l3" for a bb_prefetch_level; NULL for
 * anything else. */
BB_API const char* bb_prefetch_hint_name(int hint);
/* NULL, or why BLOCKBLOOM_PREFETCH_DISTANCE / BLOCKBLOOM_PREFETCH_HINT was
 * refused when the library loaded (a static string). */
BB_API const char* bb_prefetch_override_refused(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BLOCKBLOOM_TUNING_H_ */
