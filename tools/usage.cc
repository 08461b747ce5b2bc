#include "usage.h"

namespace blockbloom_cli {

const char kUsage[] =
    "usage:\n"
    "  blockbloom info [--json]\n"
    "  blockbloom build --layout parquet --bytes N --input FILE -o OUT\n"
    "  blockbloom probe --layout parquet --filter FILE [--offset K] --bytes N --input FILE"
    " [--count]\n"
    "  blockbloom --help\n"
    "\n"
    "commands:\n"
    "  info    the library version, this CPU, and the compiled, supported and selected ISAs\n"
    "  build   insert the hashes of FILE into an N-byte filter and write its raw bitset to OUT\n"
    "          (OUT is replaced only when everything succeeded)\n"
    "  probe   test the hashes of FILE against the N-byte bitset at byte K of the filter file;\n"
    "          print 1 (maybe present) or 0 (absent) per hash, or with --count the number of 1s\n"
    "\n"
    "FILE holds one hash per line: an unsigned 64-bit number in decimal or 0x hex\n"
    "('-' reads standard input). N must be a positive multiple of 32. Flags also take\n"
    "the form --flag=VALUE. BLOCKBLOOM_ISA=<isa> in the environment forces an ISA.\n"
    "Exit status: 0 on success, 2 on any error.\n";

}  // namespace blockbloom_cli
