// SPDX-License-Identifier: Apache-2.0
// blockbloom.Filter: one bb_filter (owned, or a view over a Python buffer it
// keeps exported), the lock that makes it safe to share between threads, and
// the methods the Python class binds.
//
// Threads: batch calls run without the GIL. Finds take the filter's lock
// shared, so any number run at once; writes (inserts, clear, union into it)
// take it exclusively, so two threads inserting into one filter cannot lose
// each other's bits. Nobody blocks on the lock while holding the GIL
// (locks.h: its guards give the GIL up first).
#ifndef BLOCKBLOOM_PYTHON_FILTER_H_
#define BLOCKBLOOM_PYTHON_FILTER_H_

#include <blockbloom/blockbloom.h>
#include <blockbloom/parquet_value.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "buffers.h"
#include "locks.h"

namespace bbpy {

// The Parquet type of a filter's values (Filter(type=...), a file's column):
// a bb_parquet_column without a path, and the name it is shown by.
struct ColumnType {
  bool set = false;
  bb_parquet_column column{};
  std::string name;
  // What messages call it: "type 'date'" when empty, else e.g. "column d (INT32 DATE)".
  std::string subject;
};

// type=: None (unset) or a name bb_parquet_type_parse knows, else ValueError.
ColumnType ParseColumnType(pybind11::handle name, const std::string& what);
// A file's column (the fields of bb_parquet_column, without the path); its name
// the library's "PHYSICAL LOGICAL" spelling.
ColumnType ColumnTypeOf(const bb_parquet_column& column);
// That name ("PHYSICAL" or "PHYSICAL LOGICAL"), or the library's status
// when the fields are not a type it can name.
int ColumnTypeName(const bb_parquet_column& column, std::string* name);
// The ten int32 members of bb_parquet_column that make a type (physical_type
// .. precision), in the order of ColumnTypeState and of blockbloom.parquet's
// column dicts.
constexpr size_t kColumnTypeFields = 10;
extern const char* const kColumnTypeFieldNames[kColumnTypeFields];
int32_t& ColumnTypeField(bb_parquet_column& c, size_t i);
// The same from blockbloom.parquet's column dict (its bb_parquet_column fields).
ColumnType ColumnTypeFromInfo(const pybind11::dict& info);
bool SameColumnType(const ColumnType& a, const ColumnType& b);
// (name, physical_type, type_length, logical_type, converted_type, bit_width,
// is_signed, time_unit, is_adjusted_to_utc, scale, precision), for pickle;
// filter_shipping.cc reads it back, checked.
pybind11::object ColumnTypeState(const ColumnType& t);

class Filter {
 public:
  Filter() = default;
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;
  ~Filter() { bb_filter_release(&f_); }

  // Filter(num_bytes=None, *, ndv=None, fpp=None, layout="parquet", seed=None,
  // type=None, sizing=None)
  static std::unique_ptr<Filter> Create(pybind11::object num_bytes, pybind11::object ndv,
                                        pybind11::object fpp, const std::string& layout,
                                        pybind11::object seed, pybind11::object type,
                                        pybind11::object sizing);
  static std::unique_ptr<Filter> FromBytes(pybind11::handle buf, const std::string& layout, bool copy,
                                           pybind11::object seed, bool always_false);
  static std::unique_ptr<Filter> FromParquetBytes(pybind11::handle buf, bool copy);
  // A filter file (filter_file.h): layout, seed, value type and bits, checked.
  static std::unique_ptr<Filter> FromFileBytes(pybind11::handle buf);
  static std::unique_ptr<Filter> FromKuduFields(pybind11::handle fields);

  const bb_filter& raw() const { return f_; }
  bb_filter& raw() { return f_; }
  bool kudu() const { return f_.layout == BB_LAYOUT_KUDU; }
  bool always_false() const;
  bool is_view() const { return source_.held(); }
  const ColumnType& value_type() const { return type_; }
  void set_value_type(const ColumnType& t) { type_ = t; }
  // An untyped filter that had raw hashes inserted (insert()): its values'
  // type is unknown, so insert_values / find_values refuse it.
  bool raw_hashes() const { return raw_hashes_; }
  // Bits that came from elsewhere (from_bytes, from_parquet_bytes,
  // from_kudu_fields): typed when the caller gives type=, else raw hashes, as
  // the bytes do not say what values made them (a type guessed per probe
  // would answer absent for values inserted as another type).
  void TypeBitsFromElsewhere(pybind11::handle type, const std::string& what) {
    type_ = ParseColumnType(type, what + ": type");
    raw_hashes_ = !type_.set;
  }
  FilterMutex& mutex() const { return mutex_; }
  std::string Repr() const;

  void Insert(pybind11::handle hashes);
  pybind11::object Find(pybind11::handle hashes, pybind11::handle out);
  pybind11::array FindBitmap(pybind11::handle hashes);
  pybind11::array FindIndices(pybind11::handle hashes);
  bool Contains(pybind11::handle hash);
  double Fpp(pybind11::handle ndv) const;

  void Union(Filter& other) { Combine(other, bb_filter_union, "union()"); }
  void Intersect(Filter& other) { Combine(other, bb_filter_intersect, "intersect()"); }
  // Filter.union_all / intersect_all: a new owned filter, the OR / AND of
  // every filter of a non-empty sequence (the first one's type kept).
  static std::unique_ptr<Filter> UnionAll(pybind11::handle filters);
  static std::unique_ptr<Filter> IntersectAll(pybind11::handle filters);
  void Clear();
  std::unique_ptr<Filter> Copy() const;
  bool Equals(const Filter& other) const;

  pybind11::bytes ToParquetBytes(bool any_size) const;
  // The filter file of this filter: typed, or raw hashes (insert()); a filter
  // with neither (nothing inserted, no type=) is a ValueError.
  pybind11::bytes ToFileBytes() const;
  pybind11::dict ToKuduFields() const;
  pybind11::buffer_info BufferInfo() const;
  // Pickle's state: (layout, seed, always_false, bits, type, raw_hashes),
  // the bits as bytes (GetState) or as the caller's buffer (State).
  pybind11::tuple GetState() const;
  pybind11::tuple State(pybind11::object bits) const;
  // A new filter from a state, every field checked against the others
  // (filter_shipping.cc); a state that is not one is a ValueError naming
  // the field.
  static std::unique_ptr<Filter> SetState(pybind11::handle state);

 private:
  template <class T> void InsertT(pybind11::handle hashes);
  template <class T> pybind11::object FindT(pybind11::handle hashes, pybind11::handle out);
  template <class T> pybind11::array FindBitmapT(pybind11::handle hashes);
  template <class T> pybind11::array FindIndicesT(pybind11::handle hashes);
  void Combine(Filter& other, int (*op)(bb_filter*, const bb_filter*), const char* what);
  [[noreturn]] static void ThrowMismatch(const Filter& a, const Filter& b, const char* what);
  static std::unique_ptr<Filter> CombineAll(pybind11::handle filters, int (*op)(bb_filter*, const bb_filter*),
                                            const char* what);

  bb_filter f_{};
  Buffer source_;  // the exported buffer of a view (from_bytes(copy=False))
  mutable FilterMutex mutex_;  // taken only through locks.h's guards
  ColumnType type_;  // the values' type, if known
  bool raw_hashes_ = false;
};

// "parquet" / "kudu" -> bb_layout, else ValueError.
bb_layout ParseLayout(const std::string& layout);

// The size Filter(ndv=, fpp=, layout=, sizing=) gets: sizing None or
// "parquet-safe" (a power of two Parquet readers accept; the default) or
// "exact" (any multiple of 32: the smallest meeting fpp); Kudu filters are a
// power of two either way. A function of its arguments only, so filters built
// apart (one per partition) can be merged.
size_t SizeFor(pybind11::handle ndv, pybind11::handle fpp, bb_layout layout, pybind11::handle sizing);

// The Python class's methods for shipping filters between processes
// (filter_shipping.cc): __sizeof__, __reduce_ex__, __getstate__,
// __setstate__, union_all, intersect_all.
void BindShipping(pybind11::class_<Filter>& cls);
// Filter.__setstate__ (filter_state.cc): fills self, a new object, from a
// checked state; an initialised filter is a TypeError.
void SetStateInto(pybind11::handle self, pybind11::handle state);

// What a Filter made by Filter.__new__ and never filled (__init__ or
// __setstate__ not run, or refused) says when used: its C++ object does not
// exist, so every method, property and buffer export is this TypeError.
extern const char kNotInitialised[];
// False for a Filter (or subclass) object whose C++ Filter was never made;
// true for a made one and for any other object.
bool FilledOrNotFilter(PyObject* obj);
// Makes a buffer export (memoryview, numpy) of such an object that TypeError
// too: pybind11's own getbuffer would read through a null object
// (filter_guard.cc).
void GuardBufferExport(pybind11::class_<Filter>& cls);

}  // namespace bbpy

// Every binding reaches a Filter (self, other, the filters of union_all)
// through this caster: an object whose C++ Filter was never made is refused
// here: pybind11's own caster would hand the method fresh uninitialised
// memory in its place.
namespace pybind11::detail {
template <>
class type_caster<bbpy::Filter> : public type_caster_base<bbpy::Filter> {
 public:
  bool load(handle src, bool convert) {
    if (!bbpy::FilledOrNotFilter(src.ptr())) throw type_error(bbpy::kNotInitialised);
    return type_caster_base<bbpy::Filter>::load(src, convert);
  }
};
}  // namespace pybind11::detail

#endif  // BLOCKBLOOM_PYTHON_FILTER_H_
