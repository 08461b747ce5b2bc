// SPDX-License-Identifier: Apache-2.0
// Text from outside (column paths of a Parquet file, values, file names, CPU
// strings) made safe to print to a terminal in a text report or an error
// message: a hostile name must not move the cursor, recolour the screen, or
// forge a line of its own, and two different names must not print alike.
// JSON output is escaped by json_writer.h instead.
#ifndef BLOCKBLOOM_TOOLS_COMMON_PRINTABLE_TEXT_H_
#define BLOCKBLOOM_TOOLS_COMMON_PRINTABLE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace blockbloom_tools {

// The one escaping rule of every text the tools print, on stdout and on
// stderr alike: a backslash as \\; each control byte (C0 including tab and
// newline, DEL), each byte of a C1 control U+0080..U+009F (the terminal's
// CSI and friends) and each byte that is not part of valid UTF-8 as \xHH
// (two lowercase hex digits); printable ASCII and other valid UTF-8 pass
// unchanged, so a name in any script still reads as itself. So \\ and \xHH
// are the only escapes, and the bytes can be recovered from the text.
std::string Printable(std::string_view text);

// The first max_bytes bytes of text, cut back to the start of a UTF-8
// sequence the cut would split, with "..." after it when anything was cut;
// not escaped (Printable does that where the text is printed).
std::string Shortened(std::string_view text, std::size_t max_bytes);

}  // namespace blockbloom_tools

#endif  // BLOCKBLOOM_TOOLS_COMMON_PRINTABLE_TEXT_H_
