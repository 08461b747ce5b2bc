// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/parquet/dataset_paths.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <utility>

namespace blockbloom_tools {
namespace {

bool HasPatternCharacter(const std::string& text) {
  return text.find_first_of("*?[") != std::string::npos;
}

bool EndsWithParquet(const std::string& name) {
  static const std::string kSuffix = ".parquet";
  return name.size() >= kSuffix.size() &&
         name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

std::string ErrorText(int error) { return std::generic_category().message(error); }

// dir/name, as the user would write it ("d/" + "x" is "d/x", not "d//x").
std::string Join(const std::string& dir, const char* name) {
  return dir.empty() || dir.back() == '/' ? dir + name : dir + "/" + name;
}

// What one thread found: files, errors, and whether a symlink was met (a
// file may then be reached under two names).
struct Found {
  std::vector<std::string> files;
  std::vector<PathError> errors;
  bool met_symlink = false;

  void Error(const std::string& path, const std::string& why) { errors.push_back({path, why}); }

  // A path known to exist (st: what it resolves to): a regular file is
  // taken, anything else reported.
  void Entry(const std::string& path, const struct stat& st) {
    if (S_ISREG(st.st_mode)) {
      files.push_back(path);
    } else {
      Error(path, "not a regular file (a Parquet file's footer is read from its end)");
    }
  }

  void Append(Found&& other) {
    files.insert(files.end(), std::make_move_iterator(other.files.begin()),
                 std::make_move_iterator(other.files.end()));
    errors.insert(errors.end(), std::make_move_iterator(other.errors.begin()),
                  std::make_move_iterator(other.errors.end()));
    met_symlink = met_symlink || other.met_symlink;
  }
};

// Lists one directory into found; its subdirectories go to subdirs. The
// entry types come from the listing itself (d_type): a regular file or a
// directory costs no system call of its own, so a dataset of ten thousand
// files is walked with a handful of calls a directory. Subdirectories are
// walked whatever their names (Hive-style "key=value" partitions, Spark's
// "table.parquet/"); symlinks to directories are not followed, so a link
// back up cannot loop.
void ListDirectory(const std::string& dir, Found* found, std::vector<std::string>* subdirs) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) {
    return found->Error(dir, "the directory cannot be listed: " + ErrorText(errno));
  }
  for (;;) {
    errno = 0;
    const dirent* entry = ::readdir(listing);
    if (entry == nullptr) {
      if (errno != 0) found->Error(dir, "the directory cannot be listed whole: " + ErrorText(errno));
      break;
    }
    const char* name = entry->d_name;
    if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
    unsigned char type = entry->d_type;
    if (type == DT_UNKNOWN) {  // a file system that does not say: ask it
      struct stat st;
      if (::fstatat(::dirfd(listing), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        // Gone since the listing, or unreadable: an error only for a name
        // the walk would have taken (a directory's error is its listing's).
        if (EndsWithParquet(name)) found->Error(Join(dir, name), ErrorText(errno));
        continue;
      }
      type = S_ISDIR(st.st_mode)   ? DT_DIR
             : S_ISLNK(st.st_mode) ? DT_LNK
             : S_ISREG(st.st_mode) ? DT_REG
                                   : DT_FIFO;  // any other kind: looked at below
    }
    if (type == DT_DIR) {
      subdirs->push_back(Join(dir, name));
      continue;
    }
    if (!EndsWithParquet(name)) continue;
    const std::string path = Join(dir, name);
    if (type == DT_REG) {
      found->files.push_back(path);
      continue;
    }
    if (type == DT_LNK) found->met_symlink = true;
    struct stat target;  // a symlink followed, or a FIFO, socket or device
    if (::fstatat(::dirfd(listing), name, &target, 0) != 0) {
      found->Error(path, ErrorText(errno));  // a dangling symlink
    } else if (!S_ISDIR(target.st_mode)) {  // a symlink to a directory: not followed
      found->Entry(path, target);
    }
  }
  ::closedir(listing);
}

// Walks the directories roots on `jobs` threads (the calling thread alone
// when jobs <= 1, or when the system refuses every thread): a directory
// listed by one thread hands its subdirectories to whichever thread is free.
// Threads start only once two directories wait to be listed: a dataset of
// one folder is walked without any (and so under an emulator where threads
// crawl, or where the system gives none).
Found WalkDirectories(std::vector<std::string> roots, std::size_t jobs) {
  Found found;
  std::vector<std::string> pending = std::move(roots);
  while (!pending.empty() && (jobs <= 1 || pending.size() < 2)) {
    const std::string dir = std::move(pending.back());
    pending.pop_back();
    ListDirectory(dir, &found, &pending);
  }
  if (pending.empty()) return found;
  std::mutex mutex;
  std::condition_variable more;  // a directory was queued, or the walk ended
  std::size_t busy = 0;  // threads listing a directory (which may queue more)
  // An exception in a thread (std::bad_alloc) would end the process: it
  // stops the walk instead, and is rethrown on the calling thread.
  std::exception_ptr failure;
  auto work = [&](Found* mine) {
    std::vector<std::string> subdirs;
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      more.wait(lock, [&] { return !pending.empty() || busy == 0; });
      if (pending.empty() || failure) return;  // nothing queued, nobody listing: done
      std::string dir = std::move(pending.back());
      pending.pop_back();
      ++busy;
      lock.unlock();
      std::exception_ptr thrown;
      try {
        ListDirectory(dir, mine, &subdirs);
      } catch (...) {
        thrown = std::current_exception();
      }
      lock.lock();
      --busy;
      if (thrown) {
        if (!failure) failure = thrown;
        pending.clear();
      }
      for (std::string& d : subdirs) pending.push_back(std::move(d));
      subdirs.clear();
      more.notify_all();
    }
  };
  std::vector<Found> per_thread(jobs);
  std::vector<std::thread> threads;
  try {
    threads.reserve(jobs);
    for (std::size_t t = 0; t < jobs; ++t) threads.emplace_back(work, &per_thread[t]);
  } catch (const std::exception&) {  // std::system_error, std::bad_alloc: fewer threads
  }
  if (threads.empty()) work(&found);
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  for (Found& f : per_thread) found.Append(std::move(f));
  return found;
}

// Operands one by one: files and patterns at once, directories gathered to
// be walked together.
class Expander {
 public:
  void Operand(const std::string& path) {
    struct stat link;
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) found_.met_symlink = true;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      const int error = errno;
      if (HasPatternCharacter(path)) return Pattern(path);
      return found_.Error(path, ErrorText(error));
    }
    if (S_ISDIR(st.st_mode)) return roots_.push_back(path);
    found_.Entry(path, st);
  }

  Found Finish(std::size_t jobs) {
    found_.Append(WalkDirectories(std::move(roots_), jobs));
    return std::move(found_);
  }

 private:
  void Pattern(const std::string& pattern) {
    glob_t matches{};
    glob_errors = &found_.errors;
    const int status = ::glob(pattern.c_str(), 0, OnGlobError, &matches);
    glob_errors = nullptr;
    if (status == GLOB_NOMATCH) {
      found_.Error(pattern, "no file matches the pattern");
    } else if (status != 0) {
      found_.Error(pattern, "the pattern cannot be expanded (a directory could not be read)");
    } else {
      for (std::size_t i = 0; i < matches.gl_pathc; ++i) {
        const std::string match = matches.gl_pathv[i];
        struct stat link;
        if (::lstat(match.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) found_.met_symlink = true;
        struct stat st;
        if (::stat(match.c_str(), &st) != 0) {
          found_.Error(match, ErrorText(errno));  // a dangling symlink
        } else if (S_ISDIR(st.st_mode)) {
          roots_.push_back(match);
        } else {
          found_.Entry(match, st);
        }
      }
    }
    ::globfree(&matches);
  }

  // glob's error callback has no context argument: the errors of the pattern
  // being expanded go here (expansion runs on one thread at a time).
  static thread_local std::vector<PathError>* glob_errors;

  // A directory the pattern met that cannot be listed: reported as skipped,
  // as the walk reports one, and the expansion goes on with the rest.
  static int OnGlobError(const char* path, int error) {
    glob_errors->push_back({path, "the directory cannot be listed: " + ErrorText(error)});
    return 0;
  }

  Found found_;
  std::vector<std::string> roots_;
};

thread_local std::vector<PathError>* Expander::glob_errors = nullptr;

// One file named two ways (d1 and ./d1, a symlink) is probed once: the first
// of its names in path order is kept. Only two operands or a symlink can name
// a file twice (a directory lists each entry once; a pattern's matches are
// distinct names at one depth): without either nothing is resolved for this.
// Names are compared resolved (realpath), not by inode: hard links are names
// of their own, probed under each, as `find` lists them.
std::vector<std::string> DistinctFiles(std::vector<std::string> sorted) {
  std::set<std::string> seen;
  std::vector<std::string> distinct;
  for (std::string& path : sorted) {
    char* resolved = ::realpath(path.c_str(), nullptr);
    const bool first = resolved == nullptr || seen.insert(resolved).second;
    std::free(resolved);
    if (first) distinct.push_back(std::move(path));
  }
  return distinct;
}

}  // namespace

bool NamesManyFiles(const std::string& operand) {
  struct stat st;
  if (::stat(operand.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  return HasPatternCharacter(operand);
}

DatasetPaths ExpandDatasetPaths(const std::vector<std::string>& operands, std::size_t jobs) {
  Expander expander;
  for (const std::string& operand : operands) expander.Operand(operand);
  Found found = expander.Finish(jobs);
  DatasetPaths out;
  out.files = std::move(found.files);
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  if (operands.size() > 1 || found.met_symlink) out.files = DistinctFiles(std::move(out.files));
  out.errors = std::move(found.errors);
  std::sort(out.errors.begin(), out.errors.end(),
            [](const PathError& a, const PathError& b) { return a.path < b.path; });
  return out;
}

}  // namespace blockbloom_tools
