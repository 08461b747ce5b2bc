// SPDX-License-Identifier: Apache-2.0
// Taking a filter's lock without ever blocking on it while holding the GIL
// (a thread that holds the lock may be waiting for the GIL: blocking on the
// lock with the GIL held could deadlock).
#ifndef BLOCKBLOOM_PYTHON_LOCKS_H_
#define BLOCKBLOOM_PYTHON_LOCKS_H_

#include <pybind11/pybind11.h>

#include <mutex>
#include <shared_mutex>

namespace bbpy {

using SharedLock = std::shared_lock<std::shared_mutex>;
using UniqueLock = std::unique_lock<std::shared_mutex>;

// Called with the GIL held, returns with the GIL held and the lock taken.
template <class Lock>
Lock LockHoldingGil(std::shared_mutex& mutex) {
  Lock lock(mutex, std::try_to_lock);
  if (!lock.owns_lock()) {
    pybind11::gil_scoped_release release;
    lock.lock();
  }
  return lock;
}

// Two filters' locks (without the GIL), in address order so that a.union(b)
// and b.union(a) in two threads cannot deadlock. `a_exclusive` says how a is taken; b is only read.
class PairLock {
 public:
  PairLock(std::shared_mutex& a, bool a_exclusive, std::shared_mutex& b) : a_(a), a_exclusive_(a_exclusive), b_(&a == &b ? nullptr : &b) {
    if (b_ != nullptr && b_ < &a_) {
      b_->lock_shared();
      LockA();
    } else {
      LockA();
      if (b_ != nullptr) b_->lock_shared();
    }
  }
  PairLock(const PairLock&) = delete;
  PairLock& operator=(const PairLock&) = delete;
  ~PairLock() {
    if (b_ != nullptr) b_->unlock_shared();
    a_exclusive_ ? a_.unlock() : a_.unlock_shared();
  }

 private:
  void LockA() { a_exclusive_ ? a_.lock() : a_.lock_shared(); }
  std::shared_mutex& a_;
  bool a_exclusive_;
  std::shared_mutex* b_;
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_LOCKS_H_
