// SPDX-License-Identifier: Apache-2.0
#include "parquet/parquet_usage.h"

namespace blockbloom_cli {

const char kParquetSynopsis[] =
    "  blockbloom parquet list FILE [--json]\n"
    "  blockbloom parquet probe FILE --column PATH [--row-group N] [--hex] [--physical]\n"
    "                           [--json] (VALUE... | --input FILE)\n"
    "  blockbloom parquet probe FILE --column-path JSON ... (the path as names)\n";

const char kParquetSummary[] =
    "  parquet    list the Bloom filters of a Parquet file, or ask a column's filters whether\n"
    "             a row group may hold a value (blockbloom parquet --help)\n";

const char kParquetHelp[] =
    "parquet: the Bloom filters of a Parquet file, found through its footer (the FileMetaData).\n"
    "\n"
    "list: one row per column chunk that has a Bloom filter: its row group, column path,\n"
    "  physical and logical type, where its BloomFilterHeader and its bitset start, the\n"
    "  bitset's bytes, the fraction of its bits that are set, the number of distinct values\n"
    "  that fraction implies (estimated_ndv: the n for which 1 - (1 - 1/(32 z))^n, the\n"
    "  expected fraction after n values in z blocks, is the fraction; none when every bit is\n"
    "  set), and its status: ok, or malformed and why (an offset or length outside the file,\n"
    "  a corrupt BloomFilterHeader). A malformed filter is reported; the others still are.\n"
    "  The column is its dotted path (names joined with '.'), unless another column has the\n"
    "  same dotted path (a top-level column named \"a.b\" beside field b of group a): then\n"
    "  its names as a JSON array, [\"a.b\"] and [\"a\", \"b\"], as --column-path takes them.\n"
    "  --json  one object: {\"file\", \"row_groups\", \"filters\": [{\"row_group\", \"column\",\n"
    "          \"path\", \"physical_type\", \"logical_type\", \"header_offset\",\n"
    "          \"bitset_offset\", \"num_bytes\", \"bits_set_fraction\", \"estimated_ndv\",\n"
    "          \"status\", \"error\"}]}; column is the dotted path, path the names\n"
    "\n"
    "probe: hashes each VALUE as Parquet does (XXH64, seed 0, of its plain encoding as the\n"
    "  column's physical type) and tests it against the column's filter in every row group,\n"
    "  or only in --row-group N. Prints one line per value and row group:\n"
    "    VALUE<TAB>row_group=R<TAB>maybe|absent\n"
    "  absent: the value is certainly not in that row group's column chunk; maybe: it may be\n"
    "  (a Bloom filter has false positives). A row group whose chunk has no usable filter\n"
    "  answers maybe, with a warning on standard error.\n"
    "  --column PATH  the column's dotted path; one that more than one column has is\n"
    "                 refused, naming each one's names; no such column names the closest\n"
    "  --column-path JSON  the column's names as a JSON array of strings, exactly:\n"
    "                 '[\"a.b\"]' (a top-level column named a.b) or '[\"a\", \"b\"]' (field b\n"
    "                 of group a); escapes \\\" \\\\ \\uXXXX ..., \\udcXX the byte XX as\n"
    "                 --json writes one that is not UTF-8; instead of --column\n"
    "  --input FILE   one value per line ('-': standard input) instead of VALUE arguments\n"
    "  --hex          BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 values as hex digits\n"
    "  --json         one object: {\"column\", \"physical_type\", \"results\": [{\"value\",\n"
    "                 \"row_groups\": [{\"row_group\", \"maybe\"}]}]}\n"
    "  Values as people write them, by the column's type (docs/formats.md, \"Values as\n"
    "  text\"): integers in the annotation's exact range (no '+', spaces or leading zeros);\n"
    "  FLOAT, DOUBLE, FLOAT16 1.5, -0.0, 0x1p-3, nan, inf, -inf; DECIMAL(p,s) [-]digits[.digits];\n"
    "  DATE YYYY-MM-DD; TIME HH:MM:SS[.fraction]; TIMESTAMP and INT96\n"
    "  YYYY-MM-DD[ T]HH:MM:SS[.fraction] (Z or +HH:MM only on UTC-adjusted columns); UUID\n"
    "  8-4-4-4-12 hex digits; INTERVAL \"M months D days N ms\"; strings and bytes as given\n"
    "  (a line of --input without its '\\n', '\\r' kept; FIXED_LEN_BYTE_ARRAY(N) exactly N).\n"
    "  BOOLEAN is refused: Parquet defines no Bloom filter hash for booleans.\n"
    "  --physical     each VALUE is the stored physical value, the annotation ignored (a\n"
    "                 DATE's days, a DECIMAL's unscaled integer, a TIMESTAMP's count of units)\n"
    "  Negative numbers may stand anywhere; other values that begin with '-' go after \"--\".\n"
    "\n"
    "Exit status of parquet: 0 when the file was read (list: malformed filters included); 2\n"
    "when it is not a readable Parquet file, a value does not parse as the column's type, the\n"
    "column is not in the file, ambiguous or has no Bloom filter, or the command line is\n"
    "wrong (a --column-path that is not a JSON array of strings).\n"
    "\n"
    "Names and values in text output, on standard output and in messages alike: a backslash\n"
    "as \\\\, control bytes (tab and newline too) and bytes that are not valid UTF-8 as \\xHH,\n"
    "other UTF-8 as it is. JSON carries the bytes exactly: a byte 0xXX that is not part of\n"
    "valid UTF-8 as \\udcXX (Python's surrogateescape; docs/formats.md, \"The tools' output\").\n";

}  // namespace blockbloom_cli
