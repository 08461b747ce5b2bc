// SPDX-License-Identifier: Apache-2.0
#include "parquet_file.h"

#include <blockbloom/parquet_file.h>
#include <blockbloom/sizing.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "errors.h"
#include "filter.h"
#include "locks.h"

namespace py = pybind11;

namespace bbpy {
namespace {

// Text that may quote the file's bytes (a message naming a chunk's
// file_path) as a str: bytes that are not UTF-8 by surrogateescape, as the
// names are (blockbloom/parquet.py) and as the tool's JSON writes them.
py::str FileText(const char* text) {
  PyObject* s = PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(std::strlen(text)),
                                     "surrogateescape");
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

// One open bb_parquet_file. The handle is never modified after opening, so
// its calls need no lock (parquet_file.h: concurrent calls are safe).
class ParquetFile {
 public:
  // max_container_elements, max_memory_bytes: bb_parquet_limits (0: the
  // default; blockbloom/parquet.py checks them).
  ParquetFile(const py::bytes& path, uint64_t max_container_elements, uint64_t max_memory_bytes) {
    const std::string p = path;
    // Every path of the package (str, bytes, os.PathLike) comes here: one NUL would end it early.
    if (p.find('\0') != std::string::npos) throw py::value_error("embedded null byte");
    bb_parquet_limits limits{};
    limits.struct_size = sizeof limits;
    limits.max_container_elements = max_container_elements;
    limits.max_memory_bytes = max_memory_bytes;
    char why[512];
    why[0] = '\0';
    int status;
    {
      py::gil_scoped_release release;
      status = bb_parquet_file_open_path_limits(&file_, p.c_str(), &limits, why, sizeof why);
    }
    // The library's reason names the file and what is wrong with it.
    if (status != BB_OK) ThrowStatusMessage(status, why[0] != '\0' ? why : bb_status_message(status));
  }
  ParquetFile(const ParquetFile&) = delete;
  ParquetFile& operator=(const ParquetFile&) = delete;
  ~ParquetFile() { bb_parquet_file_close(file_); }

  size_t NumRowGroups() const {
    size_t n = 0;
    Check(bb_parquet_file_num_row_groups(file_, &n));
    return n;
  }
  size_t NumColumns() const {
    size_t n = 0;
    Check(bb_parquet_file_num_columns(file_, &n));
    return n;
  }

  // The column index of the dotted path (bytes), or None.
  py::object FindColumn(const py::bytes& path) const {
    const std::string p = path;
    size_t c = 0;
    const int status = bb_parquet_file_find_column(file_, p.data(), p.size(), &c);
    if (status == BB_ERR_PARQUET_NO_SUCH_CHUNK) return py::none();
    Check(status);
    return py::int_(c);
  }

  // bb_parquet_file_lookup_column: (column index or None, status, the
  // library's message as bytes: the closest columns, or the candidates).
  py::tuple LookupColumn(const py::bytes& path) const {
    const std::string p = path;
    size_t c = 0;
    char why[1024];
    why[0] = '\0';
    const int status = bb_parquet_file_lookup_column(file_, p.data(), p.size(), &c, why, sizeof why);
    if (status == BB_OK) return py::make_tuple(py::int_(c), status, py::bytes());
    if (status != BB_ERR_PARQUET_NO_SUCH_CHUNK && status != BB_ERR_PARQUET_AMBIGUOUS_COLUMN) {
      Check(status);
    }
    return py::make_tuple(py::none(), status, py::bytes(why));
  }

  // The column whose path is exactly these names (a list of bytes), or None.
  py::object FindColumnNames(const py::list& list) const {
    std::vector<std::string> names;
    for (const py::handle item : list) names.push_back(py::cast<py::bytes>(item));
    std::vector<const char*> pointers;
    std::vector<size_t> lens;
    for (const std::string& name : names) {
      pointers.push_back(name.data());
      lens.push_back(name.size());
    }
    size_t c = 0;
    const int status =
        bb_parquet_file_find_column_names(file_, pointers.data(), lens.data(), names.size(), &c);
    if (status == BB_ERR_PARQUET_NO_SUCH_CHUNK) return py::none();
    Check(status);
    return py::int_(c);
  }

  // Column c's path as names (a list of bytes).
  py::list ColumnNames(size_t c) const {
    size_t depth = 0;
    Check(bb_parquet_file_column_depth(file_, c, &depth));
    py::list names;
    for (size_t i = 0; i < depth; ++i) {
      const char* name = nullptr;
      size_t len = 0;
      Check(bb_parquet_file_column_name(file_, c, i, &name, &len));
      names.append(py::bytes(name, len));
    }
    return names;
  }

  py::dict Column(size_t c) const {
    bb_parquet_column info{};
    info.struct_size = sizeof info;
    Check(bb_parquet_file_column(file_, c, &info));
    py::dict d;
    d["path"] = py::bytes(info.path, info.path_len);
    d["physical_type"] = info.physical_type;
    d["type_length"] = info.type_length;
    d["logical_type"] = info.logical_type;
    d["converted_type"] = info.converted_type;
    d["bit_width"] = info.bit_width;
    d["is_signed"] = info.is_signed;
    d["time_unit"] = info.time_unit;
    d["is_adjusted_to_utc"] = info.is_adjusted_to_utc;
    d["scale"] = info.scale;
    d["precision"] = info.precision;
    // The names the tool prints (one spelling, the library's); no logical
    // or converted type: None.
    char name[BB_PARQUET_TYPE_NAME_MAX];
    Check(bb_parquet_physical_type_name(&info, name, sizeof name));
    d["physical_type_name"] = py::str(name);
    Check(bb_parquet_logical_type_name(&info, name, sizeof name));
    d["logical_type_name"] = name[0] != '\0' ? py::object(py::str(name)) : py::none();
    return d;
  }

  py::dict Chunk(size_t row_group, size_t c) const {
    bb_parquet_chunk info{};
    info.struct_size = sizeof info;
    Check(bb_parquet_file_chunk(file_, row_group, c, &info));
    py::dict d;
    d["num_values"] = info.num_values;
    d["has_filter"] = info.has_filter != 0;
    d["filter_status"] = info.filter_status;
    d["filter_error"] = info.filter_error != nullptr ? py::object(FileText(info.filter_error)) : py::none();
    d["filter_offset"] = info.filter_offset;
    d["filter_length"] = info.filter_length;
    d["filter_checked"] = info.filter_checked != 0;
    d["bitset_offset"] = info.bitset_offset;
    d["bitset_bytes"] = info.bitset_bytes;
    return d;
  }

  // The chunk's filter, read (pread) into a new owned Filter without the GIL.
  std::unique_ptr<Filter> LoadFilter(size_t row_group, size_t c) const {
    auto filter = std::make_unique<Filter>();
    int status;
    {
      py::gil_scoped_release release;
      status = bb_parquet_file_load_filter(file_, row_group, c, &filter->raw());
    }
    Check(status);
    return filter;
  }

 private:
  bb_parquet_file* file_ = nullptr;
};

uint64_t ParquetHashValue(int32_t physical_type, int32_t type_length, const py::bytes& value) {
  const std::string v = value;
  uint64_t h = 0;
  Check(bb_parquet_hash_value(physical_type, type_length, v.data(), v.size(), &h));
  return h;
}

// bb_filter_estimate_ndv: (fraction of bits set, the NDV it implies or None
// when every bit is set).
py::tuple FilterDensity(const Filter& f) {
  uint64_t bits_set = 0;
  double ndv = 0;
  int status;
  {
    ReadLock lock(f.mutex());
    status = bb_filter_estimate_ndv(&f.raw(), &bits_set, &ndv);
  }
  Check(status);
  const double fraction = static_cast<double>(bits_set) / (8.0 * static_cast<double>(f.raw().num_bytes));
  return py::make_tuple(fraction, std::isfinite(ndv) ? py::object(py::float_(ndv)) : py::none());
}

}  // namespace

void RegisterParquetFile(py::module_& m) {
  py::class_<ParquetFile>(m, "_ParquetFile",
                          "For blockbloom.parquet: a Parquet file's footer (bb_parquet_file).")
      .def(py::init<const py::bytes&, uint64_t, uint64_t>(), py::arg("path"),
           py::arg("max_container_elements") = 0, py::arg("max_memory_bytes") = 0)
      .def_property_readonly("num_row_groups", &ParquetFile::NumRowGroups)
      .def_property_readonly("num_columns", &ParquetFile::NumColumns)
      .def("find_column", &ParquetFile::FindColumn, py::arg("path"))
      .def("lookup_column", &ParquetFile::LookupColumn, py::arg("path"))
      .def("find_column_names", &ParquetFile::FindColumnNames, py::arg("names"))
      .def("column_names", &ParquetFile::ColumnNames, py::arg("column"))
      .def("column", &ParquetFile::Column, py::arg("column"))
      .def("chunk", &ParquetFile::Chunk, py::arg("row_group"), py::arg("column"))
      .def("load_filter", &ParquetFile::LoadFilter, py::arg("row_group"), py::arg("column"));
  m.def("_filter_density", &FilterDensity, py::arg("filter"),
        "bb_filter_estimate_ndv: (fraction of bits set, implied NDV or None when all are set).");
  m.def("_parquet_hash_value", &ParquetHashValue, py::arg("physical_type"), py::arg("type_length"),
        py::arg("value"), "bb_parquet_hash_value: the hash of one plain-encoded value of the type.");
  m.attr("_ERR_PARQUET_NO_SUCH_CHUNK") = static_cast<int>(BB_ERR_PARQUET_NO_SUCH_CHUNK);
  m.attr("_ERR_PARQUET_NO_FILTER") = static_cast<int>(BB_ERR_PARQUET_NO_FILTER);
  m.attr("_ERR_PARQUET_UNSUPPORTED") = static_cast<int>(BB_ERR_PARQUET_UNSUPPORTED);
  m.attr("_ERR_PARQUET_AMBIGUOUS_COLUMN") = static_cast<int>(BB_ERR_PARQUET_AMBIGUOUS_COLUMN);
  m.attr("_ERR_PARQUET_LIMIT") = static_cast<int>(BB_ERR_PARQUET_LIMIT);
}

}  // namespace bbpy
