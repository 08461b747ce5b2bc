// SPDX-License-Identifier: Apache-2.0
// The value-text rules (bb_parquet_encode_text, bb_parquet_hash_text and the
// TEXT source of bb_parquet_encode_value) against an independent model
// (value_text_model.h and the headers beside it), on a column type the
// fuzzer picks (integers of every width and sign, DATE, TIME, TIMESTAMP,
// INT96, DECIMAL on every physical type, UUID, FLOAT, DOUBLE, FLOAT16,
// INTERVAL, FIXED_LEN_BYTE_ARRAY, BOOLEAN). Three inputs in four are a value
// the model generated and wrote in an accepted spelling, with or without
// faults; the fourth is the fuzzer's raw bytes as text, half the time with
// the stored-form flag of the column (BB_PARQUET_TEXT_PHYSICAL on INT32 /
// INT64, BB_PARQUET_TEXT_HEX on byte types, FLOAT and DOUBLE). Aborts, after
// printing the type, text and both answers, on:
// - a generated text whose code differs from the model's verdict (the bytes
//   of an accepted value, BB_ERR_VALUE_SYNTAX for a text not of the form
//   whatever its numbers, BB_ERR_VALUE_RANGE for a well-formed one out of
//   range, BB_ERR_PARQUET_UNSUPPORTED for a type without text), or whose
//   bytes differ;
// - a raw text accepted as bytes that are no value of the type, or whose
//   rendering by the model encodes to other bytes (integers, DATE, UUID,
//   FIXED raw texts are judged in full: the model's code and bytes);
// - a refusal without a message, or one that wrote the output;
// - the hash not XXH64 of the bytes, or the TEXT source answering otherwise.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "blockbloom/parquet_value.h"
#include "fuzz_input.h"
#include "value_text_cases.h"
#include "value_text_model.h"
#include "value_text_render.h"
#include "value_text_types.h"

namespace {

using namespace bbfuzz::text_model;  // NOLINT: the model's small vocabulary

constexpr uint8_t kUntouched = 0xa5;

std::string Printable(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    if (ch >= 0x20 && ch < 0x7f && ch != '\\') {
      out.push_back(static_cast<char>(ch));
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", ch);
      out += b;
    }
  }
  return out;
}

std::string HexOf(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) out += Hex(ch, 2);
  return out;
}

[[noreturn]] void Fail(const Type& t, const std::string& text, const char* what, const std::string& detail) {
  const bb_parquet_column& c = t.column;
  std::fprintf(stderr,
               "fuzz_value_text: %s\n  type: physical %d length %d logical %d converted %d bits %d "
               "signed %d unit %d utc %d precision %d scale %d\n  text: '%s'\n  %s\n",
               what, c.physical_type, c.type_length, c.logical_type, c.converted_type, c.bit_width,
               c.is_signed, c.time_unit, c.is_adjusted_to_utc, c.precision, c.scale,
               Printable(text).c_str(), detail.c_str());
  std::abort();
}

// What the library answers for a text: its code and bytes, after the
// checks every answer must pass (refusals write nothing and say why; the
// hash call and the TEXT source agree with the encoder).
struct Answer {
  int rc = 0;
  std::string bytes;
};

Answer Ask(const Type& t, const std::string& text) {
  // An exactly-sized heap copy, no terminator: a read past the text is caught.
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (!text.empty()) std::memcpy(copy, text.data(), text.size());
  const char* p = text.empty() ? nullptr : copy;
  const size_t capacity = BB_PARQUET_ENCODED_MAX(t.column.type_length, text.size());
  std::string out(capacity, static_cast<char>(kUntouched));
  size_t out_len = 12345;
  char why[BB_PARQUET_VALUE_ERROR_MAX];
  why[0] = '\0';
  Answer a;
  a.rc = bb_parquet_encode_text(&t.column, p, text.size(), t.flags, reinterpret_cast<uint8_t*>(&out[0]),
                                capacity, &out_len, why, sizeof why);
  if (a.rc == BB_OK) {
    if (out_len > capacity) Fail(t, text, "length past the capacity", std::to_string(out_len));
    a.bytes = out.substr(0, out_len);
  } else {
    if (out_len != 12345 || out.find_first_not_of(static_cast<char>(kUntouched)) != std::string::npos) {
      Fail(t, text, "a refusal wrote the output", std::to_string(a.rc));
    }
    if (why[0] == '\0') Fail(t, text, "a refusal without a message", std::to_string(a.rc));
  }
  uint64_t hash = 0;
  const int hash_rc = bb_parquet_hash_text(&t.column, p, text.size(), t.flags, &hash, nullptr, 0);
  if (hash_rc != a.rc) {
    Fail(t, text, "bb_parquet_hash_text answers otherwise", std::to_string(a.rc) + " vs " + std::to_string(hash_rc));
  }
  if (a.rc == BB_OK && hash != XXH64(a.bytes.data(), a.bytes.size(), 0)) {
    Fail(t, text, "hash is not XXH64 of the bytes", HexOf(a.bytes));
  }
  bb_value_source src;
  std::memset(&src, 0, sizeof src);
  src.struct_size = sizeof src;
  src.kind = BB_VALUE_TEXT;
  std::string out2(capacity, static_cast<char>(kUntouched));
  size_t len2 = 0;
  const int value_rc = bb_parquet_encode_value(&t.column, &src, p, text.size(), t.flags,
                                               reinterpret_cast<uint8_t*>(&out2[0]), capacity, &len2,
                                               nullptr, 0);
  if (value_rc != a.rc || (a.rc == BB_OK && out2.substr(0, len2) != a.bytes)) {
    Fail(t, text, "the TEXT source answers otherwise", std::to_string(a.rc) + " vs " + std::to_string(value_rc));
  }
  std::free(copy);
  return a;
}

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kBytes: return "bytes";
    case Verdict::kSyntax: return "BB_ERR_VALUE_SYNTAX";
    case Verdict::kRange: return "BB_ERR_VALUE_RANGE";
    default: return "BB_ERR_PARQUET_UNSUPPORTED";
  }
}

int CodeOf(Verdict v) {
  switch (v) {
    case Verdict::kBytes: return BB_OK;
    case Verdict::kSyntax: return BB_ERR_VALUE_SYNTAX;
    case Verdict::kRange: return BB_ERR_VALUE_RANGE;
    default: return BB_ERR_PARQUET_UNSUPPORTED;
  }
}

void CheckGenerated(const Case& c) {
  const Answer a = Ask(c.type, c.text);
  if (a.rc != CodeOf(c.verdict) || (a.rc == BB_OK && a.bytes != c.bytes)) {
    Fail(c.type, c.text, "the library and the model disagree",
         std::string("model: ") + VerdictName(c.verdict) + " " + HexOf(c.bytes) +
             "; library: code " + std::to_string(a.rc) + " " + HexOf(a.bytes));
  }
}

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  return s;
}

// YYYY-MM-DD exactly: its fields.
bool DateForm(const std::string& s, int* y, int* m, int* d) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  int f[3] = {0, 0, 0};
  const size_t start[3] = {0, 5, 8}, len[3] = {4, 2, 2};
  for (int k = 0; k < 3; ++k) {
    for (size_t i = start[k]; i < start[k] + len[k]; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      f[k] = f[k] * 10 + (s[i] - '0');
    }
  }
  *y = f[0], *m = f[1], *d = f[2];
  return true;
}

// A DATE's whole rule: YYYY-MM-DD of a real day in 0001 .. 9999; infinity
// and -infinity (any case) and a well-formed date then " BC" or " (BC)"
// are range errors; anything else is not of the form.
Verdict JudgeDate(const std::string& s, std::string* bytes) {
  if (Lower(s) == "infinity" || Lower(s) == "-infinity") return Verdict::kRange;
  int y = 0, m = 0, d = 0;
  for (const char* bc : {" BC", " (BC)"}) {
    const size_t n = std::strlen(bc);
    if (s.size() >= n && s.compare(s.size() - n, n, bc) == 0) {
      return DateForm(s.substr(0, s.size() - n), &y, &m, &d) ? Verdict::kRange : Verdict::kSyntax;
    }
  }
  if (!DateForm(s, &y, &m, &d)) return Verdict::kSyntax;
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > MonthDays(y, m)) return Verdict::kRange;
  *bytes = Little(static_cast<U128>(static_cast<I128>(DayNumber(y, m, d))), 4);
  return Verdict::kBytes;
}

// The model's own verdict on any text, for the types whose rule is simple
// enough to state in full: integers, DATE, UUIDs, FIXED_LEN_BYTE_ARRAY,
// BOOLEAN.
bool JudgeRaw(const Type& t, const std::string& s, Verdict* v, std::string* bytes) {
  if (!t.supported) return *v = Verdict::kUnsupported, true;
  if (t.kind == Kind::kDate) return *v = JudgeDate(s, bytes), true;
  if (t.kind == Kind::kHex) {
    bytes->clear();
    *v = Verdict::kSyntax;
    if (s.size() % 2) return true;
    for (size_t i = 0; i < s.size(); i += 2) {
      const std::string pair = Lower(s.substr(i, 2));
      if (pair.find_first_not_of("0123456789abcdef") != std::string::npos) return true;
      bytes->push_back(static_cast<char>(std::stoi(pair, nullptr, 16)));
    }
    if (t.width == 0 || bytes->size() == static_cast<size_t>(t.width)) *v = Verdict::kBytes;
    return true;
  }
  if (t.kind == Kind::kFixed) {
    *v = s.size() == static_cast<size_t>(t.width) ? Verdict::kBytes : Verdict::kSyntax;
    *bytes = s;
    return true;
  }
  if (t.kind == Kind::kInteger) {
    const bool negative = !s.empty() && s[0] == '-';
    const std::string d = s.substr(negative ? 1 : 0);
    bool ok = !d.empty() && !(d[0] == '0' && (d.size() > 1 || negative));
    for (char ch : d) ok = ok && ch >= '0' && ch <= '9';
    if (!ok) return *v = Verdict::kSyntax, true;
    if (d.size() > 30) return *v = Verdict::kRange, true;
    I128 x = 0;
    for (char ch : d) x = x * 10 + (ch - '0');
    if (negative) x = -x;
    *v = x < t.lo || x > t.hi ? Verdict::kRange : Verdict::kBytes;
    *bytes = Little(static_cast<U128>(x), t.width);
    return true;
  }
  if (t.kind == Kind::kUuid) {
    std::string core = s;
    if (s.size() == 38 && s.front() == '{' && s.back() == '}') core = s.substr(1, 36);
    if (s.size() == 45 && Lower(s.substr(0, 9)) == "urn:uuid:") core = s.substr(9);
    std::string hex;
    if (core.size() == 36) {
      for (size_t i = 0; i < 36; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash != (core[i] == '-')) return *v = Verdict::kSyntax, true;
        if (!dash) hex.push_back(core[i]);
      }
    } else if (core.size() == 32 && core == s) {
      hex = core;
    } else {
      return *v = Verdict::kSyntax, true;
    }
    bytes->clear();
    for (size_t i = 0; i < 32; i += 2) {
      int hi = -1, lo = -1;
      for (int k = 0; k < 2; ++k) {
        const char ch = hex[i + static_cast<size_t>(k)];
        const int x = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                      : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        (k == 0 ? hi : lo) = x;
      }
      if (hi < 0 || lo < 0) return *v = Verdict::kSyntax, true;
      bytes->push_back(static_cast<char>(hi << 4 | lo));
    }
    *v = Verdict::kBytes;
    return true;
  }
  return false;
}

void CheckRaw(const Type& t, const std::string& text) {
  const Answer a = Ask(t, text);
  Verdict v = Verdict::kBytes;
  std::string bytes;
  if (JudgeRaw(t, text, &v, &bytes)) {
    if (a.rc != CodeOf(v) || (a.rc == BB_OK && a.bytes != bytes)) {
      Fail(t, text, "raw text: the library and the model disagree",
           std::string("model: ") + VerdictName(v) + " " + HexOf(bytes) + "; library: code " +
               std::to_string(a.rc) + " " + HexOf(a.bytes));
    }
  }
  if (a.rc != BB_OK) {
    const bool known = a.rc == BB_ERR_VALUE_SYNTAX || a.rc == BB_ERR_VALUE_RANGE ||
                       (a.rc == BB_ERR_PARQUET_UNSUPPORTED && !t.supported);
    if (!known) Fail(t, text, "raw text: an unexpected code", std::to_string(a.rc));
    return;
  }
  if (!t.supported) Fail(t, text, "raw text accepted by a type without text", HexOf(a.bytes));
  std::string again;
  if (!Render(t, a.bytes, &again)) Fail(t, text, "raw text accepted as no value of the type", HexOf(a.bytes));
  const Answer b = Ask(t, again);
  if (b.rc != BB_OK || b.bytes != a.bytes) {
    Fail(t, text, "raw text: the rendering of its bytes encodes otherwise",
         "bytes " + HexOf(a.bytes) + ", rendered '" + Printable(again) + "' -> code " +
             std::to_string(b.rc) + " " + HexOf(b.bytes));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bbfuzz::FuzzInput in(data, size);
  Source src(&in);
  const unsigned mode = src.Pick(8);  // 0: raw text, 1: raw text of the stored form, else generated
  const Type t = ChooseType(&src);
  if (mode <= 1) {
    const size_t n = in.rest_size() < 96 ? in.rest_size() : 96;
    CheckRaw(mode == 1 ? WithStoredFormFlag(t) : t, std::string(reinterpret_cast<const char*>(in.rest()), n));
  } else {
    CheckGenerated(MakeCase(&src, t));
  }
  return 0;
}
