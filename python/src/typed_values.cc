// SPDX-License-Identifier: Apache-2.0
#include "typed_values.h"

#include <blockbloom/arrow.hpp>
#include <blockbloom/parquet_value.h>
#include <pybind11/numpy.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <cstring>
#include <string>
#include <vector>

#include "arrow_input.h"
#include "bool_output.h"
#include "buffers.h"
#include "errors.h"
#include "locks.h"
#include "values.h"

namespace py = pybind11;

namespace bbpy {
namespace {

// Rows hashed at a time: 32 KiB of hashes, read back by the probe from L1/L2
// (a whole kBoolChunk of hashes would be 512 KiB, out of L2 on many CPUs).
constexpr size_t kHashChunk = 4096;


bb_value_source Source(uint32_t kind, int32_t bits = 0, int32_t unit = 0, int32_t zone = 0, int32_t scale = 0,
                       int32_t precision = 0) {
  bb_value_source s{};
  s.struct_size = sizeof s;
  s.kind = kind;
  s.bits = bits;
  s.unit = unit;
  s.zone = zone;
  s.scale = scale;
  s.precision = precision;
  return s;
}

// A conversion's error: TypeError for a kind the type has no comparison
// with, else blockbloom.Error (a ValueError) with the library's code.
[[noreturn]] void ThrowConversion(int status, const std::string& message) {
  if (status == BB_ERR_VALUE_KIND) throw py::type_error(message);
  ThrowStatusMessage(status, message);
}

// "an int", "a timestamp", ... for messages.
const char* KindName(uint32_t kind) {
  static const char* const kNames[] = {"a value", "an int", "an unsigned int", "a float", "a decimal",
                                       "a date", "a timestamp", "a time of day", "text", "bytes", "a bool"};
  return kind < sizeof kNames / sizeof kNames[0] ? kNames[kind] : kNames[0];
}

std::string TypeSubject(const ColumnType& t) {
  return t.subject.empty() ? "type '" + t.name + "'" : t.subject;
}

// ---- Python objects, one at a time ----------------------------------------

// One object as a source and the value the library reads.
struct Item {
  bool null = false;
  bb_value_source src{};
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  int flag = 0;
  // TEXT / BYTES / DECIMAL: the bytes of a Python object held by `owner`,
  // read in place: a 100 MB str is not copied.
  py::object owner;
  const char* data = nullptr;
  size_t size = 0;
  const void* value() const {
    switch (src.kind) {
      case BB_VALUE_UINT: return &u;
      case BB_VALUE_FLOAT: return &d;
      case BB_VALUE_BOOL: return &flag;
      case BB_VALUE_TEXT:
      case BB_VALUE_BYTES:
      case BB_VALUE_DECIMAL: return data;
      default: return &i;
    }
  }
  size_t len() const { return size; }
};

// data[0 .. n) stays valid while `owner` lives.
void SetBytes(uint32_t kind, py::handle owner, const char* data, Py_ssize_t n, Item* it) {
  it->src = Source(kind);
  it->owner = py::reinterpret_borrow<py::object>(owner);
  it->data = data;
  it->size = static_cast<size_t>(n);
}

// An int of any size: INT if it fits int64, UINT if uint64, else its digits
// as an exact DECIMAL (a wider DECIMAL column may hold it).
void SetInt(py::handle v, int32_t bits, bool unsigned_source, Item* it) {
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (s == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
  if (overflow == 0 && !(unsigned_source && s < 0)) {
    it->src = Source(unsigned_source ? BB_VALUE_UINT : BB_VALUE_INT, bits);
    it->i = s;
    it->u = static_cast<uint64_t>(s);
    return;
  }
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred() != nullptr)) {
      it->src = Source(BB_VALUE_UINT, bits);
      it->u = u;
      return;
    }
    PyErr_Clear();
  }
  const py::str digits(v);
  Py_ssize_t n = 0;
  const char* text = PyUnicode_AsUTF8AndSize(digits.ptr(), &n);
  if (text == nullptr) throw py::error_already_set();
  SetBytes(BB_VALUE_DECIMAL, digits, text, n, it);
}

// What one object is: the common kinds here, the rest by blockbloom._sources.item.
Item Classify(py::handle v, py::handle item_fn) {
  Item it;
  PyObject* o = v.ptr();
  if (o == Py_None) {
    it.null = true;
  } else if (PyBool_Check(o)) {
    it.src = Source(BB_VALUE_BOOL);
    it.flag = o == Py_True;
  } else if (PyLong_CheckExact(o)) {
    SetInt(v, 0, false, &it);
  } else if (PyFloat_CheckExact(o)) {
    it.src = Source(BB_VALUE_FLOAT);
    it.d = PyFloat_AS_DOUBLE(o);
  } else if (PyUnicode_CheckExact(o)) {
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &n);
    if (s == nullptr) throw py::error_already_set();
    SetBytes(BB_VALUE_TEXT, v, s, n, &it);
  } else if (PyBytes_CheckExact(o)) {
    SetBytes(BB_VALUE_BYTES, v, PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o), &it);
  } else {
    py::object got = item_fn(v);
    if (got.is_none()) {
      it.null = true;
      return it;
    }
    const py::tuple t = got.cast<py::tuple>();
    const uint32_t kind = t[0].cast<uint32_t>();
    const int32_t bits = t[2].cast<int32_t>(), unit = t[3].cast<int32_t>(), zone = t[4].cast<int32_t>();
    if (kind == BB_VALUE_INT || kind == BB_VALUE_UINT) {
      SetInt(t[1], bits, kind == BB_VALUE_UINT, &it);
      return it;
    }
    if (kind == BB_VALUE_TEXT || kind == BB_VALUE_BYTES || kind == BB_VALUE_DECIMAL) {
      const py::object b = t[1];
      if (!PyBytes_Check(b.ptr())) throw py::type_error("blockbloom._sources.item: the payload is no bytes");
      SetBytes(kind, b, PyBytes_AS_STRING(b.ptr()), PyBytes_GET_SIZE(b.ptr()), &it);
      return it;
    }
    it.src = Source(kind, bits, unit, zone);
    if (kind == BB_VALUE_FLOAT) it.d = t[1].cast<double>();
    else if (kind == BB_VALUE_BOOL) it.flag = t[1].cast<int>();
    else it.i = t[1].cast<int64_t>();
  }
  return it;
}

// Objects classified (TypeError for one of no kind, naming it).
struct Items {
  py::object keep;  // the tuple of the objects
  std::vector<Item> items;
  const Item* first = nullptr;  // the first non-null one
};

Items ClassifyAll(py::handle values, py::handle mask, bool one, const std::string& what) {
  Items out;
  out.keep = py::reinterpret_steal<py::object>(PySequence_Tuple(values.ptr()));
  if (!out.keep) {
    PyErr_Clear();
    throw py::type_error(what + ": expected an array, a Series, an Arrow array or a sequence of values, got " +
                         std::string(Py_TYPE(values.ptr())->tp_name));
  }
  const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(out.keep.ptr()));
  py::array_t<bool> nulls;  // when mask is given
  if (!mask.is_none()) {
    nulls = py::array_t<bool>::ensure(mask);
    if (!nulls) throw py::error_already_set();
    if (static_cast<size_t>(nulls.size()) != n) {
      throw py::value_error(what + ": mask has " + std::to_string(nulls.size()) + " entries for " +
                            std::to_string(n) + " values");
    }
  }
  const py::object item_fn = py::module_::import("blockbloom._sources").attr("item");
  out.items.resize(n);
  for (size_t i = 0; i < n; ++i) {
    py::handle v = PyTuple_GET_ITEM(out.keep.ptr(), static_cast<Py_ssize_t>(i));
    if (!mask.is_none() && nulls.data()[i]) {
      out.items[i].null = true;
      continue;
    }
    try {
      out.items[i] = Classify(v, item_fn);
    } catch (py::error_already_set& e) {
      // A kind it has none of (TypeError), or a value Python cannot convert
      // (ValueError: a Decimal sNaN's float()): the same class, naming the
      // call and the item.
      const bool type = e.matches(PyExc_TypeError);
      if (!type && !e.matches(PyExc_ValueError)) throw;
      const std::string why = what + ": " + (one ? "value " : "item " + std::to_string(i) + " (") + ShortRepr(v) +
                              (one ? "" : ")") + ": " + py::str(e.value()).cast<std::string>();
      if (type) throw py::type_error(why);
      throw py::value_error(why);
    }
    if (out.first == nullptr && !out.items[i].null) out.first = &out.items[i];
  }
  return out;
}

// ---- Containers: a column's chunks -----------------------------------------

// Rows hashed kHashChunk at a time: hashes[0 .. count) and the in_type bitmap.
class Rows {
 public:
  virtual ~Rows() = default;
  virtual size_t size() const = 0;
  virtual std::vector<py::ssize_t> shape() const { return {static_cast<py::ssize_t>(size())}; }
  // May run without the GIL. Returns a bb_status, `error` filled on error.
  virtual int Hash(const bb_parquet_column& type, uint32_t flags, size_t first, size_t count, uint64_t* hashes,
                   uint8_t* in_type, std::string* error) = 0;
  // Whether a row can be an error after another chunk's rows were taken
  // (text: a typo in row 70000): inserts then check every row first.
  virtual bool row_errors() const { return false; }
  // Whether row i is a value (not a null): a row not in the type that is a
  // value is refused by an insert.
  virtual bool valid(size_t i) const = 0;
  // "the int32 array" ..., "item 3 (...)" for the error of status / message.
  virtual std::string Describe(const std::string& error) const = 0;
};

// A bb_column in chunks: values (fixed width) or offsets (byte arrays) and
// the validity advanced by `first` rows.
bb_column ChunkOf(const bb_column& whole, size_t first, size_t count, size_t offset_width) {
  bb_column c = whole;
  c.length = count;
  if (whole.values != nullptr) c.values = static_cast<const uint8_t*>(whole.values) + first * whole.width;
  if (whole.offsets != nullptr) c.offsets = static_cast<const uint8_t*>(whole.offsets) + first * offset_width;
  c.validity_offset = whole.validity_offset + first;
  return c;
}

int HashColumnChunk(const bb_parquet_column& type, const bb_value_source& src, const bb_column& col,
                    uint32_t flags, uint64_t* hashes, uint8_t* in_type, std::string* error) {
  char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
  const int status = bb_parquet_hash_typed_column(&type, &src, &col, flags, hashes, in_type, nullptr, why,
                                                  sizeof why);
  if (status < 0) *error = why;
  return status;
}

// What the caller's array held: datetimes arrive here as their counts (an
// int64 array), which messages must not call "dtype int64 values".
std::string DescribeSource(const bb_value_source& src, const std::string& elements) {
  if (src.kind != BB_VALUE_DATE && src.kind != BB_VALUE_TIMESTAMP) return elements;
  if (src.kind == BB_VALUE_DATE && (src.unit == 0 || src.unit == BB_VALUE_UNIT_DAYS)) return "datetime64[D]";
  const char* unit = src.unit == BB_PARQUET_UNIT_MILLIS   ? "ms"
                     : src.unit == BB_PARQUET_UNIT_MICROS ? "us"
                     : src.unit == BB_PARQUET_UNIT_NANOS  ? "ns"
                                                          : "s";
  return std::string("datetime64[") + unit + "]";  // a zone is named by the library's phrase
}

// A numeric numpy array (datetimes as their int64 counts) and its null mask.
class ArrayRows : public Rows {
 public:
  ArrayRows(py::handle data, py::handle mask, const bb_value_source& src, const std::string& what) : src_(src) {
    if (!buffer_.Acquire(data, false)) throw py::type_error(what + ": the values are no buffer");
    RequireContiguous(buffer_, what);
    const ElementType t = DescribeFormat(buffer_.format());
    description_ = "the " + DescribeSource(src, DescribeElements(data, buffer_.format())) + " values";
    col_.type = ColumnTypeOf(src.kind, t.size);
    col_.length = buffer_.count();
    col_.width = t.size;
    col_.values = buffer_.data();
    if (col_.type == 0 || t.foreign_byte_order) {
      throw py::type_error(what + ": cannot take " + description_ + " (not in native byte order?)");
    }
    if (!mask.is_none()) {
      mask_ = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
      has_mask_ = true;
      if (!mask_) throw py::error_already_set();
      if (static_cast<size_t>(mask_.size()) != col_.length) {
        throw py::value_error(what + ": mask has " + std::to_string(mask_.size()) + " entries for " +
                              std::to_string(col_.length) + " values");
      }
    }
  }
  size_t size() const override { return col_.length; }
  bool valid(size_t i) const override { return !has_mask_ || !mask_.data()[i]; }
  std::vector<py::ssize_t> shape() const override { return buffer_.shape(); }
  int Hash(const bb_parquet_column& type, uint32_t flags, size_t first, size_t count, uint64_t* hashes,
           uint8_t* in_type, std::string* error) override {
    bb_column c = ChunkOf(col_, first, count, 0);
    if (has_mask_) {
      const bool* nulls = mask_.data() + first;
      std::memset(validity_, 0, (count + 7) / 8);
      for (size_t i = 0; i < count; ++i) {
        if (!nulls[i]) validity_[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
      c.validity = validity_;
      c.validity_offset = 0;
    }
    return HashColumnChunk(type, src_, c, flags, hashes, in_type, error);
  }
  std::string Describe(const std::string& error) const override { return description_ + ": " + error; }

 private:
  static uint32_t ColumnTypeOf(uint32_t kind, size_t size) {
    static const uint32_t kSigned[] = {BB_TYPE_INT8, BB_TYPE_INT16, 0, BB_TYPE_INT32, 0, 0, 0, BB_TYPE_INT64};
    static const uint32_t kUnsigned[] = {BB_TYPE_UINT8, BB_TYPE_UINT16, 0, BB_TYPE_UINT32, 0, 0, 0, BB_TYPE_UINT64};
    if (size < 1 || size > 8) return 0;
    if (kind == BB_VALUE_FLOAT) return size == 4 ? BB_TYPE_FLOAT : size == 8 ? BB_TYPE_DOUBLE : 0;
    return kind == BB_VALUE_UINT ? kUnsigned[size - 1] : kSigned[size - 1];
  }
  Buffer buffer_;
  py::array_t<bool, py::array::c_style | py::array::forcecast> mask_;  // when has_mask_
  bool has_mask_ = false;
  bb_value_source src_;
  bb_column col_ = BB_COLUMN_INIT;
  uint8_t validity_[kHashChunk / 8];
  std::string description_;
};

// An Arrow array of a primitive, temporal, decimal or string format (no
// dictionary: those keep blockbloom/arrow.hpp's path).
struct ArrowColumn {
  bb_value_source src{};
  bb_column col = BB_COLUMN_INIT;
  size_t offset_width = 0;
};

// "tsu:Europe/Paris" -> unit and zone.
bool TemporalUnit(char c, int32_t* unit) {
  switch (c) {
    case 's': *unit = BB_VALUE_UNIT_SECONDS; return true;
    case 'm': *unit = BB_PARQUET_UNIT_MILLIS; return true;
    case 'u': *unit = BB_PARQUET_UNIT_MICROS; return true;
    case 'n': *unit = BB_PARQUET_UNIT_NANOS; return true;
    default: return false;
  }
}

// false when the format is not one mapped here (or the structs are not as
// the spec lays them out: arrow.hpp's path then says why).
bool MapArrow(const ArrowSchema* s, const ArrowArray* a, ArrowColumn* out) {
  if (s == nullptr || a == nullptr || s->release == nullptr || a->release == nullptr || s->format == nullptr ||
      s->dictionary != nullptr || a->dictionary != nullptr || a->n_children != 0 || a->length < 0 ||
      a->offset < 0 || a->n_buffers < 2 || a->buffers == nullptr) {
    return false;
  }
  const std::string f = s->format;
  bb_column& c = out->col;
  uint32_t type = 0;
  size_t width = 0;
  static const struct { char format; uint32_t kind; uint32_t type; size_t width; } kPrimitive[] = {
      {'c', BB_VALUE_INT, BB_TYPE_INT8, 1},   {'s', BB_VALUE_INT, BB_TYPE_INT16, 2},
      {'i', BB_VALUE_INT, BB_TYPE_INT32, 4},  {'l', BB_VALUE_INT, BB_TYPE_INT64, 8},
      {'C', BB_VALUE_UINT, BB_TYPE_UINT8, 1}, {'S', BB_VALUE_UINT, BB_TYPE_UINT16, 2},
      {'I', BB_VALUE_UINT, BB_TYPE_UINT32, 4}, {'L', BB_VALUE_UINT, BB_TYPE_UINT64, 8},
      {'f', BB_VALUE_FLOAT, BB_TYPE_FLOAT, 4}, {'g', BB_VALUE_FLOAT, BB_TYPE_DOUBLE, 8}};
  int32_t unit = 0, zone = BB_VALUE_ZONE_NAIVE;
  if (f.size() == 1) {
    for (const auto& p : kPrimitive) {
      if (p.format == f[0]) {
        out->src = Source(p.kind, static_cast<int32_t>(8 * p.width));
        type = p.type;
        width = p.width;
      }
    }
    if (f[0] == 'u' || f[0] == 'z' || f[0] == 'U' || f[0] == 'Z') {
      if (a->n_buffers != 3) return false;  // else arrow.hpp's path says what is wrong
      out->src = Source(f[0] == 'u' || f[0] == 'U' ? BB_VALUE_TEXT : BB_VALUE_BYTES);
      const bool large = f[0] == 'U' || f[0] == 'Z';
      out->offset_width = large ? 8 : 4;
      c.type = large ? BB_TYPE_LARGE_BYTE_ARRAY : BB_TYPE_BYTE_ARRAY;
      c.length = static_cast<size_t>(a->length);
      const uint8_t* offsets = static_cast<const uint8_t*>(a->buffers[1]);
      if (offsets == nullptr && a->length > 0) return false;
      c.offsets = offsets != nullptr ? offsets + static_cast<size_t>(a->offset) * out->offset_width : nullptr;
      c.data = a->buffers[2];
      if (offsets != nullptr) {
        const size_t last = static_cast<size_t>(a->offset + a->length) * out->offset_width;
        int64_t end = 0;
        if (large) {
          std::memcpy(&end, offsets + last, 8);
        } else {
          int32_t e = 0;
          std::memcpy(&e, offsets + last, 4);
          end = e;
        }
        if (end < 0) return false;
        c.data_len = static_cast<size_t>(end);
      }
    }
  } else if (f == "tdD") {
    out->src = Source(BB_VALUE_DATE, 0, BB_VALUE_UNIT_DAYS);
    type = BB_TYPE_INT32;
    width = 4;
  } else if (f == "tdm") {
    out->src = Source(BB_VALUE_DATE, 0, BB_PARQUET_UNIT_MILLIS);
    type = BB_TYPE_INT64;
    width = 8;
  } else if (f.size() >= 4 && f[0] == 't' && f[1] == 's' && f[3] == ':' && TemporalUnit(f[2], &unit)) {
    zone = f.size() > 4 ? BB_VALUE_ZONE_UTC : BB_VALUE_ZONE_NAIVE;  // a zone: the counts are UTC
    out->src = Source(BB_VALUE_TIMESTAMP, 0, unit, zone);
    type = BB_TYPE_INT64;
    width = 8;
  } else if (f.size() == 3 && f[0] == 't' && f[1] == 't' && TemporalUnit(f[2], &unit)) {
    out->src = Source(BB_VALUE_TIME, 0, unit);
    width = f[2] == 's' || f[2] == 'm' ? 4 : 8;
    type = width == 4 ? BB_TYPE_INT32 : BB_TYPE_INT64;
  } else if (f.size() > 2 && f[0] == 'd' && f[1] == ':') {
    int p = 0, sc = 0, bits = 128;
    const int got = std::sscanf(f.c_str() + 2, "%d,%d,%d", &p, &sc, &bits);
    if (got < 2 || (bits != 128 && bits != 256)) return false;
    out->src = Source(BB_VALUE_DECIMAL, 0, 0, 0, sc, p);
    type = BB_TYPE_FIXED_LEN_BYTE_ARRAY;
    width = static_cast<size_t>(bits / 8);
  }
  if (type != 0) {
    if (a->n_buffers != 2 || (a->buffers[1] == nullptr && a->length > 0)) return false;
    c.type = type;
    c.length = static_cast<size_t>(a->length);
    c.width = type == BB_TYPE_FIXED_LEN_BYTE_ARRAY ? width : 0;
    c.values = a->buffers[1] != nullptr ? static_cast<const uint8_t*>(a->buffers[1]) +
                                              static_cast<size_t>(a->offset) * width
                                        : nullptr;
    out->offset_width = 0;
  } else if (c.type == 0) {
    return false;
  }
  if (a->null_count != 0 && a->buffers[0] != nullptr) {
    c.validity = static_cast<const uint8_t*>(a->buffers[0]);
    c.validity_offset = static_cast<size_t>(a->offset);
  }
  return true;
}

class ArrowRows : public Rows {
 public:
  ArrowRows(py::handle values, py::handle mask, const std::string& what)
      : in_(std::make_unique<ArrowInput>(values, mask, what)) {
    // Mapped here only once arrow.hpp's checks pass (its bounds cover every
    // read below). A structure or position that cannot be is refused in any
    // layout; a format Parquet does not take goes to arrow.hpp's path, which
    // answers in the filter's layout.
    std::string why;
    const int status = in_->CheckStatus(BB_LAYOUT_PARQUET, &why);
    if (status == BB_ERR_ARROW_MALFORMED || status == BB_ERR_ARROW_DICTIONARY_INDEX) {
      ThrowStatusMessage(status, what + ": " + why);
    }
    mapped_ = status >= 0 && MapArrow(in_->schema(), in_->array(), &column_);
    if (column_.col.values != nullptr && column_.col.width == 0) {
      width_ = ElementWidth(column_.col.type);
    } else {
      width_ = column_.col.width;
    }
  }
  bool mapped() const { return mapped_; }
  std::unique_ptr<ArrowInput> Release() { return std::move(in_); }
  const bb_value_source& source() const { return column_.src; }
  size_t size() const override { return column_.col.length; }
  int Hash(const bb_parquet_column& type, uint32_t flags, size_t first, size_t count, uint64_t* hashes,
           uint8_t* in_type, std::string* error) override {
    bb_column c = column_.col;
    c.length = count;
    if (c.values != nullptr) c.values = static_cast<const uint8_t*>(c.values) + first * width_;
    if (c.offsets != nullptr) c.offsets = static_cast<const uint8_t*>(c.offsets) + first * column_.offset_width;
    c.validity_offset += first;
    return HashColumnChunk(type, column_.src, c, flags, hashes, in_type, error);
  }
  bool row_errors() const override { return column_.src.kind == BB_VALUE_TEXT; }
  bool valid(size_t i) const override {
    const auto* v = static_cast<const uint8_t*>(column_.col.validity);
    if (v == nullptr) return true;
    const size_t bit = column_.col.validity_offset + i;
    return (v[bit / 8] >> (bit % 8) & 1u) != 0;
  }
  std::string Describe(const std::string& error) const override { return in_->description() + ": " + error; }

 private:
  static size_t ElementWidth(uint32_t t) {
    switch (t) {
      case BB_TYPE_INT8:
      case BB_TYPE_UINT8: return 1;
      case BB_TYPE_INT16:
      case BB_TYPE_UINT16: return 2;
      case BB_TYPE_INT32:
      case BB_TYPE_UINT32:
      case BB_TYPE_FLOAT: return 4;
      default: return 8;
    }
  }
  std::unique_ptr<ArrowInput> in_;
  ArrowColumn column_;
  bool mapped_ = false;
  size_t width_ = 0;
};

// Python objects: hashed one at a time (with the GIL) before the filter is
// touched; Hash then hands out the results.
class ItemRows : public Rows {
 public:
  ItemRows(Items items, bool one, const std::string& what) : items_(std::move(items)), one_(one), what_(what) {}
  const Item* first() const { return items_.first; }
  size_t size() const override { return items_.items.size(); }
  bool valid(size_t i) const override { return !items_.items[i].null; }
  void Convert(const ColumnType& type, uint32_t flags) {
    const size_t n = size();
    hashes_.assign(n, 0);
    in_type_.assign((n + 7) / 8, 0);
    for (size_t i = 0; i < n; ++i) {
      const Item& it = items_.items[i];
      if (it.null) continue;
      char why[BB_PARQUET_VALUE_ERROR_MAX] = "";
      const int status = bb_parquet_hash_typed_value(&type.column, &it.src, it.value(), it.len(), flags,
                                                     &hashes_[i], why, sizeof why);
      if (status == BB_OK) {
        in_type_[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      } else if (status < 0) {
        py::handle v = PyTuple_GET_ITEM(items_.keep.ptr(), static_cast<Py_ssize_t>(i));
        ThrowConversion(status, what_ + ": " + (one_ ? "value " : "item " + std::to_string(i) + " (") + ShortRepr(v) +
                                    (one_ ? "" : ")") + " into " + TypeSubject(type) + ": " + why);
      }
    }
  }
  int Hash(const bb_parquet_column&, uint32_t, size_t first, size_t count, uint64_t* hashes, uint8_t* in_type,
           std::string*) override {
    std::memcpy(hashes, hashes_.data() + first, count * sizeof(uint64_t));
    std::memcpy(in_type, in_type_.data() + first / 8, (count + 7) / 8);  // first is a multiple of 8
    return BB_OK;
  }
  std::string Describe(const std::string& error) const override { return error; }
  const std::vector<uint64_t>& hashes() const { return hashes_; }
  bool in_type(size_t i) const { return (in_type_[i / 8] >> (i % 8) & 1) != 0; }

 private:
  Items items_;
  bool one_;
  std::string what_;
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> in_type_;
};

// ---- The filter's type -----------------------------------------------------

// The type values go into: the filter's; else the call's type=; else the
// first values' source's (an insert then records it on the filter).
// Returns an unset type only for values that are all null on an untyped filter.
ColumnType ResolveType(const Filter& f, py::handle type, const bb_value_source* first, const std::string& what) {
  const ColumnType& own = f.value_type();
  if (!own.set && f.raw_hashes()) {
    throw py::type_error(what + ": the filter holds raw hashes (insert(), or bytes read without type=) and has "
                         "no value type, so its values' type is unknown: build it with Filter(type=...) or pass "
                         "type= to from_bytes / from_parquet_bytes / from_kudu_fields to insert or find values, "
                         "or hash the values with parquet_hash() and use find()");
  }
  if (!type.is_none()) {
    ColumnType call = ParseColumnType(type, what + ": type");
    if (own.set && !SameColumnType(own, call)) {
      throw py::type_error(what + ": the filter holds values of type '" + own.name + "', not type='" +
                           call.name + "'");
    }
    return own.set ? own : call;
  }
  if (own.set || first == nullptr) return own;
  bb_parquet_column column{};
  column.struct_size = sizeof column;
  const int status = bb_parquet_type_of_source(first, &column);
  if (status < 0) {
    ThrowConversion(status, what + ": the filter has no type and the values, " + KindName(first->kind) +
                                ", do not say one (" + bb_status_message(status) +
                                "): give Filter(type=...) or type=");
  }
  return ColumnTypeOf(column);
}

// values taken apart: Arrow, a numeric array, or Python objects.
struct Taken {
  std::unique_ptr<Rows> rows;
  ItemRows* items = nullptr;         // when Python objects
  const bb_value_source* first = nullptr;  // nullptr: no non-null value to take a type from
  bb_value_source column_source{};
  bool one = false;
  std::unique_ptr<ArrowInput> unmapped;  // an Arrow array for arrow.hpp's path (rows is then null)
};

Taken Take(py::handle values, py::handle mask, const std::string& what) {
  Taken t;
  if (IsArrowArray(values)) {
    auto arrow = std::make_unique<ArrowRows>(values, mask, what);
    if (!arrow->mapped()) {  // a dictionary, ...: blockbloom/arrow.hpp's path
      t.unmapped = arrow->Release();
      return t;
    }
    t.column_source = arrow->source();
    t.first = &t.column_source;
    t.rows = std::move(arrow);
    return t;
  }
  t.one = IsOneObject(values);
  py::object many = t.one ? py::object(py::make_tuple(values)) : py::reinterpret_borrow<py::object>(values);
  py::object m = py::reinterpret_borrow<py::object>(mask);
  if (t.one && !mask.is_none()) m = py::make_tuple(mask);
  const py::tuple got = py::module_::import("blockbloom._sources").attr("column")(many, m, what);
  py::object nulls = got[2];
  if (!nulls.is_none()) nulls = py::module_::import("numpy").attr("asarray")(nulls, "bool");
  if (got[0].cast<std::string>() == "column") {
    const py::tuple s = got[3].cast<py::tuple>();
    t.column_source = Source(s[0].cast<uint32_t>(), s[1].cast<int32_t>(), s[2].cast<int32_t>(),
                             s[3].cast<int32_t>(), s[4].cast<int32_t>(), s[5].cast<int32_t>());
    t.first = &t.column_source;
    t.rows = std::make_unique<ArrayRows>(got[1], nulls, t.column_source, what);
    return t;
  }
  auto items = std::make_unique<ItemRows>(ClassifyAll(got[1], nulls, t.one, what), t.one, what);
  t.items = items.get();
  if (items->first() != nullptr) {
    t.column_source = items->first()->src;
    t.first = &t.column_source;
  }
  t.rows = std::move(items);
  return t;
}

uint32_t Flags(bool physical) { return physical ? static_cast<uint32_t>(BB_PARQUET_TEXT_PHYSICAL) : 0u; }

// Converts Python objects (with the GIL) before any chunk is hashed.
void Prepare(Taken& t, const ColumnType& type, uint32_t flags) {
  if (t.items != nullptr) t.items->Convert(type, flags);
}

// Every row's hash and in_type bit, chunk by chunk; fn(first, count, hashes, in_type)
// per chunk. Returns the first error (message in *error).
template <class Fn>
int EachChunk(Rows& rows, const ColumnType& type, uint32_t flags, std::string* error, Fn fn) {
  uint64_t hashes[kHashChunk];
  uint8_t in_type[kHashChunk / 8];
  for (size_t first = 0; first < rows.size(); first += kHashChunk) {
    const size_t count = std::min(rows.size() - first, kHashChunk);
    int status = rows.Hash(type.column, flags, first, count, hashes, in_type, error);
    if (status < 0) return status;
    status = fn(first, count, hashes, in_type);
    if (status < 0) return status;
  }
  return BB_OK;
}

void CheckRows(int status, const Rows& rows, const std::string& error, const ColumnType& type,
               const std::string& what) {
  if (status >= 0) return;
  if (error.empty()) Check(status, what);
  ThrowConversion(status, what + ": " + rows.Describe(error) + " (into " + TypeSubject(type) + ")");
}

// Row i of values as Python shows it ("" when it cannot be read back).
std::string RowRepr(py::handle values, bool one, size_t i) {
  try {
    if (one) return ShortRepr(values);
    if (IsArrowArray(values)) {
      py::object v = values[py::int_(i)];
      if (py::hasattr(v, "as_py")) v = v.attr("as_py")();
      return ShortRepr(v);
    }
    py::object v = py::module_::import("numpy").attr("asarray")(values).attr("reshape")(-1)[py::int_(i)];
    if (py::hasattr(v, "item")) v = v.attr("item")();
    return ShortRepr(v);
  } catch (py::error_already_set&) {
    return "";
  }
}

// Whether every value of this column source is one of `type` (its own type:
// int64 into INT64, ...), so an insert need not look for values outside it.
bool SourceIsType(const Taken& t, const ColumnType& type) {
  if (t.items != nullptr || t.first == nullptr || t.rows->row_errors()) return false;
  bb_parquet_column column{};
  column.struct_size = sizeof column;
  if (bb_parquet_type_of_source(t.first, &column) < 0) return false;
  return SameColumnType(ColumnTypeOf(column), type);
}

// An insert takes every value or none: a value that is not one of the
// filter's type (1000 into INTEGER(8), 2.5 into INT64, noon into DATE) would
// otherwise be left out and then answered absent, so the whole call is
// refused before the filter changes (a find answers such a value False).
void RefuseRowsNotInType(Taken& t, py::handle values, const ColumnType& type, uint32_t flags,
                         const std::string& what) {
  if (SourceIsType(t, type)) return;
  std::string error;
  size_t bad = SIZE_MAX;
  int status;
  {
    py::gil_scoped_release release;
    Rows& rows = *t.rows;
    status = EachChunk(rows, type, flags, &error, [&](size_t first, size_t count, uint64_t*, uint8_t* ok) {
      for (size_t i = 0; i < count && bad == SIZE_MAX; ++i) {
        if (((ok[i / 8] >> (i % 8)) & 1u) == 0 && rows.valid(first + i)) bad = first + i;
      }
      return bad == SIZE_MAX ? 0 : BB_ERR_VALUE_RANGE;
    });
  }
  if (bad == SIZE_MAX) {
    CheckRows(status, *t.rows, error, type, what);
    return;
  }
  const std::string repr = RowRepr(values, t.one, bad);
  const std::string item = t.one ? "value " + repr : "item " + std::to_string(bad) + (repr.empty() ? "" : " (" + repr + ")");
  ThrowStatusMessage(BB_ERR_VALUE_RANGE,
                     what + ": " + item + " is not a value of the filter's " + TypeSubject(type) +
                         ", so nothing was inserted (a filter holds only values of its type): give the filter "
                         "a wider type=, e.g. Filter(..., type='int64') or type='double'");
}

}  // namespace

bool InsertTyped(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical,
                 std::unique_ptr<ArrowInput>* unmapped) {
  const std::string what = "insert_values()";
  Taken t = Take(values, mask, what);
  if (t.rows == nullptr) {
    *unmapped = std::move(t.unmapped);
    return false;
  }
  // The type is recorded once the values went in: a refused insert leaves the filter as it was.
  const ColumnType column_type = ResolveType(f, type, t.first, what);
  if (!column_type.set) return true;  // nothing but nulls, and no type to check them against
  const uint32_t flags = Flags(physical);
  Prepare(t, column_type, flags);
  std::string error;
  int status = BB_OK;
  CheckRows(status, *t.rows, error, column_type, what);
  RefuseRowsNotInType(t, values, column_type, flags, what);
  {
    WriteLock lock(f.mutex());
    status = EachChunk(*t.rows, column_type, flags, &error, [&](size_t, size_t count, uint64_t* h, uint8_t* ok) {
      size_t kept = 0;
      for (size_t i = 0; i < count; ++i) {
        h[kept] = h[i];
        kept += (ok[i / 8] >> (i % 8)) & 1u;
      }
      return bb_insert_batch(&f.raw(), h, kept);
    });
  }
  CheckRows(status, *t.rows, error, column_type, what);
  if (!f.value_type().set) f.set_value_type(column_type);
  return true;
}

py::object FindTyped(Filter& f, py::handle values, py::handle type, py::handle mask, bool physical,
                     std::unique_ptr<ArrowInput>* unmapped) {
  const std::string what = "find_values()";
  Taken t = Take(values, mask, what);
  if (t.rows == nullptr) {
    *unmapped = std::move(t.unmapped);
    return py::object();
  }
  const ColumnType column_type = ResolveType(f, type, t.first, what);
  const size_t n = t.rows->size();
  BoolOutput answers(py::none(), n, t.rows->shape(), what);
  int status = BB_OK;
  std::string error;
  if (!column_type.set) {
    std::memset(answers.data(), 0, n);  // only nulls
  } else {
    const uint32_t flags = Flags(physical);
    Prepare(t, column_type, flags);
    ReadLock lock(f.mutex());
    const std::array<uint64_t, 256>& widen = WidenedBytes();
    bool* out = answers.data();
    status = EachChunk(*t.rows, column_type, flags, &error, [&](size_t first, size_t count, uint64_t* h,
                                                                 uint8_t* ok) {
      uint8_t bitmap[kHashChunk / 8];
      const int st = bb_find_batch_bitmap(&f.raw(), h, count, bitmap, nullptr);
      if (st < 0) return st;
      unsigned char* dst = reinterpret_cast<unsigned char*>(out + first);
      const size_t bytes = (count + 7) / 8;
      for (size_t i = 0; i < bytes; ++i) {
        const uint8_t b = bitmap[i] & ok[i];
        std::memcpy(dst + 8 * i, &widen[b], std::min<size_t>(8, count - 8 * i));
      }
      return 0;
    });
  }
  CheckRows(status, *t.rows, error, column_type, what);
  if (t.one) return py::bool_(answers.result().attr("item")(0));
  return answers.result();
}

namespace {

// Per row: hash and whether it is a null or not of the type.
struct RowHashes {
  py::array_t<uint64_t> hashes;
  py::array_t<bool> no_match;
  bool one = false;
};

RowHashes HashRows(py::handle values, const ColumnType* given, py::handle type, bool physical,
                   const std::string& what) {
  Taken t = Take(values, py::none(), what);
  if (t.rows == nullptr) {
    throw py::type_error(what + ": an Arrow array of this format (a dictionary, ...) is hashed only by a filter");
  }
  ColumnType column_type;
  if (given != nullptr) {
    column_type = *given;
  } else if (!type.is_none()) {
    column_type = ParseColumnType(type, what + ": type");
  } else if (t.first != nullptr) {
    bb_parquet_column column{};
    column.struct_size = sizeof column;
    const int status = bb_parquet_type_of_source(t.first, &column);
    if (status < 0) {
      ThrowConversion(status, what + ": the values, " + KindName(t.first->kind) + ", do not say their type (" +
                                  bb_status_message(status) + "): give type=");
    }
    column_type = ColumnTypeOf(column);
  }
  const size_t n = t.rows->size();
  RowHashes out{py::array_t<uint64_t>(static_cast<py::ssize_t>(n)), py::array_t<bool>(static_cast<py::ssize_t>(n)),
                t.one};
  uint64_t* hashes = out.hashes.mutable_data();
  bool* no_match = out.no_match.mutable_data();
  std::fill(no_match, no_match + n, true);
  if (!column_type.set) return out;
  const uint32_t flags = Flags(physical);
  Prepare(t, column_type, flags);
  std::string error;
  int status;
  {
    py::gil_scoped_release release;
    status = EachChunk(*t.rows, column_type, flags, &error, [&](size_t first, size_t count, uint64_t* h,
                                                                 uint8_t* ok) {
      std::memcpy(hashes + first, h, count * sizeof(uint64_t));
      for (size_t i = 0; i < count; ++i) no_match[first + i] = ((ok[i / 8] >> (i % 8)) & 1u) == 0;
      return 0;
    });
  }
  CheckRows(status, *t.rows, error, column_type, what);
  return out;
}

}  // namespace

ColumnType TypeOfValues(py::handle values, py::handle mask, const std::string& what) {
  Taken t = Take(values, mask, what);
  if (t.rows == nullptr || t.first == nullptr) return ColumnType();
  bb_parquet_column column{};
  column.struct_size = sizeof column;
  const int status = bb_parquet_type_of_source(t.first, &column);
  if (status < 0) {
    ThrowConversion(status, what + ": the filter has no type and the values, " + KindName(t.first->kind) +
                                ", do not say one (" + bb_status_message(status) + "): give Filter(type=...) or type=");
  }
  return ColumnTypeOf(column);
}

py::object HashTyped(py::handle values, py::handle type, bool physical) {
  const std::string what = "parquet_hash()";
  if (values.is_none()) throw py::value_error(what + ": None (a null) has no hash");
  RowHashes rows = HashRows(values, nullptr, type, physical, what);
  if (rows.one) {
    if (rows.no_match.data()[0]) return py::none();
    return py::int_(rows.hashes.data()[0]);
  }
  // The hashes of the rows that have one, in order.
  const py::ssize_t n = rows.hashes.size();
  std::vector<uint64_t> kept;
  for (py::ssize_t i = 0; i < n; ++i) {
    if (!rows.no_match.data()[i]) kept.push_back(rows.hashes.data()[i]);
  }
  py::array_t<uint64_t> out(static_cast<py::ssize_t>(kept.size()));
  if (!kept.empty()) std::memcpy(out.mutable_data(), kept.data(), kept.size() * sizeof(uint64_t));
  return out;
}

py::tuple ColumnHashesTyped(const ColumnType& type, py::handle values, bool physical) {
  RowHashes rows = HashRows(values, &type, py::none(), physical, "probe()");
  return py::make_tuple(rows.hashes, rows.no_match);
}

}  // namespace bbpy
