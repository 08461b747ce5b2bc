#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Each x86 tier's machine code uses no instruction beyond what its
dispatcher check requires.

A kernel that sneaks in one newer instruction (an AVX encoding in the sse42
tier, AES or PCLMUL that Highway's SSE4 target would normally allow, an
AVX-512 register in the avx2 tier) dies with SIGILL on the CPUs the tier is
for. This disassembles the library and checks every function compiled for
each Highway target namespace. Usage: tier_instructions_check.py LIBRARY
"""
import re
import subprocess
import sys

# Highway namespace -> (tier, forbidden mnemonic pattern, forbidden operand pattern)
TIERS = {
    "N_SSE4": ("sse42",
               re.compile(r"^(v|aes|pclmul|sha|kmov|kand|kor)"),
               re.compile(r"%[yz]mm|%k[0-7]")),
    "N_AVX2": ("avx2",
               re.compile(r"^(aes|pclmul|sha|kmov|kand|kor|kxor|vpternlog|vpcompress|vpexpand|vpermt2|vpermi2)"),
               re.compile(r"%zmm|%k[0-7]|%[xy]mm(1[6-9]|2[0-9]|3[01])\b|\{%k")),
}


def main(library):
    disassembly = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", library],
                                 check=True, capture_output=True, text=True).stdout
    seen = {ns: 0 for ns in TIERS}
    bad = []
    current = None
    for line in disassembly.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if header:
            current = next((ns for ns in TIERS if f"::{ns}::" in header.group(1)), None)
            if current:
                seen[current] += 1
                name = header.group(1)
            continue
        if current is None:
            continue
        parts = line.split("\t")
        if len(parts) < 2:
            continue
        instruction = parts[-1].strip()
        mnemonic = instruction.split(" ")[0]
        tier, bad_mnemonic, bad_operand = TIERS[current]
        if bad_mnemonic.search(mnemonic) or bad_operand.search(instruction):
            bad.append(f"{tier}: {name}: {instruction}")
    for ns, count in seen.items():
        print(f"{TIERS[ns][0]}: {count} functions checked")
        if count == 0:
            print(f"FAIL: no functions of {ns} found in {library}")
            return 1
    if bad:
        print("FAIL: instructions beyond the tier's CPU requirements:")
        print("\n".join(bad[:50]))
        return 1
    print("OK: every sse42/avx2 function stays within its tier")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
