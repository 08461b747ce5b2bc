// SPDX-License-Identifier: Apache-2.0
#include "tools/blockbloom/hash_input.h"

#include <string_view>

#include "tools/common/cli_error.h"
#include "tools/blockbloom/input_lines.h"
#include "tools/common/number_parse.h"
#include "tools/blockbloom/value_hashing.h"
#include "tools/common/value_parse.h"

namespace blockbloom_tools {
namespace {

// Where a line is, for messages; the text is built only when one is thrown.
struct LinePlace {
  const LineReader& reader;
  std::string Prefix() const { return LineLocation(reader.shown_name(), reader.line_number()); }
};

// A line that is a hash already.
std::uint64_t ParseHashLine(std::string_view line, bool kudu, const LinePlace& where) {
  std::uint64_t hash = 0;
  switch (ParseUint64(line, &hash)) {
    case ParseStatus::kOk:
      break;
    case ParseStatus::kEmpty:
      throw CliError(where.Prefix() + "empty line (expected an unsigned 64-bit number)");
    case ParseStatus::kInvalid:
      throw CliError(where.Prefix() + "not an unsigned 64-bit number: " + Quote(TrimLine(line)));
    case ParseStatus::kOverflow:
      throw CliError(where.Prefix() + "not an unsigned 64-bit number (larger than 2^64-1): " +
                     Quote(TrimLine(line)));
  }
  if (kudu && hash > 0xffffffffu) {
    throw CliError(where.Prefix() + "larger than 2^32-1 (--layout kudu takes 32-bit hashes): " +
                   Quote(TrimLine(line)));
  }
  return hash;
}

// Throws the message for a typed value that did not parse.
[[noreturn]] void ThrowBadValue(ValueStatus status, ValueType type, std::string_view line,
                                const LinePlace& where) {
  const std::string name = ValueTypeName(type);
  if (status == ValueStatus::kEmpty) {
    throw CliError(where.Prefix() + "empty line (expected a value of type " + name + ")");
  }
  if (status == ValueStatus::kOutOfRange) {
    const char* range = type == ValueType::kInt32 ? " (-2147483648 .. 2147483647)" : "";
    throw CliError(where.Prefix() + "out of range for " + name + range + ": " +
                   Quote(TrimLine(line)));
  }
  throw CliError(where.Prefix() + "not a valid " + name + ": " + Quote(TrimLine(line)));
}

// A line that is a value of options.type, hashed.
std::uint64_t HashValueLine(std::string_view line, ValueType type, const ValueHasher& hasher,
                            const LinePlace& where) {
  ValueStatus status = ValueStatus::kOk;
  switch (type) {
    case ValueType::kString:
      return hasher.String(line);
    case ValueType::kInt32: {
      std::int32_t value = 0;
      status = ParseInt32(line, &value);
      if (status == ValueStatus::kOk) return hasher.Int32(value);
      break;
    }
    case ValueType::kInt64: {
      std::int64_t value = 0;
      status = ParseInt64(line, &value);
      if (status == ValueStatus::kOk) return hasher.Int64(value);
      break;
    }
    case ValueType::kFloat: {
      float value = 0;
      status = ParseFloat(line, &value);
      if (status == ValueStatus::kOk) return hasher.Float(value);
      break;
    }
    case ValueType::kDouble: {
      double value = 0;
      status = ParseDouble(line, &value);
      if (status == ValueStatus::kOk) return hasher.Double(value);
      break;
    }
  }
  ThrowBadValue(status, type, line, where);
}

}  // namespace

void ForEachHashBatch(const std::string& path, const HashOptions& options, Layout layout,
                      const std::function<void(const std::vector<std::uint64_t>&)>& on_batch) {
  LineReader reader(path);
  const ValueHasher hasher(options.mode, options.seed);
  const LinePlace where{reader};
  std::vector<std::uint64_t> hashes;
  hashes.reserve(kHashBatch);
  std::string_view line;
  while (reader.Next(&line)) {
    if (options.mode == HashMode::kNone) {
      hashes.push_back(ParseHashLine(line, layout == Layout::kKudu, where));
    } else {
      hashes.push_back(HashValueLine(line, options.type, hasher, where));
    }
    if (hashes.size() == kHashBatch) {
      on_batch(hashes);
      hashes.clear();
    }
  }
  if (!hashes.empty()) on_batch(hashes);
}

}  // namespace blockbloom_tools
