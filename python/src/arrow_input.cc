// SPDX-License-Identifier: Apache-2.0
#include "arrow_input.h"

#include <blockbloom/parquet_file.h>

#include "errors.h"

namespace py = pybind11;

namespace bbpy {

bool IsArrowArray(py::handle values) { return py::hasattr(values, "__arrow_c_array__"); }

namespace {

// The pointer of a capsule named `name` (the PyCapsule interface's names).
const void* CapsulePointer(py::handle capsule, const char* name, const std::string& what) {
  if (!PyCapsule_IsValid(capsule.ptr(), name)) {
    throw py::type_error(what + ": __arrow_c_array__() must return (a PyCapsule named 'arrow_schema', "
                         "a PyCapsule named 'arrow_array')");
  }
  return PyCapsule_GetPointer(capsule.ptr(), name);
}

}  // namespace

ArrowInput::ArrowInput(py::handle values, py::handle mask, const std::string& what) {
  if (!mask.is_none()) {
    throw py::type_error(what + ": mask= with an Arrow array; its nulls are the array's validity bitmap");
  }
  capsules_ = values.attr("__arrow_c_array__")();
  if (!py::isinstance<py::tuple>(capsules_) || py::len(capsules_) != 2) {
    throw py::type_error(what + ": __arrow_c_array__() must return a tuple (schema capsule, array capsule)");
  }
  const py::tuple pair = capsules_.cast<py::tuple>();
  schema_ = static_cast<const ArrowSchema*>(CapsulePointer(pair[0], "arrow_schema", what));
  array_ = static_cast<const ArrowArray*>(CapsulePointer(pair[1], "arrow_array", what));
}

int ArrowInput::CheckStatus(std::uint32_t layout, std::string* why) const {
  return blockbloom::arrow::validate(schema_, array_, layout, why);
}

void ArrowInput::Validate(std::uint32_t layout, const std::string& what) const {
  std::string why;
  const int status = CheckStatus(layout, &why);
  if (status < 0) ThrowStatusMessage(status, what + ": " + why);
}

std::size_t ArrowInput::length() const { return array_->length > 0 ? static_cast<std::size_t>(array_->length) : 0; }

int ArrowInput::parquet_type(bb_parquet_column* type) const { return blockbloom::arrow::parquet_type_of(schema_, type); }

std::uint32_t ArrowInput::stored_type(std::uint32_t layout) const {
  if (schema_->release == nullptr) return 0;  // released: the library refuses it
  if (layout == BB_LAYOUT_PARQUET) {
    bb_parquet_column type{};
    type.struct_size = sizeof type;
    std::uint32_t column_type = 0;
    std::size_t width = 0;
    if (parquet_type(&type) < 0 || bb_parquet_stored_column_type(&type, &column_type, &width) < 0) return 0;
    return column_type;
  }
  const ArrowSchema* values = schema_->dictionary != nullptr ? schema_->dictionary : schema_;
  switch (blockbloom::arrow::kind_of(values->format, layout).type) {
    case BB_TYPE_DATE32:
    case BB_TYPE_DATE64:  // Kudu DATE: int32 days
    case BB_TYPE_TIME32: return BB_TYPE_INT32;
    case BB_TYPE_TIME64:
    case BB_TYPE_TIMESTAMP: return BB_TYPE_INT64;
    case BB_TYPE_LARGE_BYTE_ARRAY: return BB_TYPE_BYTE_ARRAY;
    default: return blockbloom::arrow::kind_of(values->format, layout).type;
  }
}

namespace {
const char* ValuesFormat(const ArrowSchema* s) {
  if (s->release == nullptr) return "";
  const ArrowSchema* values = s->dictionary != nullptr ? s->dictionary : s;
  return values->format != nullptr ? values->format : "";
}
}  // namespace

char ArrowInput::temporal() const {
  const char* f = ValuesFormat(schema_);
  if (f[0] != 't' || (f[1] != 't' && f[1] != 's') || f[2] == '\0') return 0;
  return f[1];
}

int ArrowInput::unit() const {
  switch (temporal() != 0 ? ValuesFormat(schema_)[2] : 0) {
    case 'm': return BB_PARQUET_UNIT_MILLIS;
    case 'u': return BB_PARQUET_UNIT_MICROS;
    case 'n': return BB_PARQUET_UNIT_NANOS;
    default: return 0;
  }
}

std::string ArrowInput::description() const {
  if (schema_->release == nullptr) return "a released Arrow array";
  const ArrowSchema* values = schema_->dictionary != nullptr ? schema_->dictionary : schema_;
  const std::string format = values->format != nullptr ? values->format : "";
  return std::string(schema_->dictionary != nullptr ? "the Arrow dictionary array of values of format '"
                                                    : "the Arrow array of format '") +
         format + "'";
}

}  // namespace bbpy
