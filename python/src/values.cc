// SPDX-License-Identifier: Apache-2.0
#include "values.h"

#include <blockbloom/column.h>
#include <blockbloom/hashing.h>
#include <blockbloom/parquet_types.h>
#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrow_input.h"
#include "bool_output.h"
#include "buffers.h"
#include "errors.h"
#include "hash_ops.h"
#include "locks.h"
#include "typed_values.h"

namespace py = pybind11;

namespace bbpy {
namespace {

// The Parquet physical types a value can be hashed as without a column type:
// the rows of the library's BB_PARQUET_HASHING_TYPES (parquet_types.h), in
// its order, which are also the CLI's --type names of those types.
enum class ValueType { kInt32, kInt64, kFloat, kDouble, kString };
#define BBPY_TYPE_NAME(name, physical) #name,
const char* const kTypeNames[] = {BB_PARQUET_HASHING_TYPES(BBPY_TYPE_NAME)};
#undef BBPY_TYPE_NAME
static_assert(std::size(kTypeNames) == static_cast<size_t>(ValueType::kString) + 1,
              "a ValueType per row of BB_PARQUET_HASHING_TYPES");
const char* TypeName(ValueType t) { return kTypeNames[static_cast<int>(t)]; }

// "'int32', 'int64', 'float', 'double' or 'string'".
std::string TypeNameList() {
  std::string list;
  for (size_t i = 0; i < std::size(kTypeNames); ++i) {
    list += (i == 0 ? "" : i + 1 == std::size(kTypeNames) ? " or " : ", ");
    list += std::string("'") + kTypeNames[i] + "'";
  }
  return list;
}

// false for None (infer the type), else the type named.
bool ParseType(py::handle type, ValueType* out) {
  if (type.is_none()) return false;
  const std::string expected = TypeNameList();
  if (!py::isinstance<py::str>(type)) throw py::type_error("type: expected " + expected + " or None");
  const std::string name = type.cast<std::string>();
  for (size_t i = 0; i < std::size(kTypeNames); ++i) {
    if (name == kTypeNames[i]) {
      *out = static_cast<ValueType>(i);
      return true;
    }
  }
  throw py::value_error("type: expected " + expected + ", got " + ShortRepr(type));
}

std::string TypeNameOf(py::handle v) { return Py_TYPE(v.ptr())->tp_name; }
bool IsIntLike(py::handle v) { return !PyFloat_Check(v.ptr()) && PyIndex_Check(v.ptr()); }
bool IsText(py::handle v) {
  return PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr()) || PyByteArray_Check(v.ptr()) ||
         PyMemoryView_Check(v.ptr());
}
// Python's bool and numpy's: never hashed as the int 1 / 0 they also are.
// (The common exact kinds are answered without looking numpy up.)
bool IsBool(py::handle v) {
  PyObject* o = v.ptr();
  if (PyBool_Check(o)) return true;
  if (PyLong_CheckExact(o) || PyFloat_CheckExact(o) || PyUnicode_CheckExact(o) || PyBytes_CheckExact(o)) return false;
  return py::isinstance(v, py::module_::import("numpy").attr("bool_"));
}
bool IsDecimal(py::handle v) {
  return !PyFloat_Check(v.ptr()) && !PyLong_Check(v.ptr()) &&
         py::isinstance(v, py::module_::import("decimal").attr("Decimal"));
}
bool IsScalar(py::handle v) {
  return PyLong_Check(v.ptr()) || PyFloat_Check(v.ptr()) || PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr());
}

// Refuses values that are not one column (blockbloom._containers.one_column:
// a DataFrame, a dict, an array of more than one column; with ordered, where
// answers follow the values' order, a set) before anything is converted: a
// table's array would be its rows' values mixed, its iteration its column
// names. Lists, tuples and single values are one column without asking.
void RequireOneColumn(py::handle values, const std::string& what, bool ordered) {
  PyObject* o = values.ptr();
  if (PyList_CheckExact(o) || PyTuple_CheckExact(o) || values.is_none() || IsScalar(values)) return;
  py::module_::import("blockbloom._containers").attr("one_column")(values, what, ordered);
}

ValueType InferType(py::handle v, const std::string& what) {
  // Text first: numpy's str_ and bytes_ scalars have __float__ too.
  if (IsText(v)) return ValueType::kString;
  if (IsIntLike(v)) return ValueType::kInt64;
  if (PyFloat_Check(v.ptr()) || py::hasattr(v, "__float__")) return ValueType::kDouble;
  throw py::type_error(what + ": cannot hash a " + TypeNameOf(v) +
                       " (values are ints, floats, str or bytes; or give type=)");
}

// v's two's complement bits as a `bits`-wide integer; -2^(bits-1) <= v < 2^bits,
// so unsigned columns stored in INT32/INT64 (Parquet's UINT_32/UINT_64) fit too.
uint64_t IntBits(py::handle v, int bits, const std::string& what) {
  if (!IsIntLike(v)) throw py::type_error(what + ": expected an int, got " + TypeNameOf(v));
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow == 0 && s == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
  uint64_t u = static_cast<uint64_t>(s);
  bool fits = overflow == 0 && (bits == 64 || (s >= -(1LL << (bits - 1)) && s < (1LL << bits)));
  if (overflow > 0 && bits == 64) {
    u = PyLong_AsUnsignedLongLong(index.ptr());
    fits = !(u == static_cast<uint64_t>(-1) && PyErr_Occurred() != nullptr);
    PyErr_Clear();
  }
  if (!fits) {
    PyErr_Format(PyExc_OverflowError, "%s: %S does not fit int%d (-2**%d .. 2**%d - 1)", what.c_str(),
                 index.ptr(), bits, bits - 1, bits);
    throw py::error_already_set();
  }
  return bits == 64 ? u : (u & 0xffffffffu);
}

std::vector<uint8_t> EncodeObject(py::handle text_fn, py::handle item, const ColumnType& t, const std::string& what,
                                  bool* null);

// One value of an untyped call as a one-row typed column (column.h), so that
// the library's column hashes say what bytes each format hashes (the plain
// encoding for Parquet, the Kudu cell for Kudu): nothing is encoded here.
class Encoded {
 public:
  Encoded(py::handle value, ValueType type, const std::string& what) {
    if (IsBool(value)) {
      // As typed filters: a bool is no int64 1 (a Kudu BOOL cell is one byte, an INT64 cell eight).
      throw py::type_error(what + ": cannot hash a bool (" + ShortRepr(value) + ") as " + TypeName(type) +
                           ": booleans have no Bloom filter hash (give int(value) or float(value) for a numeric column)");
    }
    switch (type) {
      case ValueType::kInt32: {
        const uint32_t bits = static_cast<uint32_t>(IntBits(value, 32, what));
        std::memcpy(&int32_, &bits, 4);
        SetFixed(BB_TYPE_INT32, &int32_);
        break;
      }
      case ValueType::kInt64: {
        const uint64_t bits = IntBits(value, 64, what);
        std::memcpy(&int64_, &bits, 8);
        SetFixed(BB_TYPE_INT64, &int64_);
        break;
      }
      case ValueType::kFloat:
      case ValueType::kDouble: StoreFloat(value, type == ValueType::kFloat, what); break;
      case ValueType::kString: StoreText(value, what); break;
    }
  }
  Encoded(const Encoded&) = delete;
  Encoded& operator=(const Encoded&) = delete;
  // The column of this one value (valid while *this is).
  const bb_column& column() const { return column_; }

 private:
  void SetFixed(uint32_t type, const void* value) {
    column_.type = type;
    column_.length = 1;
    column_.values = value;
  }
  void StoreFloat(py::handle value, bool single, const std::string& what) {
    if (IsText(value)) throw py::type_error(what + ": expected a float, got " + TypeNameOf(value));
    if (IsDecimal(value)) return StoreDecimal(value, single, what);
    double_ = PyFloat_AsDouble(value.ptr());
    if (double_ == -1.0 && PyErr_Occurred() != nullptr) throw py::error_already_set();
    if (!single) {
      SetFixed(BB_TYPE_DOUBLE, &double_);
      return;
    }
    float_ = static_cast<float>(double_);
    if (std::isinf(float_) && !std::isinf(double_)) {
      throw py::value_error(what + ": " + std::to_string(double_) + " overflows float32");
    }
    if (float_ == 0 && double_ != 0) {  // lossy as overflow is: the text rule refuses 1e-50 so too
      throw py::value_error(what + ": " + py::repr(value).cast<std::string>() + " underflows float32 (rounds to 0.0)");
    }
    SetFixed(BB_TYPE_FLOAT, &float_);
  }
  // A Decimal as a typed FLOAT / DOUBLE filter takes it: its exact digits and
  // exponent through the library's text rule (the nearest value), so that one
  // out of range is refused (1E+400 is no double, 1E-300 no float) where
  // float() would give inf or 0.0, and no exponent is written out in zeros.
  void StoreDecimal(py::handle value, bool single, const std::string& what) {
    const ColumnType type = ParseColumnType(py::str(single ? "float" : "double"), what);
    const py::object text_fn = py::module_::import("blockbloom._containers").attr("text");
    bool null = false;
    const std::vector<uint8_t> bytes = EncodeObject(text_fn, value, type, what, &null);
    if (bytes.size() != (single ? sizeof float_ : sizeof double_)) {
      throw std::logic_error(what + ": a " + type.name + " was encoded in " + std::to_string(bytes.size()) + " bytes");
    }
    if (single) {
      std::memcpy(&float_, bytes.data(), sizeof float_);  // the plain encoding: little-endian, as the host
      SetFixed(BB_TYPE_FLOAT, &float_);
    } else {
      std::memcpy(&double_, bytes.data(), sizeof double_);
      SetFixed(BB_TYPE_DOUBLE, &double_);
    }
  }
  void StoreText(py::handle value, const std::string& what) {
    const char* data = nullptr;
    size_t len = 0;
    if (PyUnicode_Check(value.ptr())) {
      Py_ssize_t n = 0;
      data = PyUnicode_AsUTF8AndSize(value.ptr(), &n);
      if (data == nullptr) throw py::error_already_set();
      len = static_cast<size_t>(n);
    } else {
      if (!IsText(value) || !buffer_.Acquire(value, false)) {
        throw py::type_error(what + ": expected str or bytes, got " + TypeNameOf(value));
      }
      RequireContiguous(buffer_, what);
      data = static_cast<const char*>(buffer_.data());
      len = buffer_.bytes();
    }
    offsets_[1] = static_cast<int64_t>(len);
    column_.type = BB_TYPE_LARGE_BYTE_ARRAY;
    column_.length = 1;
    column_.offsets = offsets_;
    column_.data = len != 0 ? data : nullptr;  // an empty value: the library's empty rule
    column_.data_len = len;
  }

  int32_t int32_ = 0;
  int64_t int64_ = 0;
  float float_ = 0;
  double double_ = 0;
  int64_t offsets_[2] = {0, 0};
  bb_column column_ = BB_COLUMN_INIT;
  Buffer buffer_;
};

template <class T>
T HashBytes(const void* data, size_t size, uint32_t seed);
template <>
uint64_t HashBytes<uint64_t>(const void* data, size_t size, uint32_t) { return bb_parquet_hash_bytes(data, size); }
template <>
uint32_t HashBytes<uint32_t>(const void* data, size_t size, uint32_t seed) {
  static const uint8_t kEmpty = 0;  // FastHash reads NULL as a null cell
  return bb_kudu_fasthash32(size != 0 ? data : &kEmpty, size, seed);
}

template <class T>
T HashOf(const Encoded& e, uint32_t seed);
template <>
uint64_t HashOf<uint64_t>(const Encoded& e, uint32_t) {
  uint64_t h = 0;
  Check(bb_parquet_hash_column(&e.column(), &h, nullptr), "hash");
  return h;
}
template <>
uint32_t HashOf<uint32_t>(const Encoded& e, uint32_t seed) {
  uint32_t h = 0;
  Check(bb_kudu_hash_column(&e.column(), seed, &h, nullptr), "kudu hash");
  return h;
}

// mask: None, a bool/uint8 buffer of n elements, or a sequence of n truths.
class NullMask {
 public:
  NullMask(py::handle mask, size_t n, const std::string& what) {
    if (mask.is_none()) return;
    if (buffer_.Acquire(mask, false)) {
      const ElementType t = DescribeFormat(buffer_.format());
      if (!((t.kind == 'b' || t.kind == 'u') && t.size == 1 && buffer_.view().itemsize == 1)) {
        throw py::type_error(what + ": mask must be a bool array (True = null), got " +
                             DescribeElements(mask, buffer_.format()));
      }
      RequireContiguous(buffer_, what + ": mask");
      data_ = static_cast<const uint8_t*>(buffer_.data());
      CheckLength(buffer_.count(), n, what);
      return;
    }
    py::object items = py::reinterpret_steal<py::object>(PySequence_Tuple(mask.ptr()));
    if (!items) {
      PyErr_Clear();
      throw py::type_error(what + ": mask must be a bool array or a sequence of bools, got " + TypeNameOf(mask));
    }
    const Py_ssize_t len = PySequence_Fast_GET_SIZE(items.ptr());
    for (Py_ssize_t i = 0; i < len; ++i) {
      const int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(items.ptr(), i));
      if (truth < 0) throw py::error_already_set();
      copy_.push_back(static_cast<uint8_t>(truth));
    }
    data_ = copy_.data();
    CheckLength(copy_.size(), n, what);
  }
  bool given() const { return data_ != nullptr; }
  bool null(size_t i) const { return data_ != nullptr && data_[i] != 0; }

 private:
  static void CheckLength(size_t got, size_t n, const std::string& what) {
    if (got != n) {
      throw py::value_error(what + ": mask has " + std::to_string(got) + " entries for " + std::to_string(n) + " values");
    }
  }
  Buffer buffer_;
  std::vector<uint8_t> copy_;
  const uint8_t* data_ = nullptr;
};

// A numpy array of fixed-width values probed through the library's typed
// columns (column.h): the mask's nulls become the column's validity bitmap,
// so the library leaves them out of inserts and answers 0 for them, as it
// does for any engine's column. Rows go kBoolChunk at a time, so the
// validity bitmap of a chunk is 8 KiB on the stack.
// The bb_column_type of a numpy element type (0 if none): the library's
// column rules decide the bytes (int8 / int16 sign-extended and uint8 /
// uint16 zero-extended to INT32, uint32 / uint64 as the bits of INT32 /
// INT64; Kudu refuses unsigned columns).
uint32_t ColumnTypeOfElement(char kind, size_t size) {
  if (kind == 'i') {
    switch (size) {
      case 1: return BB_TYPE_INT8;
      case 2: return BB_TYPE_INT16;
      case 4: return BB_TYPE_INT32;
      case 8: return BB_TYPE_INT64;
    }
  } else if (kind == 'u') {
    switch (size) {
      case 1: return BB_TYPE_UINT8;
      case 2: return BB_TYPE_UINT16;
      case 4: return BB_TYPE_UINT32;
      case 8: return BB_TYPE_UINT64;
    }
  } else if (kind == 'f') {
    if (size == 4) return BB_TYPE_FLOAT;
    if (size == 8) return BB_TYPE_DOUBLE;
  }
  return 0;
}

// The Parquet physical type a column type is stored as.
ValueType PhysicalOf(uint32_t column_type) {
  switch (column_type) {
    case BB_TYPE_INT64:
    case BB_TYPE_UINT64: return ValueType::kInt64;
    case BB_TYPE_FLOAT: return ValueType::kFloat;
    case BB_TYPE_DOUBLE: return ValueType::kDouble;
    default: return ValueType::kInt32;
  }
}

// fn(column of rows [first, first + count)) for each chunk; the first negative
// status stops it.
template <class Fn>
int ForEachColumnChunk(uint32_t column_type, size_t width, const void* values, size_t n, const NullMask& mask,
                       Fn fn) {
  uint8_t validity[kBoolChunk / 8];
  for (size_t first = 0; first < n; first += kBoolChunk) {
    const size_t count = std::min(n - first, kBoolChunk);
    bb_column col = BB_COLUMN_INIT;
    col.type = column_type;
    col.length = count;
    col.values = static_cast<const uint8_t*>(values) + first * width;
    if (mask.given()) {
      std::memset(validity, 0, (count + 7) / 8);
      for (size_t i = 0; i < count; ++i) {
        if (!mask.null(first + i)) validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
      col.validity = validity;
    }
    const int status = fn(first, count, col);
    if (status < 0) return status;
  }
  return 0;
}

int InsertColumn(bb_filter* f, uint32_t t, size_t width, const void* values, size_t n, const NullMask& mask) {
  return ForEachColumnChunk(t, width, values, n, mask,
                            [&](size_t, size_t, const bb_column& col) { return bb_insert_column(f, &col); });
}

int FindColumn(const bb_filter* f, uint32_t t, size_t width, const void* values, size_t n, const NullMask& mask,
               bool* out) {
  return ForEachColumnChunk(t, width, values, n, mask, [&](size_t first, size_t count, const bb_column& col) {
    return ProbeToBools(count, out + first, [&](size_t, size_t, uint8_t* bitmap) {
      return bb_find_column_bitmap(f, &col, bitmap, nullptr);
    });
  });
}

// A filter's or call's Parquet type (Filter(type=), type= of a call, a
// file's column): values are checked against it and Python objects go
// through the library's text rules (bb_parquet_encode_text).
bool IsLegacyName(py::handle type) {
  if (!py::isinstance<py::str>(type)) return false;
  const std::string name = type.cast<std::string>();
  for (const char* legacy : kTypeNames) {
    if (name == legacy) return true;
  }
  return false;
}

// The type values are hashed as: nullptr for the untyped rules (no type, or
// one of the five names of ParseType on an untyped filter), else the filter's
// type or the call's (*call), which must agree.
const ColumnType* Resolve(const Filter& f, py::handle type, ColumnType* call, const std::string& what) {
  const ColumnType& own = f.value_type();
  if (!own.set && f.raw_hashes()) {
    throw py::type_error(what + ": the filter holds raw hashes (insert(), or bytes read without type=) and has "
                         "no value type, so its values' type is unknown: build it with Filter(type=...) or pass "
                         "type= to from_bytes / from_kudu_fields to insert or find values, or hash the values "
                         "with kudu_hash() and use find()");
  }
  if (type.is_none()) return own.set ? &own : nullptr;
  if (!own.set && IsLegacyName(type)) return nullptr;
  *call = ParseColumnType(type, what + ": type");
  if (own.set && !SameColumnType(own, *call)) {
    throw py::type_error(what + ": the filter holds values of type '" + own.name + "', not type='" +
                         call->name + "'");
  }
  return own.set ? &own : call;
}

// What kind of Python value a type takes, for blockbloom._containers.text:
// int, float, decimal, date, time, timestamp, uuid, text, by the library's
// bb_parquet_value_kind (the library's text rules decide the rest); and a
// datetime64 unit for DATE / TIME / TIMESTAMP ("" for none). A type the
// library cannot write as text is "text": bb_parquet_encode_text then
// refuses it with its own reason.
std::pair<const char*, const char*> KindOf(const bb_parquet_column& c) {
  static const char* const kUnits[] = {"", "ms", "us", "ns"};
  int32_t kind = 0, unit = 0;
  if (bb_parquet_value_kind(&c, 0, &kind, &unit, nullptr) != BB_OK) return {"text", ""};
  const char* u = unit >= 1 && unit <= 3 ? kUnits[unit] : "";
  switch (kind) {
    case BB_PARQUET_KIND_INTEGER: return {"int", ""};
    case BB_PARQUET_KIND_FLOAT: return {"float", ""};
    case BB_PARQUET_KIND_DECIMAL: return {"decimal", ""};
    case BB_PARQUET_KIND_DATE: return {"date", "D"};
    case BB_PARQUET_KIND_TIME: return {"time", u};
    case BB_PARQUET_KIND_TIMESTAMP: return {"timestamp", u};
    case BB_PARQUET_KIND_UUID: return {"uuid", ""};
    default: return {"text", ""};
  }
}

// The bb_column_type a type stores its values as (INT32, INT64, FLOAT, ...).
uint32_t StoredColumnType(const ColumnType& t, const std::string& what) {
  uint32_t column_type = 0;
  size_t width = 0;
  const int status = bb_parquet_stored_column_type(&t.column, &column_type, &width);
  Check(status, what + ": values of type '" + t.name + "' cannot be hashed");
  return column_type;
}

// encode(room, capacity) into *out: first with room for a value about as
// long as its input (len), then, only if the library accepted the value and
// wants more, with BB_PARQUET_ENCODED_MAX's room. A declared width far past
// the value (a FIXED_LEN_BYTE_ARRAY(9999999), or one from a pickle) is then
// allocated only for a value that has it, never to refuse a 3-byte one.
template <class Encode>
int EncodeWithRoom(const ColumnType& t, size_t len, std::vector<uint8_t>* out, Encode encode) {
  const size_t most = BB_PARQUET_ENCODED_MAX(t.column.type_length, len);
  out->resize(std::min(most, BB_PARQUET_ENCODED_MAX(0, len)));
  int status = encode(out->data(), out->size());
  if (status == BB_ERR_BUFFER_TOO_SMALL && out->size() < most) {
    out->resize(most);
    status = encode(out->data(), out->size());
  }
  return status;
}

// Bytes as a byte type stores them (bb_parquet_encode_value, a BYTES
// source: the length checked), read in place rather than spelled out in hex
// digits for the text rule (three copies of a 100 MB value).
std::vector<uint8_t> EncodeBytes(py::handle item, const ColumnType& t, const std::string& subject,
                                 const std::string& what) {
  Buffer buffer;
  if (!buffer.Acquire(item, false)) throw py::type_error(what + ": value " + ShortRepr(item) + ": its bytes cannot be read");
  RequireContiguous(buffer, what);
  bb_value_source src{};
  src.struct_size = sizeof src;
  src.kind = BB_VALUE_BYTES;
  std::vector<uint8_t> out;
  size_t out_len = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
  const int status = EncodeWithRoom(t, buffer.bytes(), &out, [&](uint8_t* room, size_t capacity) {
    return bb_parquet_encode_value(&t.column, &src, buffer.data(), buffer.bytes(), 0, room, capacity, &out_len,
                                   why, sizeof why);
  });
  if (status == BB_VALUE_NOT_IN_TYPE) {  // a fixed width the bytes do not have
    char form[BB_PARQUET_VALUE_FORM_MAX] = "";
    bb_parquet_value_form(&t.column, BB_PARQUET_TEXT_HEX, form, sizeof form);
    throw py::value_error(what + ": value " + ShortRepr(item) + " of " + subject + " is " +
                          std::to_string(buffer.bytes()) + " bytes (wants " + form + ")");
  }
  if (status != BB_OK) Check(status, what + ": value " + ShortRepr(item) + " of " + subject + ": " + why);
  out.resize(out_len);
  return out;
}

// One Python object's plain encoding as `t` stores it, by the library's text
// rules: blockbloom._containers.text gives the canonical text (or refuses a
// value of another kind with TypeError), bb_parquet_encode_text the bytes.
// *null set (and nothing encoded) for pd.NA / NaT.
std::vector<uint8_t> EncodeObject(py::handle text_fn, py::handle item, const ColumnType& t, const std::string& what,
                                  bool* null) {
  *null = false;
  const auto kind = KindOf(t.column);
  const std::string subject = t.subject.empty() ? "type '" + t.name + "'" : t.subject;
  const char* data = nullptr;
  Py_ssize_t len = 0;
  uint32_t flags = 0;
  py::object text;
  const bool numeric = std::strcmp(kind.first, "int") == 0 || std::strcmp(kind.first, "float") == 0 ||
                       std::strcmp(kind.first, "decimal") == 0;
  const int physical = t.column.physical_type;
  const bool byte_type = physical == BB_PARQUET_BYTE_ARRAY || physical == BB_PARQUET_FIXED_LEN_BYTE_ARRAY ||
                         physical == BB_PARQUET_INT96;
  if (byte_type && (PyBytes_Check(item.ptr()) || PyByteArray_Check(item.ptr()) || PyMemoryView_Check(item.ptr()))) {
    // Bytes on a byte type are its stored bytes, never parsed as text.
    return EncodeBytes(item, t, subject, what);
  }
  if (PyUnicode_CheckExact(item.ptr()) || (PyLong_CheckExact(item.ptr()) && numeric)) {
    // The common cases without a call into Python: a str is its text, an int its decimal digits.
    text = PyUnicode_CheckExact(item.ptr()) ? py::reinterpret_borrow<py::object>(item) : py::str(item);
    data = PyUnicode_AsUTF8AndSize(text.ptr(), &len);
    if (data == nullptr) throw py::error_already_set();
  } else {
    py::tuple got = text_fn(item, kind.first, subject, what);
    text = got[0];
    const std::string how = got[1].cast<std::string>();
    if (how == "null") {
      *null = true;
      return {};
    }
    flags = how == "hex" ? BB_PARQUET_TEXT_HEX : 0;
    char* bytes = nullptr;
    if (PyBytes_AsStringAndSize(text.ptr(), &bytes, &len) != 0) throw py::error_already_set();
    data = bytes;
  }
  std::vector<uint8_t> out;
  size_t out_len = 0;
  char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
  const int status = EncodeWithRoom(t, static_cast<size_t>(len), &out, [&](uint8_t* room, size_t capacity) {
    return bb_parquet_encode_text(&t.column, data, static_cast<size_t>(len), flags, room, capacity, &out_len, why,
                                  sizeof why);
  });
  if (status != BB_OK) {
    // The library's phrase after "value X of type 'T' " (or "of column C (T) "), as the tool's.
    const std::string message = what + ": value " + ShortRepr(item) + " of " + subject + " " + why;
    // The kind was checked (TypeError) by text(): what is left is the form or the range.
    if (status == BB_ERR_VALUE_SYNTAX || status == BB_ERR_VALUE_RANGE) throw py::value_error(message);
    Check(status, message);
  }
  out.resize(out_len);
  return out;
}

// An array's column type against the type's stored one: the same physical
// type (int8 .. uint32 are INT32, int64 / uint64 INT64), else TypeError.
void CheckArrayType(const ColumnType& t, uint32_t array_type, const std::string& description,
                    const std::string& what) {
  const uint32_t stored = StoredColumnType(t, what);
  bool fits = false;
  switch (stored) {
    case BB_TYPE_INT32:
      fits = array_type == BB_TYPE_INT8 || array_type == BB_TYPE_INT16 || array_type == BB_TYPE_INT32 ||
             array_type == BB_TYPE_UINT8 || array_type == BB_TYPE_UINT16 || array_type == BB_TYPE_UINT32;
      break;
    case BB_TYPE_INT64: fits = array_type == BB_TYPE_INT64 || array_type == BB_TYPE_UINT64; break;
    default: fits = array_type == stored; break;
  }
  if (!fits) {
    throw py::type_error(what + ": the values are " + description + ", not values of type '" + t.name +
                         "' (cast them, or give them as Python objects for the type's text rules)");
  }
}

// Any container as (values, mask): blockbloom._containers.normalize takes
// pandas Series / Index (plain and nullable dtypes), numpy.ma arrays,
// datetime64 arrays and __array__ objects apart without per-element work.
// Lists and tuples are walked here as they are.
struct Unmasked {
  py::object values;
  py::object mask;
};
Unmasked Unmask(py::handle values, py::handle mask, const std::string& what, const ColumnType* typed = nullptr) {
  Unmasked u{py::reinterpret_borrow<py::object>(values), py::reinterpret_borrow<py::object>(mask)};
  if (PyList_Check(values.ptr()) || PyTuple_Check(values.ptr())) return u;
  py::object unit = py::none();
  py::object type_name = py::none();
  if (typed != nullptr) {
    // datetime64 values are converted to a DATE's or TIMESTAMP's unit (exactly).
    const auto kind = KindOf(typed->column);
    const bool datetimes = std::strcmp(kind.first, "date") == 0 || std::strcmp(kind.first, "timestamp") == 0;
    unit = py::str(datetimes ? kind.second : "");
    type_name = py::str(typed->name);
  }
  py::tuple got = py::module_::import("blockbloom._containers").attr("normalize")(values, mask, what, unit, type_name);
  u.values = got[0];
  u.mask = got[1];
  return u;
}

// A numeric numpy array (or other buffer) of values, used in place.
class ArrayColumn {
 public:
  // false when values is no numeric buffer (a list, an object or text array).
  bool Take(py::handle values, py::handle type, const std::string& what) {
    if (!buffer_.Acquire(values, false)) return false;
    const ElementType t = DescribeFormat(buffer_.format());
    if (t.kind == 's') {
      buffer_.Release();
      return false;
    }
    column_type_ = ColumnTypeOfElement(t.kind, t.size);
    const bool known = !t.foreign_byte_order && buffer_.view().itemsize == static_cast<Py_ssize_t>(t.size) &&
                       column_type_ != 0;
    if (!known) {
      throw py::type_error(what + ": cannot hash an array of " + DescribeElements(values, buffer_.format()) +
                           ": numpy int8 .. int64 and uint8 .. uint64 arrays are hashed as Parquet's INT32 "
                           "(up to 32 bits) or INT64, float32 / float64 as FLOAT / DOUBLE, datetime64 as "
                           "DATE or TIMESTAMP (cast with astype()); lists of int, float, str or bytes one "
                           "value at a time");
    }
    width_ = t.size;
    type_ = PhysicalOf(column_type_);
    description_ = DescribeElements(values, buffer_.format());
    ValueType wanted;
    if (ParseType(type, &wanted) && wanted != type_) {
      throw py::type_error(what + ": type='" + TypeName(wanted) + "' but the array holds " +
                           DescribeElements(values, buffer_.format()) + " (" + TypeName(type_) +
                           "); cast it with astype()");
    }
    RequireContiguous(buffer_, what);
    return true;
  }
  ValueType type() const { return type_; }
  uint32_t column_type() const { return column_type_; }
  const std::string& description() const { return description_; }
  size_t width() const { return width_; }
  const void* data() const { return buffer_.data(); }
  size_t count() const { return buffer_.count(); }
  std::vector<py::ssize_t> shape() const { return buffer_.shape(); }

 private:
  Buffer buffer_;
  ValueType type_ = ValueType::kInt64;
  uint32_t column_type_ = 0;
  size_t width_ = 0;
  std::string description_;
};

// Who a message is about: the call alone for one value, else "item I" of a
// sequence (its index, as a list's: never "value I", which reads as a value).
std::string ItemLabel(const std::string& what, bool one, size_t i) {
  return one ? what : what + ": item " + std::to_string(i);
}

// A sequence of values hashed one by one; nulls (None, or masked) marked.
template <class T>
struct HashedSequence {
  std::vector<T> hashes;
  std::vector<uint8_t> nulls;
};

template <class T>
HashedSequence<T> HashSequence(py::handle values, py::handle type, py::handle mask, uint32_t seed,
                               const std::string& what, const ColumnType* typed, bool one) {
  // A tuple of the items, not the list itself: each item's hooks (__index__,
  // __float__, __bool__) may change the list while it is walked.
  py::object items = py::reinterpret_steal<py::object>(PySequence_Tuple(values.ptr()));
  if (!items) {
    PyErr_Clear();
    throw py::type_error(what + ": expected a numpy array or a sequence of values, got " + TypeNameOf(values));
  }
  const size_t n = static_cast<size_t>(PySequence_Fast_GET_SIZE(items.ptr()));
  PyObject** item = PySequence_Fast_ITEMS(items.ptr());
  const NullMask nulls(mask, n, what);
  ValueType value_type = ValueType::kInt64;
  py::object text_fn;
  if (typed != nullptr) {
    text_fn = py::module_::import("blockbloom._containers").attr("text");
  } else if (!ParseType(type, &value_type)) {
    for (size_t i = 0; i < n; ++i) {
      if (item[i] != Py_None && !nulls.null(i)) {
        value_type = InferType(item[i], what);
        break;
      }
    }
  }
  // A Kudu cell holds a signed integer at its width (formats.md): an INT8 /
  // INT16 value is its first 1 / 2 little-endian bytes of the INT32 the
  // Parquet encoding writes, as an int8 / int16 array's rows are hashed.
  size_t cell_bytes = SIZE_MAX;
  if (typed != nullptr && sizeof(T) == 4 && typed->column.logical_type == BB_PARQUET_LOGICAL_INTEGER &&
      (typed->column.bit_width == 8 || typed->column.bit_width == 16)) {
    cell_bytes = static_cast<size_t>(typed->column.bit_width / 8);
  }
  HashedSequence<T> out;
  out.hashes.resize(n);
  out.nulls.resize(n);
  for (size_t i = 0; i < n; ++i) {
    out.nulls[i] = item[i] == Py_None || nulls.null(i);
    if (out.nulls[i]) continue;
    if (typed != nullptr) {
      bool null = false;
      const std::vector<uint8_t> bytes =
          EncodeObject(text_fn, item[i], *typed, ItemLabel(what, one, i), &null);
      out.nulls[i] = null;
      if (!null) out.hashes[i] = HashBytes<T>(bytes.data(), std::min(bytes.size(), cell_bytes), seed);
    } else {
      const std::string label = one ? what : ItemLabel(what, false, i) + " (" + ShortRepr(item[i]) + ")";
      out.hashes[i] = HashOf<T>(Encoded(item[i], value_type, label), seed);
    }
  }
  return out;
}

template <class T>
void InsertSequence(Filter& f, py::handle values, py::handle type, py::handle mask, const std::string& what,
                    const ColumnType* typed, bool one) {
  HashedSequence<T> in = HashSequence<T>(values, type, mask, f.raw().hash_seed, what, typed, one);
  int status;
  {
    py::gil_scoped_release release;
    size_t kept = 0;
    for (size_t i = 0; i < in.hashes.size(); ++i) {
      if (in.nulls[i] == 0) in.hashes[kept++] = in.hashes[i];
    }
    WriteLock lock(f.mutex());
    status = HashOps<T>::insert_batch(&f.raw(), in.hashes.data(), kept);
  }
  Check(status, what);
}

template <class T>
py::object FindSequence(Filter& f, py::handle values, py::handle type, py::handle mask, const std::string& what,
                        const ColumnType* typed, bool one) {
  const HashedSequence<T> in = HashSequence<T>(values, type, mask, f.raw().hash_seed, what, typed, one);
  const size_t n = in.hashes.size();
  BoolOutput answers(py::none(), n, {static_cast<py::ssize_t>(n)}, what);
  bool* out = answers.data();
  int status;
  {
    ReadLock lock(f.mutex());
    status = ProbeToBools(n, out, [&](size_t first, size_t count, uint8_t* bitmap) {
      return HashOps<T>::find_batch_bitmap(&f.raw(), in.hashes.data() + first, count, bitmap, nullptr);
    });
    for (size_t i = 0; status >= 0 && i < n; ++i) out[i] = out[i] && in.nulls[i] == 0;
  }
  Check(status, what);
  return answers.result();
}

}  // namespace

namespace {
// An Arrow array (__arrow_c_array__) through blockbloom/arrow.hpp. Its
// schema says the type, so type= may only be a typed filter's or a Parquet
// type name, whose physical type the array's values must be stored as.
ArrowInput OpenArrow(const Filter& f, ArrowInput in, py::handle type, const std::string& what) {
  ColumnType call;
  const ColumnType* typed = Resolve(f, type, &call, what);
  if (typed == nullptr && !type.is_none()) {
    throw py::type_error(what + ": type= with an Arrow array of an untyped filter; the array's schema "
                         "gives its type");
  }
  const uint32_t stored = in.stored_type(f.raw().layout);
  if (typed != nullptr && stored != 0) CheckArrayType(*typed, stored, in.description(), what);
  // Times and timestamps are hashed as the counts they hold: on a filter of
  // TIME / TIMESTAMP (or DATE) values they must be its kind and unit.
  const int32_t logical = typed != nullptr ? typed->column.logical_type : 0;
  const bool filter_temporal = logical == BB_PARQUET_LOGICAL_TIME || logical == BB_PARQUET_LOGICAL_TIMESTAMP ||
                               logical == BB_PARQUET_LOGICAL_DATE;
  if (in.temporal() != 0 && filter_temporal) {
    const int32_t want = in.temporal() == 't' ? BB_PARQUET_LOGICAL_TIME : BB_PARQUET_LOGICAL_TIMESTAMP;
    if (logical != want || typed->column.time_unit != in.unit()) {
      throw py::type_error(what + ": the values are " + in.description() + ", not values of type '" +
                           typed->name + "' (convert them to its unit first: they are hashed as the counts "
                           "they hold)");
    }
  }
  in.Validate(f.raw().layout, what);  // before FindArrow sizes its answers by the length
  return in;
}

void InsertArrow(Filter& f, ArrowInput arrow, py::handle type, const std::string& what) {
  const ArrowInput in = OpenArrow(f, std::move(arrow), type, what);
  int status;
  {
    WriteLock lock(f.mutex());
    status = blockbloom::arrow::insert(&f.raw(), in.schema(), in.array());
  }
  Check(status, what);
}

py::object FindArrow(Filter& f, ArrowInput arrow, py::handle type, const std::string& what) {
  const ArrowInput in = OpenArrow(f, std::move(arrow), type, what);
  const size_t n = in.length();
  std::vector<uint8_t> bitmap((n + 7) / 8);
  BoolOutput answers(py::none(), n, {static_cast<py::ssize_t>(n)}, what);
  int status;
  {
    ReadLock lock(f.mutex());
    status = blockbloom::arrow::find_bitmap(&f.raw(), in.schema(), in.array(), bitmap.data(), nullptr);
    if (status >= 0) {
      status = ProbeToBools(n, answers.data(), [&](size_t first, size_t count, uint8_t* chunk) {
        std::memcpy(chunk, bitmap.data() + first / 8, (count + 7) / 8);
        return 0;
      });
    }
  }
  Check(status, what);
  return answers.result();
}
}  // namespace

namespace {
// one: values is the tuple of the one value given (messages name no item).
void InsertValuesOf(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical, bool one) {
  const std::string what = "insert_values()";
  // Parquet filters: the value model (typed_values.h); Kudu filters hash cells as they are held.
  std::unique_ptr<ArrowInput> unmapped;
  if (!f.kudu() && InsertTyped(f, values, type, mask, physical, &unmapped)) return;
  if (f.kudu() && !f.value_type().set && !f.raw_hashes() && type.is_none()) {
    // An untyped Kudu filter takes its type from the first values, as a
    // Parquet filter does: later values of another container are then
    // converted into it (or refused), never hashed as another type's cells.
    const ColumnType first = TypeOfValues(values, mask, what);
    if (first.set) {
      f.set_value_type(first);
      try {
        InsertValuesOf(f, values, type, mask, physical, one);
      } catch (...) {
        f.set_value_type(ColumnType());  // a refused insert leaves the filter untyped
        throw;
      }
      return;
    }
  }
  if (physical) throw py::type_error(what + ": physical=True is for Parquet filters");
  if (unmapped) return InsertArrow(f, std::move(*unmapped), type, what);
  if (IsArrowArray(values)) return InsertArrow(f, ArrowInput(values, mask, what), type, what);
  if (IsOneObject(values)) {
    InsertValuesOf(f, py::make_tuple(values), type, mask.is_none() ? mask : py::make_tuple(mask), false, true);
    return;
  }
  ColumnType call;
  const ColumnType* typed = Resolve(f, type, &call, what);
  const Unmasked u = Unmask(values, mask, what, typed);
  ArrayColumn column;
  if (!column.Take(u.values, typed != nullptr ? py::none() : type, what)) {
    f.kudu() ? InsertSequence<uint32_t>(f, u.values, type, u.mask, what, typed, one)
             : InsertSequence<uint64_t>(f, u.values, type, u.mask, what, typed, one);
    return;
  }
  if (typed != nullptr) CheckArrayType(*typed, column.column_type(), column.description(), what);
  const NullMask nulls(u.mask, column.count(), what);
  int status;
  {
    WriteLock lock(f.mutex());
    status = InsertColumn(&f.raw(), column.column_type(), column.width(), column.data(), column.count(), nulls);
  }
  Check(status, what);
}

py::object FindValuesOf(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical, bool one) {
  const std::string what = "find_values()";
  std::unique_ptr<ArrowInput> unmapped;
  if (!f.kudu()) {
    py::object answers = FindTyped(f, values, type, mask, physical, &unmapped);
    if (answers) return answers;
  }
  if (physical) throw py::type_error(what + ": physical=True is for Parquet filters");
  if (unmapped) return FindArrow(f, std::move(*unmapped), type, what);
  if (IsArrowArray(values)) return FindArrow(f, ArrowInput(values, mask, what), type, what);
  if (IsOneObject(values)) {
    py::object answers =
        FindValuesOf(f, py::make_tuple(values), type, mask.is_none() ? mask : py::make_tuple(mask), false, true);
    return py::bool_(answers.attr("item")(0));
  }
  ColumnType call;
  const ColumnType* typed = Resolve(f, type, &call, what);
  const Unmasked u = Unmask(values, mask, what, typed);
  ArrayColumn column;
  if (!column.Take(u.values, typed != nullptr ? py::none() : type, what)) {
    return f.kudu() ? FindSequence<uint32_t>(f, u.values, type, u.mask, what, typed, one)
                    : FindSequence<uint64_t>(f, u.values, type, u.mask, what, typed, one);
  }
  if (typed != nullptr) CheckArrayType(*typed, column.column_type(), column.description(), what);
  const NullMask nulls(u.mask, column.count(), what);
  BoolOutput answers(py::none(), column.count(), column.shape(), what);
  int status;
  {
    ReadLock lock(f.mutex());
    status = FindColumn(&f.raw(), column.column_type(), column.width(), column.data(), column.count(), nulls, answers.data());
  }
  Check(status, what);
  return answers.result();
}
}  // namespace

void InsertValues(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical) {
  RequireOneColumn(values, "insert_values()", false);  // a set is one column: its order does not matter here
  if (PyIter_Check(values.ptr())) {
    // A one-pass iterator (a generator) is read once: an untyped Kudu filter
    // looks at the values for their type before it inserts them, which would
    // leave nothing of a generator to insert.
    const py::tuple items = py::reinterpret_steal<py::tuple>(PySequence_Tuple(values.ptr()));
    if (!items) throw py::error_already_set();
    return InsertValuesOf(f, items, type, mask, physical, false);
  }
  InsertValuesOf(f, values, type, mask, physical, false);
}

py::object FindValues(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical) {
  RequireOneColumn(values, "find_values()", true);
  return FindValuesOf(f, values, type, mask, physical, false);
}

// One value rather than many: None, int, float, str, bytes, a numpy scalar,
// or an object that is neither a sequence, an iterable nor an array
// (Decimal, date, time, datetime, UUID).
bool IsOneObject(py::handle value) {
  if (value.is_none() || IsScalar(value)) return true;
  if (py::isinstance(value, py::module_::import("numpy").attr("generic"))) return true;
  if (PySequence_Check(value.ptr()) || PyObject_CheckBuffer(value.ptr()) || py::hasattr(value, "__array__") ||
      py::hasattr(value, "__iter__")) {
    return false;
  }
  return true;
}

namespace {

template <class T>
T HashOne(py::handle value, uint32_t seed, py::handle type, const std::string& what) {
  ValueType value_type;
  if (!ParseType(type, &value_type)) value_type = InferType(value, what);
  return HashOf<T>(Encoded(value, value_type, what), seed);
}

// For the hash functions bytearray and memoryview are one value too (their bytes).
bool IsOneValue(py::handle value) {
  return PyByteArray_Check(value.ptr()) || PyMemoryView_Check(value.ptr()) || IsOneObject(value);
}

// The hashes of an array or sequence's non-null values, in order, as a numpy
// array of T (uint64 for Parquet, uint32 for Kudu).
template <class T>
py::array_t<T> ToArray(const std::vector<T>& hashes, size_t kept) {
  py::array_t<T> out(static_cast<py::ssize_t>(kept));
  if (kept != 0) std::memcpy(out.mutable_data(), hashes.data(), kept * sizeof(T));
  return out;
}

// The hashes of an array or sequence's non-null values, in order, as a numpy
// array of T (uint64 for Parquet, uint32 for Kudu).
template <class T>
py::array_t<T> HashMany(py::handle values, uint32_t seed, py::handle type, const ColumnType* typed,
                        const std::string& what) {
  const Unmasked u = Unmask(values, py::none(), what, typed);
  ArrayColumn column;
  if (!column.Take(u.values, typed != nullptr ? py::none() : type, what)) {
    HashedSequence<T> in = HashSequence<T>(u.values, type, u.mask, seed, what, typed, false);
    size_t kept = 0;
    for (size_t i = 0; i < in.hashes.size(); ++i) {
      if (in.nulls[i] == 0) in.hashes[kept++] = in.hashes[i];
    }
    return ToArray(in.hashes, kept);
  }
  if (typed != nullptr) CheckArrayType(*typed, column.column_type(), column.description(), what);
  const NullMask nulls(u.mask, column.count(), what);
  std::vector<T> hashes(column.count());
  size_t kept = 0;
  int status;
  {
    py::gil_scoped_release release;
    status = ForEachColumnChunk(column.column_type(), column.width(), column.data(), column.count(), nulls,
                                [&](size_t, size_t, const bb_column& col) {
                                  size_t got = 0;
                                  const int st = HashOps<T>::HashColumn(&col, seed, hashes.data() + kept, &got);
                                  kept += got;
                                  return st;
                                });
  }
  Check(status, what);
  return ToArray(hashes, kept);
}

template <class T>
py::object HashValues(py::handle values, uint32_t seed, py::handle type, const std::string& what) {
  ColumnType call;
  const ColumnType* typed = nullptr;
  if (!type.is_none() && !IsLegacyName(type)) {
    call = ParseColumnType(type, what + ": type");
    typed = &call;
  }
  if (!IsOneValue(values)) return HashMany<T>(values, seed, type, typed, what);
  if (typed == nullptr) return py::int_(HashOne<T>(values, seed, type, what));
  if (values.is_none()) throw py::value_error(what + ": None (a null) has no hash");
  const HashedSequence<T> one = HashSequence<T>(py::make_tuple(values), type, py::none(), seed, what, typed, true);
  if (one.nulls[0] != 0) throw py::value_error(what + ": a null has no hash");
  return py::int_(one.hashes[0]);
}

}  // namespace

py::tuple ColumnHashes(const py::dict& column, py::handle values, const std::string& name, bool physical) {
  const std::string what = "probe()";
  ColumnType typed = ColumnTypeFromInfo(column);
  typed.subject = "column " + name + " (" + typed.name + ")";
  // A type the library cannot write as text (BOOLEAN, ...): refused before any value, in its words.
  char form[BB_PARQUET_VALUE_FORM_MAX] = "";
  const int status = bb_parquet_value_form(&typed.column, 0, form, sizeof form);
  if (status != BB_OK) ThrowStatusMessage(status, typed.subject + ": " + form);
  StoredColumnType(typed, what);
  return ColumnHashesTyped(typed, values, physical);
}

py::object ParquetHash(py::handle value, py::handle type, bool physical) {
  // bytearray / memoryview: one value, its bytes (as bytes are).
  if (PyByteArray_Check(value.ptr()) || PyMemoryView_Check(value.ptr())) {
    py::object bytes = py::reinterpret_steal<py::object>(PyBytes_FromObject(value.ptr()));
    if (!bytes) throw py::error_already_set();
    return HashTyped(bytes, type, physical);
  }
  RequireOneColumn(value, "parquet_hash()", true);
  return HashTyped(value, type, physical);
}

py::object KuduHash(py::handle value, uint32_t seed, py::handle type) {
  if (!IsOneValue(value)) RequireOneColumn(value, "kudu_hash()", true);  // a memoryview is one value here
  return HashValues<uint32_t>(value, seed, type, "kudu_hash()");
}

}  // namespace bbpy
