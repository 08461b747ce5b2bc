// SPDX-License-Identifier: Apache-2.0
// Text from outside (column paths of a Parquet file, file names, CPU strings)
// made safe to print to a terminal in a text report or an error message: a
// hostile name must not move the cursor, recolour the screen, or forge a
// line of its own. JSON output is escaped by json_writer.h instead.
#ifndef BLOCKBLOOM_TOOLS_PRINTABLE_TEXT_H_
#define BLOCKBLOOM_TOOLS_PRINTABLE_TEXT_H_

#include <string>
#include <string_view>

namespace blockbloom_cli {

// text with every control character escaped: \n, \r, \t as written here,
// other C0 bytes, DEL and the C1 controls U+0080..U+009F (the terminal's
// CSI and friends) as \xNN per byte, and so any byte that is not part of
// valid UTF-8. Printable ASCII and other valid UTF-8 pass unchanged, so a
// name in any script still reads as itself.
std::string Printable(std::string_view text);

}  // namespace blockbloom_cli

#endif  // BLOCKBLOOM_TOOLS_PRINTABLE_TEXT_H_
