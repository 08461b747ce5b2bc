// SPDX-License-Identifier: Apache-2.0
// A filter's lock, and the only ways to take it. The rule: nobody waits for a
// filter's lock while holding the GIL (a thread that holds the lock may be
// waiting for the GIL: waiting for the lock with the GIL held could deadlock).
// It holds by construction: FilterMutex has no public way to lock it, and
// every guard below gives up the GIL (if the calling thread holds it) before
// it waits, and takes it back only after the lock is released. So nothing
// under a guard may touch a Python object (it may run without the GIL):
// convert arguments before, raise (Check) after.
#ifndef BLOCKBLOOM_PYTHON_LOCKS_H_
#define BLOCKBLOOM_PYTHON_LOCKS_H_

#include <pybind11/pybind11.h>

#include <shared_mutex>

namespace bbpy {

class FilterMutex {
 public:
  FilterMutex() = default;
  FilterMutex(const FilterMutex&) = delete;
  FilterMutex& operator=(const FilterMutex&) = delete;

 private:
  template <bool, bool> friend class FilterLock;
  friend class PairLock;
  std::shared_mutex mutex_;
};

// Release() gives up the GIL if the calling thread holds it (nothing
// otherwise: a guard taken inside a GIL-free block); the destructor takes it back.
class GilReleasedIfHeld {
 public:
  GilReleasedIfHeld() = default;
  GilReleasedIfHeld(const GilReleasedIfHeld&) = delete;
  GilReleasedIfHeld& operator=(const GilReleasedIfHeld&) = delete;
  ~GilReleasedIfHeld() {
    if (saved_ != nullptr) PyEval_RestoreThread(saved_);
  }
  void Release() {
    if (saved_ == nullptr && PyGILState_Check() != 0) saved_ = PyEval_SaveThread();
  }

 private:
  PyThreadState* saved_ = nullptr;
};

// One filter's lock: shared (finds, reads) or exclusive (inserts, clear).
// kBrief, for O(1) work (one hash): a free lock is taken at once keeping the
// GIL (no wait, and no GIL hand-over per call); a busy one as any other.
template <bool kExclusive, bool kBrief = false>
class FilterLock {
 public:
  explicit FilterLock(FilterMutex& m) : mutex_(m.mutex_) {
    if (kBrief && (kExclusive ? mutex_.try_lock() : mutex_.try_lock_shared())) return;
    gil_.Release();
    kExclusive ? mutex_.lock() : mutex_.lock_shared();
  }
  FilterLock(const FilterLock&) = delete;
  FilterLock& operator=(const FilterLock&) = delete;
  ~FilterLock() { kExclusive ? mutex_.unlock() : mutex_.unlock_shared(); }

 private:
  GilReleasedIfHeld gil_;  // declared first: taken back only after the unlock
  std::shared_mutex& mutex_;
};
using ReadLock = FilterLock<false>;
using WriteLock = FilterLock<true>;
using BriefReadLock = FilterLock<false, true>;
using BriefWriteLock = FilterLock<true, true>;

// Two filters' locks, in address order so that a.union(b) and b.union(a) in
// two threads cannot deadlock. `a_exclusive` says how a is taken; b is only read.
class PairLock {
 public:
  PairLock(FilterMutex& a, bool a_exclusive, FilterMutex& b)
      : a_(a.mutex_), a_exclusive_(a_exclusive), b_(&a == &b ? nullptr : &b.mutex_) {
    gil_.Release();
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
  GilReleasedIfHeld gil_;  // first, as in FilterLock
  std::shared_mutex& a_;
  bool a_exclusive_;
  std::shared_mutex* b_;
};

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_LOCKS_H_
