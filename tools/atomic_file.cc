#include "atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cli_error.h"

namespace blockbloom_cli {
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

// A temporary file that is closed and removed on destruction unless renamed.
class TempFile {
 public:
  explicit TempFile(const std::string& target) : target_(target) {
    const std::string name = TempTemplate(target);
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    fd_ = ::mkstemp(buffer.data());
    if (fd_ < 0) Fail("cannot create a temporary file beside");
    name_ = buffer.data();
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!name_.empty()) ::unlink(name_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void Write(const unsigned char* data, std::size_t size) {
    while (size > 0) {
      const ssize_t written = ::write(fd_, data, size);
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) Fail("cannot write");
      data += written;
      size -= static_cast<std::size_t>(written);
    }
  }

  // Sets the mode, flushes, closes, and renames the file over the target.
  void Commit() {
    if (::fchmod(fd_, DefaultFileMode()) != 0) Fail("cannot set the mode of");
    if (::fsync(fd_) != 0) Fail("cannot flush");
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) Fail("cannot close");
    if (::rename(name_.c_str(), target_.c_str()) != 0) Fail("cannot replace");
    name_.clear();
  }

 private:
  [[noreturn]] void Fail(const char* what) const {
    throw CliError(std::string(what) + " " + target_ + ": " + std::strerror(errno));
  }

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
  TempFile temp(path);
  for (const ByteSpan& piece : pieces) {
    temp.Write(static_cast<const unsigned char*>(piece.data), piece.size);
  }
  temp.Commit();
}

}  // namespace blockbloom_cli
