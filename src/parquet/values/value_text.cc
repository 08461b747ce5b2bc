// SPDX-License-Identifier: Apache-2.0
// Values as people write them, turned into the bytes Parquet hashes
// (bb_parquet_encode_text, bb_parquet_hash_text, bb_parquet_value_form;
// parquet_value.h). The text parsers live in value_parse.cc and
// value_parse_time.cc, each type's description (Rules) in value_rules.cc.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "src/parquet/values/type_table.h"
#include "src/parquet/values/value_parse.h"
#include "src/parquet/values/value_rules.h"
#include "blockbloom/parquet_value.h"

namespace blockbloom::internal::parquet_value {
namespace {

std::string Form(const Rules& r, bool hex_flag) {
  const char* kFrac[] = {"", "", "", "fraction of up to 3 digits", "", "",
                         "fraction of up to 6 digits", "", "", "fraction of up to 9 digits"};
  switch (r.kind) {
    case Kind::kInteger: return "an integer " + IntText(r.min) + " .. " + IntText(r.max);
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kFloat16: return "a decimal or hex floating-point number, nan, inf or -inf";
    case Kind::kDecimal:
      return "[-]digits[.digits][E[-]digits], at most " + std::to_string(r.precision - r.scale) +
             " integer and " + std::to_string(r.scale) + " fraction digits";
    case Kind::kDate: return "YYYY-MM-DD (0001-01-01 .. 9999-12-31)";
    case Kind::kTime:
      return std::string("HH:MM:SS[.fraction], the ") + kFrac[r.digits] +
             (r.utc ? ", then optionally Z, UTC or an offset +HH[:MM]" : ", local time (no offset)");
    case Kind::kTimestamp:
    case Kind::kInt96:
      return std::string("YYYY-MM-DD[ T]HH:MM:SS[.fraction], the ") + kFrac[r.digits] +
             (r.utc ? ", then optionally Z, UTC or an offset +HH[:MM]" : ", local time (no offset)");
    case Kind::kUuid: return "8-4-4-4-12 or 32 hex digits (optionally in {} or after urn:uuid:)";
    case Kind::kInterval:
      return "M months D days N ms, 1 mon 2 days 00:00:01.5 or P1M2DT1.5S "
             "(months, days, ms each 0 .. 4294967295)";
    case Kind::kBytes: {
      std::string n = r.width ? "exactly " + std::to_string(r.width) + " bytes" : "any bytes";
      return r.hex || hex_flag ? "hex digits, two a byte, " + n : n;
    }
    default: return r.why;
  }
}

// "urn:uuid:" in any case.
bool IsUrnPrefix(std::string_view s) {
  static const char kUrn[] = "urn:uuid:";
  if (s.size() != 9) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (c != kUrn[i]) return false;
  }
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool Hex(std::string_view s, std::string* out) {
  if (s.size() % 2) return false;
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = HexDigit(s[i]), lo = HexDigit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi << 4 | lo));
  }
  return true;
}

// Each type family's text into its stored bytes (appended to *out), or the
// code with the phrase in *why.

int EncodeInteger(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  Int128 v = 0;
  const int rc = ParseInteger(s, r.min, r.max, &v, why);
  if (rc == BB_OK) PutLittle(static_cast<UInt128>(v), r.width, out);
  return rc;
}

// FLOAT, DOUBLE and FLOAT16: every NaN the one quiet NaN of the type.
int EncodeFloat(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  FloatClass cls = FloatClass::kNumber;
  int rc = BB_OK;
  if (r.kind == Kind::kFloat) {
    float f = 0;
    rc = ParseFloat(s, &f, &cls, why);
    if (rc != BB_OK) return rc;
    uint32_t bits = kFloatNaN;
    if (cls == FloatClass::kNumber) std::memcpy(&bits, &f, 4);
    PutLittle(bits, 4, out);
  } else if (r.kind == Kind::kDouble) {
    double d = 0;
    rc = ParseDouble(s, &d, &cls, why);
    if (rc != BB_OK) return rc;
    uint64_t bits = kDoubleNaN;
    if (cls == FloatClass::kNumber) std::memcpy(&bits, &d, 8);
    PutLittle(bits, 8, out);
  } else {
    uint16_t bits = 0;
    rc = ParseHalf(s, &bits, why);
    if (rc == BB_OK) PutLittle(bits, 2, out);
  }
  return rc;
}

int EncodeDecimal(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  Int128 v = 0;
  const int rc = ParseDecimal(s, r.precision, r.scale, &v, why);
  if (rc != BB_OK) return rc;
  return PutUnscaled(r, v, out, why);
}

int EncodeDate(std::string_view s, std::string* out, std::string* why) {
  int64_t days = 0;
  const int rc = ParseDate(s, &days, why);
  if (rc == BB_OK) PutLittle(static_cast<UInt128>(static_cast<Int128>(days)), 4, out);
  return rc;
}

int EncodeTime(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  int64_t nanos = 0;
  const int rc = ParseTime(s, r.digits, r.utc, &nanos, why);
  static const int64_t kDiv[] = {1, 1, 1, 1000000, 1, 1, 1000, 1, 1, 1};
  if (rc == BB_OK) PutLittle(static_cast<uint64_t>(nanos / kDiv[r.digits]), r.width, out);
  return rc;
}

// TIMESTAMP as a count of its unit since 1970, INT96 as nanoseconds of the
// day then the Julian day.
int EncodeTimestamp(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  int64_t days = 0, nanos = 0;
  const int rc = ParseTimestamp(s, r.digits, r.utc, &days, &nanos, why);
  if (rc != BB_OK) return rc;
  if (r.kind == Kind::kInt96) {
    PutLittle(static_cast<uint64_t>(nanos), 8, out);
    PutLittle(static_cast<uint32_t>(days + kJulian1970), 4, out);
    return BB_OK;
  }
  static const int64_t kPerUnit[] = {0, 0, 0, 1000000, 0, 0, 1000, 0, 0, 1};
  const int64_t per = kPerUnit[r.digits];
  const int64_t units_per_day = int64_t{86400} * (1000000000 / per);
  const Int128 v = Int128{days} * units_per_day + nanos / per;
  if (v < std::numeric_limits<int64_t>::min() || v > std::numeric_limits<int64_t>::max()) {
    *why = "is out of the unit's 64-bit range";
    return BB_ERR_VALUE_RANGE;
  }
  PutLittle(static_cast<UInt128>(v), 8, out);
  return BB_OK;
}

int EncodeUuid(std::string_view s, std::string* out, std::string* why) {
  // SQL Server and .NET print braces around it, RFC 4122's URN a prefix.
  if (s.size() == 38 && s.front() == '{' && s.back() == '}') {
    s = s.substr(1, 36);
  } else if (s.size() == 45 && IsUrnPrefix(s.substr(0, 9))) {
    s.remove_prefix(9);
  }
  std::string h(s);
  if (h.size() == 36 && h[8] == '-' && h[13] == '-' && h[18] == '-' && h[23] == '-') {
    h = h.substr(0, 8) + h.substr(9, 4) + h.substr(14, 4) + h.substr(19, 4) + h.substr(24);
  }
  if (h.size() != 32 || !Hex(h, out)) {
    out->clear();
    *why = "is not a UUID";
    return BB_ERR_VALUE_SYNTAX;
  }
  return BB_OK;
}

int EncodeInterval(std::string_view s, std::string* out, std::string* why) {
  Interval v;
  const int rc = ParseInterval(s, &v, why);
  if (rc != BB_OK) return rc;
  PutLittle(v.months, 4, out);
  PutLittle(v.days, 4, out);
  PutLittle(v.millis, 4, out);
  return BB_OK;
}

// The text's bytes as they are, or with hex the bytes its digits spell.
int EncodeBytes(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  if (r.hex) {
    if (!Hex(s, out)) {
      out->clear();
      *why = s.size() % 2 ? "has an odd number of hex digits" : "is not hex digits";
      return BB_ERR_VALUE_SYNTAX;
    }
  } else {
    out->assign(s.data(), s.size());
  }
  if (r.width && out->size() != static_cast<size_t>(r.width)) {
    *why = "is " + std::to_string(out->size()) + " bytes, not " + std::to_string(r.width);
    return BB_ERR_VALUE_SYNTAX;
  }
  return BB_OK;
}

int Encode(const Rules& r, std::string_view s, std::string* out, std::string* why) {
  switch (r.kind) {
    case Kind::kInteger: return EncodeInteger(r, s, out, why);
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kFloat16: return EncodeFloat(r, s, out, why);
    case Kind::kDecimal: return EncodeDecimal(r, s, out, why);
    case Kind::kDate: return EncodeDate(s, out, why);
    case Kind::kTime: return EncodeTime(r, s, out, why);
    case Kind::kTimestamp:
    case Kind::kInt96: return EncodeTimestamp(r, s, out, why);
    case Kind::kUuid: return EncodeUuid(s, out, why);
    case Kind::kInterval: return EncodeInterval(s, out, why);
    case Kind::kBytes: return EncodeBytes(r, s, out, why);
    default:
      *why = r.why;
      return BB_ERR_PARQUET_UNSUPPORTED;
  }
}

void Say(const std::string& s, char* out, size_t capacity) {
  if (out == nullptr || capacity == 0) return;
  const size_t n = s.size() < capacity - 1 ? s.size() : capacity - 1;
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
}

}  // namespace

// The bytes of text, or an error code with the phrase in *why.
int EncodeText(const bb_parquet_column* type, const char* text, size_t len, uint32_t flags,
               std::string* bytes, std::string* why) {
  if (type->struct_size < sizeof(bb_parquet_column)) {
    *why = "the column type's struct_size is too small";
    return BB_ERR_BUFFER_TOO_SMALL;
  }
  const Rules r = RulesFor(*type, flags);
  if (r.kind == Kind::kUnsupported) {
    *why = "cannot be written as text: the column " + r.why;
    return BB_ERR_PARQUET_UNSUPPORTED;
  }
  if ((flags & BB_PARQUET_TEXT_HEX) && !r.hex) {
    *why = "cannot be given as hex: hex is for " + parquet_types::HexTypeList();
    return BB_ERR_VALUE_SYNTAX;
  }
  const int rc = Encode(r, std::string_view(text == nullptr ? "" : text, len), bytes, why);
  if (rc != BB_OK) *why += " (wants " + Form(r, false) + ")";
  return rc;
}

}  // namespace blockbloom::internal::parquet_value

extern "C" int bb_parquet_encode_text(const bb_parquet_column* type, const char* text, size_t len,
                                      uint32_t flags, uint8_t* out, size_t capacity,
                                      size_t* out_len, char* error, size_t error_capacity) {
  namespace in = blockbloom::internal::parquet_value;
  if (type == nullptr || out_len == nullptr || (out == nullptr && capacity > 0) ||
      (text == nullptr && len > 0)) {
    in::Say("a NULL pointer was passed", error, error_capacity);
    return BB_ERR_NULL_POINTER;
  }
  std::string bytes, why;
  int rc = in::EncodeText(type, text, len, flags, &bytes, &why);
  if (rc == BB_OK && bytes.size() > capacity) {
    why = "does not fit in the room given for its bytes";
    rc = BB_ERR_BUFFER_TOO_SMALL;
  }
  if (rc != BB_OK) {
    in::Say(why, error, error_capacity);
    return rc;
  }
  if (!bytes.empty()) std::memcpy(out, bytes.data(), bytes.size());
  *out_len = bytes.size();
  return BB_OK;
}

extern "C" int bb_parquet_hash_text(const bb_parquet_column* type, const char* text, size_t len,
                                    uint32_t flags, uint64_t* hash, char* error,
                                    size_t error_capacity) {
  namespace in = blockbloom::internal::parquet_value;
  if (type == nullptr || hash == nullptr || (text == nullptr && len > 0)) {
    in::Say("a NULL pointer was passed", error, error_capacity);
    return BB_ERR_NULL_POINTER;
  }
  std::string bytes, why;
  int rc = in::EncodeText(type, text, len, flags, &bytes, &why);
  if (rc == BB_OK) {
    rc = bb_parquet_hash_value(type->physical_type, type->type_length, bytes.data(), bytes.size(),
                               hash);
    if (rc != BB_OK) why = "cannot be hashed for this physical type";
  }
  if (rc != BB_OK) in::Say(why, error, error_capacity);
  return rc;
}

extern "C" int bb_parquet_value_form(const bb_parquet_column* type, uint32_t flags, char* out,
                                     size_t capacity) {
  namespace in = blockbloom::internal::parquet_value;
  if (type == nullptr || (out == nullptr && capacity > 0)) return BB_ERR_NULL_POINTER;
  if (type->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  const in::Rules r = in::RulesFor(*type, flags);
  std::string form = r.kind == in::Kind::kUnsupported ? "the column " + r.why : in::Form(r, false);
  if (form.size() + 1 > capacity) return BB_ERR_BUFFER_TOO_SMALL;
  in::Say(form, out, capacity);
  return r.kind == in::Kind::kUnsupported ? BB_ERR_PARQUET_UNSUPPORTED : BB_OK;
}

extern "C" int bb_parquet_value_kind(const bb_parquet_column* type, uint32_t flags, int32_t* kind,
                                     int32_t* time_unit, int32_t* utc) {
  namespace in = blockbloom::internal::parquet_value;
  if (type == nullptr) return BB_ERR_NULL_POINTER;
  if (type->struct_size < sizeof(bb_parquet_column)) return BB_ERR_BUFFER_TOO_SMALL;
  const in::Rules r = in::RulesFor(*type, flags);
  int32_t k = 0, unit = 0;
  switch (r.kind) {
    case in::Kind::kUnsupported: return BB_ERR_PARQUET_UNSUPPORTED;
    case in::Kind::kInteger: k = BB_PARQUET_KIND_INTEGER; break;
    case in::Kind::kFloat:
    case in::Kind::kDouble:
    case in::Kind::kFloat16: k = BB_PARQUET_KIND_FLOAT; break;
    case in::Kind::kDecimal: k = BB_PARQUET_KIND_DECIMAL; break;
    case in::Kind::kDate: k = BB_PARQUET_KIND_DATE; break;
    case in::Kind::kTime: k = BB_PARQUET_KIND_TIME; break;
    case in::Kind::kTimestamp:
    case in::Kind::kInt96: k = BB_PARQUET_KIND_TIMESTAMP; break;
    case in::Kind::kUuid: k = BB_PARQUET_KIND_UUID; break;
    case in::Kind::kInterval: k = BB_PARQUET_KIND_INTERVAL; break;
    case in::Kind::kBytes: k = BB_PARQUET_KIND_BYTES; break;
  }
  if (k == BB_PARQUET_KIND_TIME || k == BB_PARQUET_KIND_TIMESTAMP) {
    unit = r.digits == 3 ? BB_PARQUET_UNIT_MILLIS : r.digits == 6 ? BB_PARQUET_UNIT_MICROS
                                                                   : BB_PARQUET_UNIT_NANOS;
  }
  if (kind != nullptr) *kind = k;
  if (time_unit != nullptr) *time_unit = unit;
  if (utc != nullptr) *utc = (k == BB_PARQUET_KIND_TIMESTAMP && r.utc) ? 1 : 0;
  return BB_OK;
}
