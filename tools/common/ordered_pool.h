// SPDX-License-Identifier: Apache-2.0
// RunOrdered: work items 0..n-1 computed by a bounded pool of threads and
// handed to the caller in index order, whatever order the threads finish
// in, so that output built from them is the same for any number of
// threads. At most `window` results, and a budget of bytes, wait to be
// consumed at a time, so memory stays bounded however many items there are
// and however big each result is.
#ifndef BLOCKBLOOM_TOOLS_COMMON_ORDERED_POOL_H_
#define BLOCKBLOOM_TOOLS_COMMON_ORDERED_POOL_H_

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace blockbloom_tools {

// The default number of threads: the machine's hardware threads (1 when
// the library cannot tell).
inline std::size_t DefaultJobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

// Calls consume(i, compute(i)) for i = 0..n-1 in order on the calling
// thread; compute runs on `jobs` threads (jobs <= 1: on the calling thread,
// no thread started; fewer when the system refuses more threads, the calling
// thread when it refuses all). compute must not throw (catch inside and return the
// failure as part of the result); an exception from consume stops the
// workers and is rethrown once they have stopped.
//
// Results wait for the consumer in a window of at most 4 x jobs + 16, and
// while those waiting weigh more than max_waiting_bytes (by bytes(result))
// no worker starts another item, unless nothing waits: memory stays bounded
// by the budget plus one result a thread, whatever the results weigh.
template <typename Result, typename Compute, typename Consume, typename Bytes>
void RunOrdered(std::size_t n, std::size_t jobs, std::size_t max_waiting_bytes, Compute compute,
                Consume consume, Bytes bytes) {
  if (jobs <= 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) consume(i, compute(i));
    return;
  }
  jobs = std::min(jobs, n);
  const std::size_t window = 4 * jobs + 16;  // results computed ahead of the consumer
  std::vector<std::optional<Result>> slots(window);
  std::vector<std::size_t> slot_bytes(window, 0);
  std::mutex mutex;
  std::condition_variable ready;  // the slot the consumer waits for was filled
  std::condition_variable freed;  // the consumer moved on, or stopped
  std::size_t next_claim = 0;     // the next index a worker takes
  std::size_t consumed = 0;       // indexes below this were consumed
  std::size_t waiting_bytes = 0;  // of the results filled and not yet consumed
  std::size_t workers_waiting = 0;
  bool stop = false;

  const auto may_claim = [&] {
    return stop || next_claim >= n ||
           (next_claim < consumed + window &&
            (waiting_bytes <= max_waiting_bytes || next_claim == consumed));
  };
  auto work = [&] {
    for (;;) {
      std::size_t i = 0;
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (!may_claim()) {
          ++workers_waiting;
          freed.wait(lock, may_claim);
          --workers_waiting;
        }
        if (stop || next_claim >= n) return;
        i = next_claim++;
      }
      Result result = compute(i);
      const std::size_t weight = bytes(result);
      bool wanted = false;
      {
        std::lock_guard<std::mutex> lock(mutex);
        slots[i % window].emplace(std::move(result));
        slot_bytes[i % window] = weight;
        waiting_bytes += weight;
        wanted = i == consumed;  // only the consumer's next slot wakes it
      }
      if (wanted) ready.notify_one();
    }
  };
  // The system may refuse a thread (RLIMIT_NPROC, address space for its
  // stack): the pool then runs on the threads it got, or on the calling
  // thread if it got none, rather than letting the exception terminate.
  std::vector<std::thread> threads;
  try {
    threads.reserve(jobs);
    for (std::size_t t = 0; t < jobs; ++t) threads.emplace_back(work);
  } catch (const std::exception&) {  // std::system_error, std::bad_alloc
  }
  if (threads.empty()) {
    for (std::size_t i = 0; i < n; ++i) consume(i, compute(i));
    return;
  }

  std::exception_ptr failure;
  try {
    for (std::size_t i = 0; i < n; ++i) {
      std::optional<Result> result;
      bool wake = false;
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait(lock, [&] { return slots[i % window].has_value(); });
        result.swap(slots[i % window]);
        waiting_bytes -= slot_bytes[i % window];
        consumed = i + 1;
        wake = workers_waiting > 0;
      }
      if (wake) freed.notify_all();
      consume(i, std::move(*result));
    }
  } catch (...) {
    failure = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  freed.notify_all();
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

// RunOrdered with the window alone bounding what waits (results of about
// the same, small size).
template <typename Result, typename Compute, typename Consume>
void RunOrdered(std::size_t n, std::size_t jobs, Compute compute, Consume consume) {
  RunOrdered<Result>(n, jobs, SIZE_MAX, compute, consume, [](const Result&) { return 0; });
}

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_ORDERED_POOL_H_
