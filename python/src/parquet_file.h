// SPDX-License-Identifier: Apache-2.0
// blockbloom._core._ParquetFile: a thin binding of the C file layer
// (blockbloom/parquet_file.h): a file's columns, chunks and filters, as
// blockbloom/parquet.py needs them to answer list() and probe(). The rules
// (type names, value encoding, the CLI's report) live in parquet.py.
#ifndef BLOCKBLOOM_PYTHON_PARQUET_FILE_H_
#define BLOCKBLOOM_PYTHON_PARQUET_FILE_H_

#include <pybind11/pybind11.h>

namespace bbpy {

// Adds _ParquetFile, _parquet_hash_value and the _ERR_PARQUET_* codes.
void RegisterParquetFile(pybind11::module_& m);

}  // namespace bbpy

#endif  // BLOCKBLOOM_PYTHON_PARQUET_FILE_H_
