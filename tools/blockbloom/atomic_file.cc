// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tools/common/cli_error.h"

namespace blockbloom_tools {
namespace {

// "dir/name" -> "dir/.name.tmp.XXXXXX"; "name" -> ".name.tmp.XXXXXX".
std::string TempTemplate(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + base + ".tmp.XXXXXX";
}

// mkstemp creates files with mode 0600; give the result the usual 0666 & ~umask.
mode_t DefaultFileMode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

// What the replacement inherits from the file it replaces: a private 0600
// filter must not become world-readable because it was rebuilt (as editors
// and sed -i keep it). Without an existing file, the defaults apply.
struct Ownership {
  bool existed = false;
  uid_t uid = 0;
  gid_t gid = 0;
  mode_t mode = 0;
};

Ownership ExistingOwnership(const std::string& path) {
  Ownership owner;
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    owner.existed = true;
    owner.uid = info.st_uid;
    owner.gid = info.st_gid;
    owner.mode = info.st_mode & 07777;
  }
  return owner;
}

// Writes all of data to fd; throws CliError naming `name` on any error (ENOSPC
// from a full disk or /dev/full included).
void WriteAll(int fd, const std::string& name, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) throw CliError("cannot write " + name + ": " + std::strerror(errno));
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void WritePieces(int fd, const std::string& name, std::initializer_list<ByteSpan> pieces) {
  for (const ByteSpan& piece : pieces) {
    WriteAll(fd, name, static_cast<const unsigned char*>(piece.data), piece.size);
  }
}

// Flushes what was written in place. A pipe, terminal or device cannot be
// synced (EINVAL) and needs no sync; any other failure is an error.
void SyncInPlace(int fd, const std::string& name) {
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    throw CliError("cannot flush " + name + ": " + std::strerror(errno));
  }
}

// The file that path finally names, following symbolic links one by one (a
// relative link is relative to its own directory), so that the link itself
// is kept and its target replaced. A dangling link gives the missing target,
// which is then created.
std::string FollowSymlinks(const std::string& path) {
  constexpr int kMaxHops = 40;  // as the kernel's ELOOP limit
  std::string current = path;
  for (int hop = 0; hop < kMaxHops; ++hop) {
    struct stat info {};
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
    std::vector<char> buffer(4096);
    const ssize_t n = ::readlink(current.c_str(), buffer.data(), buffer.size());
    if (n < 0 || static_cast<std::size_t>(n) == buffer.size()) {
      throw CliError("-o " + path + ": cannot read the symbolic link " + current + ": " +
                     (n < 0 ? std::strerror(errno) : "target too long"));
    }
    std::string link(buffer.data(), static_cast<std::size_t>(n));
    const std::size_t slash = current.rfind('/');
    if (link.empty() || link[0] != '/') {
      link = (slash == std::string::npos ? "" : current.substr(0, slash + 1)) + link;
    }
    current = link;
  }
  throw CliError("-o " + path + ": " + std::strerror(ELOOP));
}

// An existing OUT that is no regular file (a character device such as
// /dev/null, a FIFO, /dev/stdout on a pipe or terminal) is written in place,
// as a shell's > would: replacing it would destroy the device node or FIFO.
void WriteInPlace(const std::string& path, std::initializer_list<ByteSpan> pieces) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) throw CliError("cannot open " + path + ": " + std::strerror(errno));
  try {
    WritePieces(fd, path, pieces);
    SyncInPlace(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw CliError("cannot close " + path + ": " + std::strerror(errno));
}

// -o -: standard output, as --input - is standard input.
void WriteToStdout(std::initializer_list<ByteSpan> pieces) {
  std::fflush(stdout);  // nothing is printed with stdio first, but keep the order if it is
  WritePieces(STDOUT_FILENO, "<stdout>", pieces);
  SyncInPlace(STDOUT_FILENO, "<stdout>");
}

// SIGINT, SIGTERM or SIGHUP while a large filter is written would leave a
// temporary file of hundreds of MB behind: the handler removes it, then lets
// the signal end the process as it would have (so the caller sees the signal).
// The name lives in a fixed buffer, as a handler may not touch a std::string;
// it is only changed with those signals blocked.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
char g_temp_name[4096];
volatile sig_atomic_t g_temp_armed = 0;

extern "C" void RemoveTempAndReraise(int sig) {
  if (g_temp_armed) ::unlink(g_temp_name);  // async-signal-safe, as is raise
  // SA_RESETHAND has restored the default action; the signal is blocked while
  // this runs, so it is delivered, and ends the process, when this returns.
  ::raise(sig);
}

// Blocks the cleanup signals for its lifetime, so the handler never sees the
// temporary file half recorded, or recorded after it was renamed away.
class CleanupSignalsBlocked {
 public:
  CleanupSignalsBlocked() {
    sigset_t set;
    ::sigemptyset(&set);
    for (const int sig : kCleanupSignals) ::sigaddset(&set, sig);
    ::sigprocmask(SIG_BLOCK, &set, &old_);
  }
  ~CleanupSignalsBlocked() { ::sigprocmask(SIG_SETMASK, &old_, nullptr); }
  CleanupSignalsBlocked(const CleanupSignalsBlocked&) = delete;
  CleanupSignalsBlocked& operator=(const CleanupSignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

// Installs RemoveTempAndReraise for its lifetime, then restores what was
// there. A signal the process ignores (nohup's SIGHUP, SIGINT in a background
// job) stays ignored.
class CleanupHandlers {
 public:
  CleanupHandlers() {
    struct sigaction action {};
    action.sa_handler = RemoveTempAndReraise;
    action.sa_flags = SA_RESETHAND;
    ::sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kCount; ++i) {
      struct sigaction& old = old_[i];
      installed_[i] = ::sigaction(kCleanupSignals[i], nullptr, &old) == 0 &&
                      old.sa_handler != SIG_IGN &&
                      ::sigaction(kCleanupSignals[i], &action, nullptr) == 0;
    }
  }
  ~CleanupHandlers() {
    for (std::size_t i = 0; i < kCount; ++i) {
      if (installed_[i]) ::sigaction(kCleanupSignals[i], &old_[i], nullptr);
    }
  }
  CleanupHandlers(const CleanupHandlers&) = delete;
  CleanupHandlers& operator=(const CleanupHandlers&) = delete;

 private:
  static constexpr std::size_t kCount = sizeof kCleanupSignals / sizeof kCleanupSignals[0];
  struct sigaction old_[kCount] {};
  bool installed_[kCount] {};
};

// Records (or, with nullptr, forgets) the file the handler is to remove; call
// with the cleanup signals blocked. A name too long for the buffer is not
// recorded: mkstemp could not have created it on Linux (PATH_MAX) anyway.
void RecordTempName(const char* name) {
  g_temp_armed = 0;
  if (name == nullptr || std::strlen(name) >= sizeof g_temp_name) return;
  std::memcpy(g_temp_name, name, std::strlen(name) + 1);
  g_temp_armed = 1;
}

// A temporary file that is closed and removed on destruction unless renamed,
// and removed by SIGINT, SIGTERM and SIGHUP while it exists.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : target_(target) {
    const std::string name = TempTemplate(target);
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    const CleanupSignalsBlocked blocked;  // create and record it as one step
    fd_ = ::mkstemp(buffer.data());
    if (fd_ < 0) Fail("cannot create a temporary file beside");
    name_ = buffer.data();
    RecordTempName(name_.c_str());
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    const CleanupSignalsBlocked blocked;
    if (!name_.empty()) ::unlink(name_.c_str());
    RecordTempName(nullptr);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void Write(std::initializer_list<ByteSpan> pieces) { WritePieces(fd_, target_, pieces); }

  // Gives the file the replaced file's owner and mode (or the default mode),
  // flushes, closes, and renames it over the target.
  void Commit() {
    const Ownership owner = ExistingOwnership(target_);
    // Owner first: a chown may clear set-id bits that the chmod then restores.
    // Only root may give a file away; anyone else keeps their own (EPERM),
    // which is what an editor does too.
    if (owner.existed && ::fchown(fd_, owner.uid, owner.gid) != 0 && errno != EPERM) {
      Fail("cannot set the owner of");
    }
    if (::fchmod(fd_, owner.existed ? owner.mode : DefaultFileMode()) != 0) {
      Fail("cannot set the mode of");
    }
    if (::fsync(fd_) != 0) Fail("cannot flush");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) Fail("cannot close");
    const CleanupSignalsBlocked blocked;  // rename and forget it as one step
    if (::rename(name_.c_str(), target_.c_str()) != 0) Fail("cannot replace");
    name_.clear();
    RecordTempName(nullptr);
  }

 private:
  [[noreturn]] void Fail(const char* what) const {
    throw CliError(std::string(what) + " " + target_ + ": " + std::strerror(errno));
  }

  const CleanupHandlers handlers_;  // first member: in place before the file exists
  std::string target_;
  std::string name_;
  int fd_ = -1;
};

}  // namespace

void WriteFileAtomically(const std::string& path, const void* data, std::size_t size) {
  WriteFileAtomically(path, {ByteSpan{data, size}});
}

void WriteFileAtomically(const std::string& path, std::initializer_list<ByteSpan> pieces) {
  if (path.empty() || path.back() == '/') throw CliError("-o " + path + ": not a file name");
  if (path == "-") return WriteToStdout(pieces);
  struct stat info {};
  // stat follows every link, /proc/self/fd/N ones included, to what is there.
  if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    if (S_ISDIR(info.st_mode)) throw CliError("-o " + path + ": is a directory");
    return WriteInPlace(path, pieces);
  }
  TempFile temp(FollowSymlinks(path));
  temp.Write(pieces);
  temp.Commit();
}

}  // namespace blockbloom_tools
