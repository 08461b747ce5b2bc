// Whether a filter's memory got transparent huge pages: the share of the
// mapping that holds addr backed by them, from /proc/self/smaps (-1 if it
// cannot be read, e.g. not on Linux).
#ifndef BLOCKBLOOM_BENCH_HUGE_PAGES_H_
#define BLOCKBLOOM_BENCH_HUGE_PAGES_H_

namespace blockbloom_bench {

double HugePageFraction(const void* addr);

}  // namespace blockbloom_bench

#endif  // BLOCKBLOOM_BENCH_HUGE_PAGES_H_
