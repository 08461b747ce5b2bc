// SPDX-License-Identifier: Apache-2.0
#include "src/dispatch/prefetch_classes.h"

namespace blockbloom::internal {
namespace {

// The reference table's rows, by what they are for.
const PrefetchClass& InCacheRow() { return kReferencePrefetchClasses.classes[0]; }
const PrefetchClass& SharedL3Row() { return kReferencePrefetchClasses.classes[1]; }
const PrefetchClass& DramRow() { return kReferencePrefetchClasses.classes[2]; }

// Appends row's setting from min_bytes on, if that is past the last class.
void AddClass(PrefetchClasses* classes, std::size_t min_bytes, const PrefetchClass& row) {
  if (classes->count == kMaxPrefetchClasses) return;
  if (classes->count > 0 && min_bytes <= classes->classes[classes->count - 1].min_bytes) return;
  classes->classes[classes->count++] = {min_bytes, row.hint, row.distance};
}

}  // namespace

PrefetchClasses ChoosePrefetchClasses(const CacheSizes& caches) {
  if (caches.l2 == 0 && caches.l3 == 0) return kReferencePrefetchClasses;
  // An L3 but no L2 reported: the reference machine's L2 stands in.
  const std::size_t l2 = caches.l2 != 0 ? caches.l2 : InCacheRow().min_bytes;
  PrefetchClasses classes{};
  if (caches.l3 <= l2) {
    AddClass(&classes, l2, DramRow());
    return classes;
  }
  AddClass(&classes, l2, InCacheRow());
  const std::size_t l3_per_core = L3PerCore(caches);
  if (l3_per_core < caches.l3) AddClass(&classes, l3_per_core, SharedL3Row());
  AddClass(&classes, caches.l3, DramRow());
  return classes;
}

const CacheSizes& DetectedCacheSizes() {
  static const CacheSizes caches = DetectCacheSizes();
  return caches;
}

const PrefetchClasses& DetectedPrefetchClasses() {
  static const PrefetchClasses classes = ChoosePrefetchClasses(DetectedCacheSizes());
  return classes;
}

namespace {

// Runs while the library is loaded, before main().
const bool kInstalledOnLoad = [] {
  g_prefetch_classes.store(&DetectedPrefetchClasses(), std::memory_order_relaxed);
  return true;
}();

}  // namespace
}  // namespace blockbloom::internal
