// SPDX-License-Identifier: Apache-2.0
#include "filter.h"

#include <vector>

#include <blockbloom/filter_file.h>
#include <blockbloom/kudu.h>
#include <blockbloom/parquet_format.h>
#include <blockbloom/sizing.h>

#include <cstring>
#include <limits>

#include "bool_output.h"
#include "errors.h"
#include "hash_ops.h"
#include "locks.h"

namespace py = pybind11;

namespace bbpy {
namespace {

int32_t Log2(size_t power_of_two) {
  int32_t log = 0;
  while ((power_of_two >>= 1) != 0) ++log;
  return log;
}

double ToDouble(py::handle obj, const std::string& what) {
  const double v = PyFloat_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw py::type_error(what + ": expected a float, got " + std::string(Py_TYPE(obj.ptr())->tp_name));
  }
  return v;
}

uint32_t SeedFor(bb_layout layout, py::handle seed) {
  if (seed.is_none()) return 0;
  if (layout != BB_LAYOUT_KUDU) {
    throw py::type_error("seed: Parquet filters hash with XXH64, seed 0; a seed is for Kudu filters");
  }
  return static_cast<uint32_t>(ToUnsigned(seed, std::numeric_limits<uint32_t>::max(), "seed"));
}

// An int field of BlockBloomFilterPB. Outside int32 it is -1, which the
// library refuses like any other out-of-range value.
int32_t Int32Field(py::handle value, const std::string& what) {
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index) {
    PyErr_Clear();
    throw py::type_error(what + ": expected an int, got " + std::string(Py_TYPE(value.ptr())->tp_name));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  return overflow == 0 && v >= INT32_MIN && v <= INT32_MAX ? static_cast<int32_t>(v) : -1;
}

// Takes obj's buffer for a view: writable if it is, else read-only.
void AcquireForView(Buffer& buf, py::handle obj, bool want_writable, const std::string& what) {
  if (!(want_writable && buf.Acquire(obj, true)) && !buf.Acquire(obj, false)) {
    throw py::type_error(what + ": expected a bytes-like object (bytes, bytearray, memoryview, "
                         "mmap, numpy array), got " + std::string(Py_TYPE(obj.ptr())->tp_name));
  }
  RequireContiguous(buf, what);
}

// A view's bb_filter over buf's bytes (writable exactly when buf is).
int InitView(bb_filter* f, const Buffer& buf, const uint8_t* data, size_t n, bb_layout layout,
             bool always_false, uint32_t seed) {
  uint8_t* mutable_data = const_cast<uint8_t*>(data);
  if (layout == BB_LAYOUT_KUDU) {
    return buf.readonly() ? bb_kudu_filter_init_view_readonly(f, data, n, always_false ? 1 : 0, seed)
                          : bb_kudu_filter_init_view(f, mutable_data, n, always_false ? 1 : 0, seed);
  }
  return buf.readonly() ? bb_filter_init_view_readonly(f, data, n) : bb_filter_init_view(f, mutable_data, n);
}

// An owned filter holding a copy of n bytes (with the Kudu fields given).
int InitCopy(bb_filter* f, const uint8_t* data, size_t n, bb_layout layout, bool always_false,
             uint32_t seed) {
  if (layout == BB_LAYOUT_KUDU) {
    const int status = bb_kudu_filter_check_size(n);
    if (status != BB_OK) return status;
    bb_kudu_directory dir{};
    dir.log_space_bytes = Log2(n);
    dir.bloom_data = data;
    dir.bloom_data_size = n;
    dir.always_false = always_false ? 1 : 0;
    dir.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
    dir.hash_seed = seed;
    return bb_kudu_import(f, &dir);
  }
  const int status = bb_filter_init(f, n);
  if (status == BB_OK) std::memcpy(f->data, data, n);
  return status;
}

// A bytes object of n bytes filled by fill(char*) without the GIL, then cut
// to the length fill returns (a negative bb_status is raised).
template <class Fill>
py::bytes BytesFilledWithoutGil(size_t n, const std::string& what, Fill fill) {
  PyObject* raw = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
  if (raw == nullptr) throw py::error_already_set();
  py::object guard = py::reinterpret_steal<py::object>(raw);
  long long written;
  {
    py::gil_scoped_release release;
    written = fill(PyBytes_AS_STRING(raw));
  }
  if (written < 0) ThrowStatus(static_cast<int>(written), what);
  PyObject* cut = guard.release().ptr();
  if (_PyBytes_Resize(&cut, static_cast<Py_ssize_t>(written)) != 0) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(cut);
}

// Filters of values of two different types hold hashes of different bytes:
// combined, neither type's values would be found. An untyped filter combines
// with any (it takes the other's type).
void CheckSameValues(const Filter& a, const Filter& b, const char* what) {
  const ColumnType& x = a.value_type();
  const ColumnType& y = b.value_type();
  if (x.set && y.set && !SameColumnType(x, y)) {
    ThrowStatusMessage(BB_ERR_FILTER_MISMATCH, std::string(what) + ": the filters hold values of different "
                       "types ('" + x.name + "' and '" + y.name + "'): " + bb_status_message(BB_ERR_FILTER_MISMATCH));
  }
  // Raw hashes are of no known type: merged with typed values, the result's
  // type would be wrong for one of them (its values then answer absent).
  const bool raw_x = !x.set && a.raw_hashes(), raw_y = !y.set && b.raw_hashes();
  if ((raw_x && y.set) || (raw_y && x.set)) {
    const std::string first = raw_x ? "raw hashes" : "'" + x.name + "'";
    const std::string second = raw_y ? "raw hashes" : "'" + y.name + "'";
    ThrowStatusMessage(BB_ERR_FILTER_MISMATCH, std::string(what) + ": filters differ in value type: " + first +
                       " and " + second + " (a raw-hash filter merges only with raw-hash or empty untyped "
                       "filters)");
  }
}

}  // namespace

bb_layout ParseLayout(const std::string& layout) {
  if (layout == "parquet") return BB_LAYOUT_PARQUET;
  if (layout == "kudu") return BB_LAYOUT_KUDU;
  throw py::value_error("layout: expected 'parquet' or 'kudu', got " + ShortRepr(py::str(layout)));
}

size_t SizeFor(py::handle ndv, py::handle fpp, bb_layout layout, py::handle sizing) {
  bool exact = false;
  if (!sizing.is_none()) {
    const std::string name = py::isinstance<py::str>(sizing) ? sizing.cast<std::string>() : std::string();
    if (name != "parquet-safe" && name != "exact") {
      throw py::value_error("sizing: expected 'parquet-safe' or 'exact', got " + ShortRepr(sizing));
    }
    exact = name == "exact";
  }
  const uint64_t n = ToUnsigned(ndv, std::numeric_limits<uint64_t>::max(), "ndv");
  const double p = ToDouble(fpp, "fpp");
  // Parquet-safe: the sizes every Parquet reader accepts; exact: any multiple
  // of 32 (a filter for memory or the network). Kudu: always a power of two.
  const bb_sizing kind = layout == BB_LAYOUT_KUDU ? BB_SIZE_KUDU : exact ? BB_SIZE_PARQUET : BB_SIZE_PARQUET_SAFE;
  size_t bytes = 0;
  Check(bb_bytes_for(n, p, kind, &bytes), "Filter(ndv=..., fpp=...)");
  return bytes;
}

std::unique_ptr<Filter> Filter::Create(py::object num_bytes, py::object ndv, py::object fpp,
                                       const std::string& layout_name, py::object seed, py::object type,
                                       py::object sizing) {
  const bb_layout layout = ParseLayout(layout_name);
  const ColumnType value_type = ParseColumnType(type, "Filter(): type");
  const bool by_size = !num_bytes.is_none();
  const bool by_target = !ndv.is_none() || !fpp.is_none();
  if (by_size && by_target) throw py::type_error("Filter(): give num_bytes, or ndv and fpp, not both");
  if (!by_size && !(by_target && !ndv.is_none() && !fpp.is_none())) {
    throw py::type_error("Filter(): give num_bytes, or both ndv (the number of distinct values) "
                         "and fpp (the target false-positive probability)");
  }
  if (by_size && !sizing.is_none()) {
    throw py::type_error("Filter(): sizing chooses the size for ndv and fpp; with num_bytes give none");
  }
  const uint32_t hash_seed = SeedFor(layout, seed);
  const size_t bytes = by_size ? ToUnsigned(num_bytes, std::numeric_limits<size_t>::max(), "num_bytes")
                               : SizeFor(ndv, fpp, layout, sizing);
  auto filter = std::make_unique<Filter>();
  const std::string what = "Filter(num_bytes=" + std::to_string(bytes) + ")";
  if (layout == BB_LAYOUT_KUDU) {
    Check(bb_kudu_filter_check_size(bytes), what);
    Check(bb_kudu_filter_init(&filter->f_, Log2(bytes), hash_seed), what);
  } else {
    Check(bb_filter_init(&filter->f_, bytes), what);
  }
  filter->type_ = value_type;
  return filter;
}

std::unique_ptr<Filter> Filter::FromBytes(py::handle buf, const std::string& layout_name, bool copy,
                                          py::object seed, bool always_false) {
  const bb_layout layout = ParseLayout(layout_name);
  const uint32_t hash_seed = SeedFor(layout, seed);
  if (always_false && layout != BB_LAYOUT_KUDU) {
    throw py::type_error("always_false: only Kudu filters have an always-false state");
  }
  auto filter = std::make_unique<Filter>();
  if (copy) {
    Buffer src;
    AcquireForView(src, buf, false, "from_bytes()");
    Check(InitCopy(&filter->f_, static_cast<const uint8_t*>(src.data()), src.bytes(), layout,
                   always_false, hash_seed),
          "from_bytes()");
    return filter;
  }
  AcquireForView(filter->source_, buf, true, "from_bytes()");
  const Buffer& src = filter->source_;
  Check(InitView(&filter->f_, src, static_cast<const uint8_t*>(src.data()), src.bytes(), layout,
                 always_false, hash_seed),
        "from_bytes()");
  return filter;
}

std::unique_ptr<Filter> Filter::FromParquetBytes(py::handle buf, bool copy) {
  auto filter = std::make_unique<Filter>();
  Buffer& src = filter->source_;
  AcquireForView(src, buf, !copy, "from_parquet_bytes()");
  const uint8_t* data = static_cast<const uint8_t*>(src.data());
  if (copy) {
    Check(bb_parquet_filter_read(&filter->f_, data, src.bytes(), nullptr), "from_parquet_bytes()");
    src.Release();
    return filter;
  }
  size_t header_bytes = 0;
  size_t num_bytes = 0;
  Check(bb_parquet_header_read(data, src.bytes(), &header_bytes, &num_bytes), "from_parquet_bytes()");
  Check(InitView(&filter->f_, src, data + header_bytes, num_bytes, BB_LAYOUT_PARQUET, false, 0),
        "from_parquet_bytes()");
  return filter;
}

std::unique_ptr<Filter> Filter::FromFileBytes(py::handle buf) {
  const std::string what = "from_file_bytes()";
  auto filter = std::make_unique<Filter>();
  Buffer src;
  AcquireForView(src, buf, false, what);
  int32_t values = 0;
  bb_parquet_column type{};
  type.struct_size = sizeof type;
  int status = 0;
  {
    py::gil_scoped_release release;
    status = bb_filter_file_read(static_cast<const uint8_t*>(src.data()), src.bytes(), &filter->f_,
                                 &values, &type, nullptr);
  }
  src.Release();
  Check(status, what);
  if (values == BB_FILTER_VALUES_TYPED) {
    filter->type_ = ColumnTypeOf(type);
  } else {
    filter->raw_hashes_ = true;
  }
  return filter;
}

std::unique_ptr<Filter> Filter::FromKuduFields(py::handle fields) {
  const std::string what = "from_kudu_fields()";
  py::dict d;
  try {
    d = py::dict(py::reinterpret_borrow<py::object>(fields));
  } catch (const py::error_already_set&) {
    throw py::type_error(what + ": expected a mapping of BlockBloomFilterPB fields");
  }
  static const char* const kKnown[] = {"log_space_bytes", "bloom_data", "always_false",
                                       "hash_algorithm", "hash_seed"};
  for (auto item : d) {
    const std::string key = py::str(item.first).cast<std::string>();
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) {
      throw py::type_error(what + ": unknown field '" + key + "' (BlockBloomFilterPB has "
                           "log_space_bytes, bloom_data, always_false, hash_algorithm, hash_seed)");
    }
  }
  for (const char* required : {"log_space_bytes", "bloom_data"}) {
    if (!d.contains(required)) throw py::type_error(what + ": the field '" + std::string(required) + "' is missing");
  }
  bb_kudu_directory dir{};
  dir.log_space_bytes = Int32Field(d["log_space_bytes"], what + ": log_space_bytes");
  Buffer data;
  AcquireForView(data, d["bloom_data"], false, what + ": bloom_data");
  dir.bloom_data = static_cast<const uint8_t*>(data.data());
  dir.bloom_data_size = data.bytes();
  dir.always_false = d.contains("always_false") && py::bool_(d["always_false"]) ? 1 : 0;
  dir.hash_algorithm = BB_KUDU_HASH_FAST_HASH;
  if (d.contains("hash_algorithm")) {
    py::object algorithm = d["hash_algorithm"];
    if (py::isinstance<py::str>(algorithm)) {
      // Protobuf's text and JSON forms name the enum value.
      if (algorithm.cast<std::string>() != "FAST_HASH") ThrowStatus(BB_ERR_UNSUPPORTED_HASH, what);
    } else {
      dir.hash_algorithm = Int32Field(algorithm, what + ": hash_algorithm");
    }
  }
  dir.hash_seed = d.contains("hash_seed")
                      ? static_cast<uint32_t>(ToUnsigned(d["hash_seed"], UINT32_MAX, what + ": hash_seed"))
                      : 0;
  auto filter = std::make_unique<Filter>();
  Check(bb_kudu_import(&filter->f_, &dir), what);
  return filter;
}

bool Filter::always_false() const {
  return (__atomic_load_n(&f_.flags, __ATOMIC_RELAXED) & BB_FILTER_ALWAYS_FALSE) != 0;
}

std::string Filter::Repr() const {
  std::string s = std::string("<blockbloom.Filter ") + (kudu() ? "kudu" : "parquet") + ", " +
                  std::to_string(f_.num_bytes) + " bytes (" + std::to_string(f_.num_blocks) + " blocks)";
  if (kudu()) s += ", seed " + std::to_string(f_.hash_seed) + (always_false() ? ", always false" : "");
  if (is_view()) s += (f_.flags & BB_FILTER_READ_ONLY) != 0 ? ", read-only view" : ", view";
  return s + ">";
}

void Filter::Insert(py::handle hashes) {
  kudu() ? InsertT<uint32_t>(hashes) : InsertT<uint64_t>(hashes);
  if (!type_.set) raw_hashes_ = true;
}

template <class T>
void Filter::InsertT(py::handle hashes) {
  if (PyLong_Check(hashes.ptr())) {
    const T h = static_cast<T>(ToUnsigned(hashes, std::numeric_limits<T>::max(), "insert()"));
    int status;
    {
      BriefWriteLock lock(mutex_);
      status = HashOps<T>::insert(&f_, h);
    }
    Check(status, "insert()");
    return;
  }
  const HashInput<T> in(hashes, "insert()");
  int status;
  {
    WriteLock lock(mutex_);
    status = HashOps<T>::insert_batch(&f_, in.data(), in.size());
  }
  Check(status, "insert()");
}

py::object Filter::Find(py::handle hashes, py::handle out) {
  return kudu() ? FindT<uint32_t>(hashes, out) : FindT<uint64_t>(hashes, out);
}

template <class T>
py::object Filter::FindT(py::handle hashes, py::handle out) {
  if (PyLong_Check(hashes.ptr())) {
    if (!out.is_none()) throw py::type_error("find(): out is for arrays of hashes");
    return py::bool_(Contains(hashes));
  }
  const HashInput<T> in(hashes, "find()");
  BoolOutput answers(out, in.size(), in.shape(), "find()");
  int status;
  {
    ReadLock lock(mutex_);
    status = ProbeToBools(in.size(), answers.data(), [&](size_t first, size_t count, uint8_t* bitmap) {
      return HashOps<T>::find_batch_bitmap(&f_, in.data() + first, count, bitmap, nullptr);
    });
  }
  Check(status, "find()");
  return answers.result();
}

py::array Filter::FindBitmap(py::handle hashes) {
  return kudu() ? FindBitmapT<uint32_t>(hashes) : FindBitmapT<uint64_t>(hashes);
}

template <class T>
py::array Filter::FindBitmapT(py::handle hashes) {
  const HashInput<T> in(hashes, "find_bitmap()");
  py::array_t<uint8_t> bitmap(static_cast<py::ssize_t>((in.size() + 7) / 8));
  uint8_t* dst = bitmap.mutable_data();
  int status;
  {
    ReadLock lock(mutex_);
    status = HashOps<T>::find_batch_bitmap(&f_, in.data(), in.size(), dst, nullptr);
  }
  Check(status, "find_bitmap()");
  return std::move(bitmap);
}

py::array Filter::FindIndices(py::handle hashes) {
  return kudu() ? FindIndicesT<uint32_t>(hashes) : FindIndicesT<uint64_t>(hashes);
}

template <class T>
py::array Filter::FindIndicesT(py::handle hashes) {
  const HashInput<T> in(hashes, "find_indices()");
  // The library refuses this too, but only after the caller has allocated
  // n indices: 16 GiB and more here.
  if (in.size() > std::numeric_limits<uint32_t>::max()) ThrowStatus(BB_ERR_BATCH_TOO_LARGE, "find_indices()");
  py::array_t<uint32_t> selection(static_cast<py::ssize_t>(in.size()));
  uint32_t* dst = selection.mutable_data();
  size_t hits = 0;
  int status;
  {
    ReadLock lock(mutex_);
    status = HashOps<T>::find_batch_select(&f_, in.data(), in.size(), dst, &hits);
  }
  Check(status, "find_indices()");
  selection.resize({static_cast<py::ssize_t>(hits)}, false);
  return std::move(selection);
}

bool Filter::Contains(py::handle hash) {
  if (!PyLong_Check(hash.ptr())) {
    // numpy arrays have __index__ too (for one element); a numpy scalar is 0-d.
    Buffer array;
    if (array.Acquire(hash, false) && array.view().ndim != 0) {
      throw py::type_error("`hash in filter` takes one int; for an array of hashes use filter.find(hashes)");
    }
  }
  const uint64_t h = ToUnsigned(hash, kudu() ? std::numeric_limits<uint32_t>::max()
                                             : std::numeric_limits<uint64_t>::max(), "hash in filter");
  int status;
  {
    BriefReadLock lock(mutex_);
    status = kudu() ? bb_kudu_find(&f_, static_cast<uint32_t>(h)) : bb_find(&f_, h);
  }
  return Check(status, "hash in filter") > 0;
}

double Filter::Fpp(py::handle ndv) const {
  double p = 0;
  Check(bb_fpp(ToUnsigned(ndv, std::numeric_limits<uint64_t>::max(), "ndv"), f_.num_bytes, &p), "fpp()");
  return p;
}

void Filter::Combine(Filter& other, int (*op)(bb_filter*, const bb_filter*), const char* what) {
  CheckSameValues(*this, other, what);
  int status;
  {
    PairLock lock(mutex_, true, other.mutex_);
    status = op(&f_, &other.f_);
  }
  if (status == BB_ERR_FILTER_MISMATCH) ThrowMismatch(*this, other, what);
  Check(status, what);
  // An untyped filter takes the other's type (its values were of it, or it was empty).
  if (!type_.set && other.type_.set) type_ = other.type_;
  raw_hashes_ = raw_hashes_ || other.raw_hashes_;
}

// The library's mismatch error with what differs and both values
// (bb_filter_mismatch): union(), intersect(), their operators and the _all
// forms raise the same. A filter's layout, size and seed never change, so
// they are read without its lock (as CombineAll does).
[[noreturn]] void Filter::ThrowMismatch(const Filter& a, const Filter& b, const char* what) {
  char reason[128] = "";
  bb_filter_mismatch(&a.f_, &b.f_, reason, sizeof reason);
  ThrowStatusMessage(BB_ERR_FILTER_MISMATCH, std::string(what) + ": " +
                                                 bb_status_message(BB_ERR_FILTER_MISMATCH) + ": " +
                                                 reason);
}

std::unique_ptr<Filter> Filter::CombineAll(py::handle filters, int (*op)(bb_filter*, const bb_filter*),
                                           const char* what) {
  std::vector<Filter*> all;
  for (py::handle item : py::iter(filters)) {
    if (!py::isinstance<Filter>(item)) {
      throw py::type_error(std::string(what) + ": expected Filter objects, got " +
                           std::string(Py_TYPE(item.ptr())->tp_name));
    }
    all.push_back(&item.cast<Filter&>());
  }
  if (all.empty()) throw py::value_error(std::string(what) + ": no filters (give at least one)");
  // Checked before the copy, so a mismatch costs nothing; the library's
  // error, the one union() raises.
  for (Filter* f : all) {
    if (bb_filter_mismatch(&f->f_, &all[0]->f_, nullptr, 0) != BB_OK) ThrowMismatch(*all[0], *f, what);
    CheckSameValues(*all[0], *f, what);
  }
  std::unique_ptr<Filter> result = all[0]->Copy();
  for (size_t i = 1; i < all.size(); ++i) result->Combine(*all[i], op, what);
  return result;
}

std::unique_ptr<Filter> Filter::UnionAll(py::handle filters) {
  return CombineAll(filters, bb_filter_union, "union_all()");
}

std::unique_ptr<Filter> Filter::IntersectAll(py::handle filters) {
  return CombineAll(filters, bb_filter_intersect, "intersect_all()");
}

// The library's clear, copy and equality: a cleared Kudu filter is
// always-false again, a copy keeps the always-false state, and two
// always-false Kudu filters are equal whatever their (unread) bits.
void Filter::Clear() {
  int status;
  {
    WriteLock lock(mutex_);
    status = bb_filter_clear(&f_);
  }
  Check(status, "clear()");
}

std::unique_ptr<Filter> Filter::Copy() const {
  auto copy = std::make_unique<Filter>();
  int status;
  {
    ReadLock lock(mutex_);
    status = bb_filter_copy(&copy->f_, &f_);
  }
  Check(status, "copy()");
  copy->type_ = type_;
  copy->raw_hashes_ = raw_hashes_;
  return copy;
}

bool Filter::Equals(const Filter& other) const {
  if (&other == this) return true;
  int equal;
  {
    PairLock lock(mutex_, false, other.mutex_);
    equal = bb_filter_equal(&f_, &other.f_);
  }
  return Check(equal, "==") == 1;
}

py::bytes Filter::ToParquetBytes(bool any_size) const {
  const std::string what = "to_parquet_bytes()";
  if (!any_size) Check(bb_parquet_check_size(f_.num_bytes), what);
  return BytesFilledWithoutGil(BB_PARQUET_HEADER_MAX_BYTES + f_.num_bytes, what, [&](char* out) -> long long {
    ReadLock lock(mutex_);
    size_t written = 0;
    const int status = (any_size ? bb_parquet_filter_write_any_size : bb_parquet_filter_write)(
        &f_, reinterpret_cast<uint8_t*>(out), BB_PARQUET_HEADER_MAX_BYTES + f_.num_bytes, &written);
    return status < 0 ? status : static_cast<long long>(written);
  });
}

py::bytes Filter::ToFileBytes() const {
  const std::string what = "to_file_bytes()";
  if (!type_.set && !raw_hashes_) {
    throw py::value_error(what + ": the filter has no value type yet (no type= and no values "
                          "inserted), so its file could not say how to probe it: give it a "
                          "type (Filter(..., type=...)) or insert values or hashes first");
  }
  size_t n = 0;
  Check(bb_filter_file_size(&f_, &n), what);
  const bb_parquet_column* type = type_.set ? &type_.column : nullptr;
  return BytesFilledWithoutGil(n, what, [&](char* out) -> long long {
    ReadLock lock(mutex_);
    size_t written = 0;
    const int status = bb_filter_file_write(&f_, type, nullptr, reinterpret_cast<uint8_t*>(out), n,
                                            &written);
    return status < 0 ? status : static_cast<long long>(written);
  });
}

py::dict Filter::ToKuduFields() const {
  bb_kudu_directory dir{};
  Check(bb_kudu_export(&f_, &dir), "to_kudu_fields()");
  py::dict fields;
  fields["log_space_bytes"] = dir.log_space_bytes;
  fields["bloom_data"] = BytesFilledWithoutGil(dir.bloom_data_size, "to_kudu_fields()", [&](char* out) {
    ReadLock lock(mutex_);
    std::memcpy(out, dir.bloom_data, dir.bloom_data_size);
    return static_cast<long long>(dir.bloom_data_size);
  });
  fields["always_false"] = py::bool_(always_false());
  fields["hash_algorithm"] = dir.hash_algorithm;
  fields["hash_seed"] = dir.hash_seed;
  return fields;
}

py::buffer_info Filter::BufferInfo() const {
  return py::buffer_info(f_.data, 1, "B", 1, {static_cast<py::ssize_t>(f_.num_bytes)}, {py::ssize_t{1}},
                         (f_.flags & BB_FILTER_READ_ONLY) != 0);
}

py::tuple Filter::GetState() const {
  py::bytes bits = BytesFilledWithoutGil(f_.num_bytes, "pickle", [&](char* out) {
    ReadLock lock(mutex_);
    std::memcpy(out, f_.data, f_.num_bytes);
    return static_cast<long long>(f_.num_bytes);
  });
  return State(bits);
}

py::tuple Filter::State(py::object bits) const {
  return py::make_tuple(kudu() ? "kudu" : "parquet", f_.hash_seed, always_false(), std::move(bits),
                        ColumnTypeState(type_), raw_hashes_);
}

ColumnType ParseColumnType(py::handle name, const std::string& what) {
  ColumnType t;
  if (name.is_none()) return t;
  if (!py::isinstance<py::str>(name)) {
    throw py::type_error(what + ": expected a type name (str) or None, got " +
                         std::string(Py_TYPE(name.ptr())->tp_name));
  }
  const std::string text = name.cast<std::string>();
  t.column.struct_size = sizeof t.column;
  const int status = bb_parquet_type_parse(text.data(), text.size(), &t.column);
  if (status == BB_ERR_UNKNOWN_TYPE_NAME) {
    throw py::value_error(what + ": " + ShortRepr(name) + " is not a type name (int8 .. int64, uint8 .. uint64, float, "
                          "double, string, binary, fixed(n), uuid, date, time(ms|us|ns[,utc]), "
                          "timestamp(ms|us|ns[,utc]), decimal(p,s), ...)");
  }
  Check(status, what);
  t.set = true;
  t.name = text;
  return t;
}

int ColumnTypeName(const bb_parquet_column& column, std::string* name) {
  char physical[BB_PARQUET_TYPE_NAME_MAX] = "";
  char logical[BB_PARQUET_TYPE_NAME_MAX] = "";
  int status = bb_parquet_physical_type_name(&column, physical, sizeof physical);
  if (status == BB_OK) status = bb_parquet_logical_type_name(&column, logical, sizeof logical);
  if (status != BB_OK) return status;
  *name = physical;
  if (logical[0] != '\0') *name += std::string(" ") + logical;
  return BB_OK;
}

ColumnType ColumnTypeOf(const bb_parquet_column& column) {
  ColumnType t;
  t.set = true;
  t.column = column;
  t.column.path = nullptr;
  t.column.path_len = 0;
  Check(ColumnTypeName(t.column, &t.name));
  return t;
}

const char* const kColumnTypeFieldNames[kColumnTypeFields] = {
    "physical_type", "type_length", "logical_type", "converted_type", "bit_width",
    "is_signed", "time_unit", "is_adjusted_to_utc", "scale", "precision"};

int32_t& ColumnTypeField(bb_parquet_column& c, size_t i) {
  int32_t* fields[kColumnTypeFields] = {&c.physical_type, &c.type_length, &c.logical_type, &c.converted_type,
                                        &c.bit_width, &c.is_signed, &c.time_unit, &c.is_adjusted_to_utc,
                                        &c.scale, &c.precision};
  return *fields[i];
}

ColumnType ColumnTypeFromInfo(const py::dict& info) {
  bb_parquet_column c{};
  c.struct_size = sizeof c;
  for (size_t i = 0; i < kColumnTypeFields; ++i) {
    ColumnTypeField(c, i) = info[kColumnTypeFieldNames[i]].cast<int32_t>();
  }
  return ColumnTypeOf(c);
}

namespace {
std::vector<int32_t> Fields(bb_parquet_column c) {
  std::vector<int32_t> fields;
  for (size_t i = 0; i < kColumnTypeFields; ++i) fields.push_back(ColumnTypeField(c, i));
  return fields;
}
}  // namespace

bool SameColumnType(const ColumnType& a, const ColumnType& b) {
  return a.set == b.set && (!a.set || Fields(a.column) == Fields(b.column));
}

py::object ColumnTypeState(const ColumnType& t) {
  if (!t.set) return py::none();
  py::list state;
  state.append(t.name);
  for (int32_t v : Fields(t.column)) state.append(v);
  return py::tuple(state);
}

}  // namespace bbpy
