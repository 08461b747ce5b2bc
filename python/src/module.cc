// SPDX-License-Identifier: Apache-2.0
// blockbloom._core: the Python binding of the blockbloom C library. The
// docstrings here are the package's reference documentation (help()).
#include <blockbloom/blockbloom.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "buffers.h"
#include "errors.h"
#include "filter.h"
#include "parquet_file.h"
#include "values.h"

namespace py = pybind11;
using bbpy::Filter;

namespace {

std::vector<std::string> SplitNames(const char* names) {
  std::vector<std::string> out;
  std::string name;
  for (const char* p = names; ; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!name.empty()) out.push_back(name);
      name.clear();
      if (*p == '\0') break;
    } else {
      name += *p;
    }
  }
  return out;
}

// The address a batch method would read hashes from (tests prove it is the
// caller's own memory, not a copy).
uintptr_t HashInputAddress(py::handle hashes, const std::string& layout) {
  if (bbpy::ParseLayout(layout) == BB_LAYOUT_KUDU) {
    return reinterpret_cast<uintptr_t>(bbpy::HashInput<uint32_t>(hashes, "hashes").data());
  }
  return reinterpret_cast<uintptr_t>(bbpy::HashInput<uint64_t>(hashes, "hashes").data());
}

const char* const kModuleDoc = R"(Split block Bloom filters at native speed (Parquet and Kudu layouts).

The binding of the blockbloom C library: the same kernels (one per ISA tier of
isa_names(), picked for the CPU when the library loads), the same bytes.

    import numpy as np, blockbloom
    f = blockbloom.Filter(ndv=1_000_000, fpp=0.01)          # Parquet layout
    f.insert(np.array([...], dtype=np.uint64))             # XXH64 hashes
    f.insert_values(np.arange(1000, dtype=np.int64))       # or values, hashed as Parquet does
    hits = f.find_values(np.array([5, 5000], dtype=np.int64))   # array([ True, False])

Batch methods read numpy arrays (any C-contiguous buffer of the right dtype) in
place and release the GIL while the library runs.)";

const char* const kFilterDoc = R"(A split block Bloom filter: 32-byte blocks, one bit per lane of 8.

Filter(num_bytes=None, *, ndv=None, fpp=None, layout="parquet", seed=None, type=None)

Give exactly one size: num_bytes, or ndv (expected distinct values) and fpp
(target false-positive probability), for which the smallest filter meeting the
target by the exact model is chosen, of the kind `sizing` says. For
layout="parquet": sizing="parquet-safe" (the default, None) a power of two
from 32 B to 128 MiB, the only sizes Arrow's, Velox's and ClickHouse's readers
accept (a target 128 MiB misses raises blockbloom.Error): safe wherever the
filter may end up, a Parquet file included; sizing="exact" any multiple of 32,
up to half the size, for filters that stay in memory or go over the network
(blockbloom.dask uses it) and are never written to Parquet. For layout="kudu"
a power of two of at least 64 bytes, whichever sizing. The size depends on
(ndv, fpp, layout, sizing) only, so filters built apart merge (union_all).

layout="parquet": the Parquet SBBF; hashes are uint64 (XXH64, seed 0, of the
plain encoding); num_bytes any multiple of 32.
layout="kudu": the Kudu / Impala runtime filter; hashes are uint32 (FastHash32
with `seed`, default 0); num_bytes a power of two >= 64; a new filter is
always-false until the first insert.

type: the Parquet type of the values (a name bb_parquet_type_parse knows:
'int32', 'uint8', 'date', 'decimal(9,2)', 'timestamp(us,utc)', 'uuid', ...),
kept as Filter.type and by copy, pickle and union. Without it, a Parquet
filter takes its type from the first insert_values (an int32 Series: INT32;
ints: INT64; datetime64[ns]: TIMESTAMP(NANOS); str: STRING; ...). Every
insert_values / find_values then converts its values into that type by the
library's one table (docs/formats.md, "Values into a typed filter"): exactly
when the value has one meaning in the type, absent (False) when it cannot be
of it, refused (TypeError, blockbloom.Error) when ambiguous or of another kind.
A filter given raw hashes (insert()) and no type refuses values.

The filter exports its bitset through the buffer protocol: memoryview(f) and
numpy.frombuffer(f, numpy.uint8) are the filter's own bytes, not a copy
(read-only for read-only views).

Threads: batch methods run without the GIL. Any number of finds run at once;
writes (insert, insert_values, clear, union/intersect into the filter) are
serialised by a lock of the filter's own, so concurrent inserts never lose bits.
Two Filter objects viewing the same memory (from_bytes) do not share that lock.)";

// Filter(...) and the from_* constructors.
void BindFilterConstructors(py::class_<Filter>& filter_class) {
  filter_class
      .def(py::init(&Filter::Create), py::arg("num_bytes") = py::none(), py::kw_only(),
           py::arg("ndv") = py::none(), py::arg("fpp") = py::none(), py::arg("layout") = "parquet",
           py::arg("seed") = py::none(), py::arg("type") = py::none(), py::arg("sizing") = py::none())
      .def_static("from_bytes", [](py::handle buf, const std::string& layout, bool copy, py::object seed,
                                   bool always_false, py::handle type) {
                    auto f = Filter::FromBytes(buf, layout, copy, seed, always_false);
                    f->TypeBitsFromElsewhere(type, "from_bytes()");
                    return f;
                  }, py::arg("buf"), py::kw_only(),
                  py::arg("layout") = "parquet", py::arg("copy") = false, py::arg("seed") = py::none(),
                  py::arg("always_false") = false, py::arg("type") = py::none(),
                  R"(A filter over the raw bitset in buf (bytes, bytearray, memoryview, mmap, numpy array).

copy=False (the default) probes the bytes where they lie, at any alignment, and
keeps buf exported for the filter's lifetime; the filter is writable exactly when
buf is (pass memoryview(buf).toreadonly() to forbid inserts). copy=True makes an
owned, 64-byte-aligned copy. Kudu: seed is the FastHash seed of the values and
always_false the BlockBloomFilterPB flag. Sizes are checked as for Filter().
type: the values' type (as Filter(type=...)); the bytes do not record it, so
without type= the filter holds raw hashes (insert() / find(); insert_values and
find_values raise TypeError asking for type=).)")
      .def_static("from_parquet_bytes", [](py::handle buf, bool copy, py::handle type) {
                    auto f = Filter::FromParquetBytes(buf, copy);
                    f->TypeBitsFromElsewhere(type, "from_parquet_bytes()");
                    return f;
                  }, py::arg("buf"), py::kw_only(), py::arg("copy") = true, py::arg("type") = py::none(),
                  R"(A Parquet filter from a Thrift BloomFilterHeader followed by its bitset.

buf starts at the header (a Parquet file's bloom_filter_offset); bytes after the
bitset are ignored. Any size the header can announce is read. copy=True (the
default) makes an owned copy; copy=False views the bitset inside buf, as from_bytes.
type: the values' type (as Filter(type=...)); the bytes do not record it, so
without type= the filter holds raw hashes (insert_values / find_values raise
TypeError asking for type=).)")
      .def_static("from_file_bytes", &Filter::FromFileBytes, py::arg("buf"),
                  R"(A filter from a blockbloom filter file's bytes (to_file_bytes(), save(), the tool's build).

The file says the layout, size, Kudu seed and always-false state, and the values' type
(or that they are raw hashes): the filter comes back with all of them, its type in
Filter.type. Every field is checked (docs/formats.md, "Filter files"): a damaged or
lying file raises blockbloom.Error with its own code (BB_ERR_FILTER_FILE_*). The
bytes are copied.)")
      .def_static("from_kudu_fields", [](py::handle fields, py::handle type) {
                    auto f = Filter::FromKuduFields(fields);
                    f->TypeBitsFromElsewhere(type, "from_kudu_fields()");
                    return f;
                  }, py::arg("fields"), py::kw_only(), py::arg("type") = py::none(),
                  R"(A Kudu filter from Kudu's BlockBloomFilterPB fields, as to_kudu_fields() returns them.

fields maps log_space_bytes and bloom_data (required), always_false (default
False), hash_algorithm (3 or "FAST_HASH", the default) and hash_seed (default 0).
The bytes are copied. A size other than 2**log_space_bytes, an out-of-range
log_space_bytes or another hash raises blockbloom.Error. type: the values' type;
without it the filter holds raw hashes (insert_values / find_values raise TypeError).)");
}

// Inserts and probes of hashes, and the false-positive model.
void BindFilterHashProbes(py::class_<Filter>& filter_class) {
  filter_class
      .def("insert", &Filter::Insert, py::arg("hashes"),
           R"(Inserts hashes: one int, or a C-contiguous array of uint64 (Parquet) / uint32 (Kudu).

Arrays (any buffer of that dtype, any shape) are read in place, without the
GIL; a list or tuple of ints is converted first. A wrong dtype is a TypeError,
a strided array a ValueError (no silent copy), an insert into a read-only view
blockbloom.Error.)")
      .def("find", &Filter::Find, py::arg("hashes"), py::arg("out") = py::none(),
           R"(Tests hashes: a numpy bool array of the input's shape, True where a hash may be present.

Takes what insert takes; one int gives one bool. out, a C-contiguous bool array
of as many elements, receives the answers instead of a new array (and is
returned). Runs without the GIL; no false negatives, false positives at the
filter's fpp().)")
      .def("find_bitmap", &Filter::FindBitmap, py::arg("hashes"),
           R"(Tests hashes, one bit each: a uint8 array of (n + 7) // 8 bytes, LSB first.

Bit i (byte i // 8, bit i % 8) is 1 where hashes[i] may be present, as Arrow's
validity bitmaps: pyarrow.BooleanArray.from_buffers(pyarrow.bool_(), n,
[None, pyarrow.py_buffer(bits)]) wraps it without a copy.)")
      .def("find_indices", &Filter::FindIndices, py::arg("hashes"),
           R"(Tests hashes: the indices (uint32, ascending) of those that may be present.

Indices are into the flattened input. A batch of 2**32 hashes or more raises
blockbloom.Error (the C API's selection vectors hold uint32 indices); split it.)")
      .def("__contains__", &Filter::Contains, py::arg("hash"),
           "`hash in filter`: True if the hash (an int) may be present.")
      .def("fpp", &Filter::Fpp, py::arg("ndv"),
           "The expected false-positive probability once ndv distinct values are in (the exact model).");
}

// Inserts and probes of values, converted into the filter's type.
void BindFilterValueProbes(py::class_<Filter>& filter_class) {
  filter_class
      .def("insert_values", &bbpy::InsertValues, py::arg("values"), py::arg("type") = py::none(),
           py::arg("mask") = py::none(), py::kw_only(), py::arg("physical") = false,
           R"(Inserts values: each converted into the filter's type, then hashed as Parquet does.

A Parquet filter knows its values' type (Filter.type): given as Filter(type=...),
a file column's (blockbloom.parquet.load_filter), or taken by the first
insert_values from what the values are (an int32 array or Series: INT32; int64
or a list of ints: INT64; float64 or floats: DOUBLE; datetime64[ns]:
TIMESTAMP(NANOS); datetime64[D] or datetime.date: DATE; str: STRING; bytes:
BYTE_ARRAY; tz-aware: adjusted to UTC; Decimal and bool say no type: give one).
Every later call converts its values into that type by the library's one table
(docs/formats.md, "Values into a typed filter"), whatever the container:
- converted exactly when the value has one meaning in the type (an int64 that
  fits INT32, 1.0 on an integer type, datetime64[us] on TIMESTAMP(NANOS),
  "2024-01-31" text on DATE);
- absent when it cannot be of the type (out of range, not integral on an
  integer type, finer than the unit, more digits than the scale): find_values
  answers False, insert_values raises blockbloom.Error naming it and inserts
  nothing of the call (give the filter a wider type=);
- refused when ambiguous or of another kind (a tz-aware timestamp on a local
  TIMESTAMP, an int on a DATE, bytes on an integer type, a bool): TypeError for
  a kind the type cannot hold, blockbloom.Error (a ValueError) for the rest,
  naming the item (its index in a list), its kind and the filter's type.

values: a numpy array of any integer or float width, datetime64 of any unit
(read in place, converted by the library without per-element Python work); a
numpy.ma array (masked = null); a pandas Series or Index (plain, nullable Int* /
Float* / string, datetime64 with or without tz); an Arrow array
(__arrow_c_array__: integers, floats, date32/64, time32/64, timestamps in any
unit with or without a zone, decimal128/256, strings, binary; dictionaries by
blockbloom/arrow.hpp); a list of Python objects (int, float, decimal.Decimal,
str, bytes, datetime.date / datetime / time, uuid.UUID, numpy scalars, None =
null), one item at a time (a generator or a set too); or one such value.
timedelta64 and booleans are refused (no Parquet value is a duration; Parquet
has no BOOLEAN hash). values is one column: a DataFrame (of any number of
columns), a dict and an array of more than one column (2-D with more than one
column, or more dimensions) are a TypeError naming what to pass (df['key'],
list(d), numpy.ascontiguousarray(x[:, 0])); an n x 1 array is one column.

type: a name bb_parquet_type_parse knows ('int32', 'date', 'decimal(9,2)',
'timestamp(us,utc)', ...): the type the values are of. On a typed filter it
must be the filter's; on an untyped one it becomes the filter's type.
physical=True: ints are the stored physical value (a DATE's days, a DECIMAL's
unscaled integer, a TIMESTAMP's count), as the CLI's --physical.

A filter that had raw hashes inserted (insert()) and no type refuses values:
give it a type. Kudu filters hash each value's cell as held (FastHash32 of the
little-endian bytes with the filter's seed; no unsigned types).

Nulls are not inserted: mask is a bool array (or sequence) of len(values),
True = null (numpy.ma's convention); None, pd.NA and NaT are nulls.)")
      .def("find_values", &bbpy::FindValues, py::arg("values"), py::arg("type") = py::none(),
           py::arg("mask") = py::none(), py::kw_only(), py::arg("physical") = false,
           R"(Tests values, converted as insert_values converts them: a numpy bool array.

False for nulls and for values that cannot be of the filter's type. An untyped
filter (nothing inserted by value yet) converts into the type the values would
give it, without recording it. One value gives one bool; an array its shape.
values as for insert_values, but a set is a TypeError: the answers follow the
values' order, which a set does not have.)");
}

// Union, intersection, clearing and copies (and their operators).
void BindFilterCombines(py::class_<Filter>& filter_class) {
  filter_class
      .def("union", &Filter::Union, py::arg("other"),
           R"(Makes this filter the bitwise OR of itself and other, in place (returns None).

Both must have the same layout and size (else blockbloom.Error). Kudu: an
always-false other changes nothing. `a | b` returns a new filter instead.)")
      .def("intersect", &Filter::Intersect, py::arg("other"),
           R"(Makes this filter the bitwise AND of itself and other, in place (returns None).

Both must have the same layout and size. Kudu: an always-false other makes
this one always-false. `a & b` returns a new filter instead.)")
      .def("clear", &Filter::Clear, "Zeroes every bit (a Kudu filter is always-false again). Read-only views refuse.")
      .def("copy", &Filter::Copy, "An owned, writable copy (of a view too): same layout, size, seed and bytes.")
      .def("__copy__", &Filter::Copy)
      .def("__deepcopy__", [](const Filter& f, py::handle) { return f.Copy(); }, py::arg("memo"))
      .def("__or__", [](const Filter& a, Filter& b) { auto c = a.Copy(); c->Union(b); return c; }, py::is_operator())
      .def("__and__", [](const Filter& a, Filter& b) { auto c = a.Copy(); c->Intersect(b); return c; }, py::is_operator())
      .def("__ior__", [](py::object a, Filter& b) { a.cast<Filter&>().Union(b); return a; }, py::is_operator())
      .def("__iand__", [](py::object a, Filter& b) { a.cast<Filter&>().Intersect(b); return a; }, py::is_operator());
}

// The filter as bytes: Parquet's, a filter file's, Kudu's fields.
void BindFilterSerialisers(py::class_<Filter>& filter_class) {
  filter_class
      .def("to_parquet_bytes", &Filter::ToParquetBytes, py::kw_only(), py::arg("any_size") = false,
           R"(The filter as a Parquet file stores it: a Thrift BloomFilterHeader, then the bitset.

Only the sizes every Parquet reader accepts (a power of two from 32 B to 128 MiB)
are written unless any_size=True (readers such as DuckDB read any multiple of 32).)")
      .def("to_file_bytes", &Filter::ToFileBytes,
           R"(The filter as a blockbloom filter file: layout, size, seed, value type and bits, checksummed.

What `blockbloom build` writes and `blockbloom probe` reads, and what from_file_bytes()
and load() take back with the type, so the values are probed as they were inserted.
A filter with no type yet (nothing inserted, no type=) raises ValueError: its file could
not say how to probe it. A filter of raw hashes (insert()) is written as raw hashes.)")
      .def("to_kudu_fields", &Filter::ToKuduFields,
           R"(Kudu's BlockBloomFilterPB fields as a dict: log_space_bytes, bloom_data (bytes),
always_false, hash_algorithm (3, FAST_HASH) and hash_seed.)");
}

// What the filter is: equality, size, repr, type, layout, flags, its buffer.
void BindFilterDescription(py::class_<Filter>& filter_class) {
  filter_class
      .def("__eq__", [](const Filter& a, py::object b) -> py::object {
             if (!py::isinstance<Filter>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(a.Equals(b.cast<const Filter&>()));
           }, py::is_operator(),
           "Equal when layout, size, bytes and (Kudu) seed and always-false state are equal.")
      .def("__len__", [](const Filter& f) { return f.raw().num_bytes; }, "The size in bytes.")
      .def("__repr__", &Filter::Repr)
      .def_property_readonly("type", [](const Filter& f) -> py::object {
            return f.value_type().set ? py::object(py::str(f.value_type().name)) : py::none();
          }, R"(The values' Parquet type: None, the name given to Filter(type=...), or a file
column's type ("INT32 DATE", as blockbloom.parquet.list spells it) for a filter from
blockbloom.parquet.load_filter, or the type the first insert_values took from its
values (INT64 for ints, INT32 INTEGER(32,true) for an int32 array, ...).
insert_values / find_values convert every value into that type.)")
      .def("_set_column_type", [](Filter& f, const py::dict& info) { f.set_value_type(bbpy::ColumnTypeFromInfo(info)); },
           py::arg("column"), "For blockbloom.parquet: the type of the file's column (its dict) the filter came from.")
      .def_property_readonly("layout", [](const Filter& f) { return f.kudu() ? "kudu" : "parquet"; },
                             "'parquet' or 'kudu'.")
      .def_property_readonly("num_bytes", [](const Filter& f) { return f.raw().num_bytes; }, "The size in bytes.")
      .def_property_readonly("num_blocks", [](const Filter& f) { return f.raw().num_blocks; },
                             "The number of 32-byte blocks.")
      .def_property_readonly("seed", [](const Filter& f) { return f.raw().hash_seed; },
                             "Kudu: the FastHash seed values are hashed with (0 for Parquet filters).")
      .def_property_readonly("always_false", &Filter::always_false,
                             "Kudu: True until the first insert (finds answer False without reading). "
                             "Always False for Parquet filters.")
      .def_property_readonly("read_only", [](const Filter& f) { return (f.raw().flags & BB_FILTER_READ_ONLY) != 0; },
                             "True for a view over read-only memory: inserts are refused.")
      .def_property_readonly("is_view", &Filter::is_view,
                             "True when the bitset is another object's memory (from_bytes(copy=False)).")
      .def_buffer(&Filter::BufferInfo);
}

// blockbloom.Filter.
void RegisterFilter(py::module_& m) {
  py::class_<Filter> filter_class(m, "Filter", py::buffer_protocol(), kFilterDoc);
  bbpy::BindShipping(filter_class);
  bbpy::GuardBufferExport(filter_class);
  BindFilterConstructors(filter_class);
  BindFilterHashProbes(filter_class);
  BindFilterValueProbes(filter_class);
  BindFilterCombines(filter_class);
  BindFilterSerialisers(filter_class);
  BindFilterDescription(filter_class);
}

// The ISA tiers: which there are, which runs, switching.
void RegisterIsaFunctions(py::module_& m) {
  m.def("isa_names", [] {
          std::vector<std::string> names;
          for (size_t i = 0; i < bb_isa_count(); ++i) names.emplace_back(bb_isa_name(i));
          return names;
        },
        "Every ISA tier the library knows (its registry), best first, 'scalar' last, "
        "whether or not this build has it or this CPU runs it.");
  m.def("selected_isa", [] { return std::string(bb_selected_isa()); },
        "The ISA tier whose kernels run now: one of isa_names().");
  m.def("supported_isas", [] { return SplitNames(bb_supported_isas()); },
        "The tiers this build has and this CPU runs, best first.");
  m.def("compiled_isas", [] { return SplitNames(bb_compiled_isas()); },
        "The tiers compiled into this build, best first.");
  m.def("select_isa", [](const std::string& name) { bbpy::Check(bb_select_isa(name.c_str()), "select_isa(" + bbpy::ShortRepr(py::str(name)) + ")"); },
        py::arg("name"),
        R"(Switches every filter, process-wide, to the kernels of one tier (not for hot paths).

Every tier gives identical results. An unknown name, or a tier this build or CPU
cannot run, raises blockbloom.Error and leaves the selection as it was. The
BLOCKBLOOM_ISA environment variable forces a tier when the library loads.)");
}

// The hashes of values, Parquet's and Kudu's.
void RegisterHashFunctions(py::module_& m) {
  m.def("parquet_hash", &bbpy::ParquetHash, py::arg("values"), py::arg("type") = py::none(), py::kw_only(),
        py::arg("physical") = false,
        R"(Parquet hashes: XXH64, seed 0, of each value's plain encoding in a type.

The values are converted into type as Filter.insert_values converts them (type
None: the type their kind gives, as the first insert into an untyped filter
takes it: ints INT64, floats DOUBLE, str STRING, bytes BYTE_ARRAY, an int32
array INT32, ...). One value gives an int < 2**64, or None when it cannot be of
the type; an array, Series, Index, masked array, Arrow array or sequence a numpy
uint64 array of the hashes of its values that are non-null and of the type, in
order. bytes-like values are hashed as they are, so parquet_hash(b) is the
XXH64 of any bytes b. physical=True as for insert_values.)");
  m.def("kudu_hash", &bbpy::KuduHash, py::arg("values"), py::arg("seed") = 0, py::arg("type") = py::none(),
        R"(Kudu hashes: FastHash32 of each value's little-endian bytes with seed.

One value gives an int < 2**32; an array or sequence a numpy uint32 array of
its non-null values' hashes (bb_kudu_hash_column; Kudu has no unsigned types,
so unsigned arrays are refused). type: a type name as for Filter(type=), or
one of the untyped names 'int32', 'int64', 'float', 'double', 'string' (None:
inferred from the value). On 'float' / 'double' a decimal.Decimal is its
nearest value by the type's text rule, and ValueError when out of its range
(Decimal('1E+400') is no double); a bool is a TypeError, never the int 1.)");
  m.def("_column_hashes", &bbpy::ColumnHashes, py::arg("column"), py::arg("values"), py::arg("name"),
        py::arg("physical") = false,
        "For blockbloom.parquet.probe: (uint64 hashes, bool no-match: null or not of the type) of values "
        "converted into the file's column's type (its dict, named `name` in messages).");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = kModuleDoc;
  bbpy::RegisterErrors(m);
  m.attr("__version__") = bb_version();
  RegisterFilter(m);
  RegisterIsaFunctions(m);
  RegisterHashFunctions(m);
  bbpy::RegisterParquetFile(m);
  m.def("_hash_input_address", &HashInputAddress, py::arg("hashes"), py::arg("layout"),
        "For tests: the address a batch method reads `hashes` from.");
}
