#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom parquet list` / `parquet probe` on a file holding every
Parquet logical type (tests/support/parquet_files.py logical_types_parquet()),
against an independent model: values encoded in Python (datetime, decimal,
uuid, struct), hashed with tests/support/xxh64_model.py's XXH64 and placed by its
split block bitset, none of it the library's.

usage: parquet_logical_types_test.py PATH_TO_BLOCKBLOOM [TestClass ...]

- LogicalTypesFileToday passes with today's probe: stored values in their
  physical form (INT32 / INT64 decimal integers, FLOAT / DOUBLE numbers,
  byte types --hex) answer maybe, absent ones the model's answer; the
  model's bitsets are the file's bytes and agree with `blockbloom build`.
- LogicalTypesAsText NEEDS wp-values (bb_parquet_encode_text,
  include/blockbloom/parquet_value.h, in `parquet probe`): every text
  spelling of every stored value answers maybe, --physical takes the stored
  form, refusals exit 2 naming the value, the column and its type. It FAILS
  until that work is merged; it is written to the header's spec.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, own_stderr, read_bytes, run  # noqa: E402
from parquet_files import (logical_types_parquet, read_bloom_header,  # noqa: E402
                           walk_footer)
import xxh64_model  # noqa: E402

NUM_BYTES = 1024


class LogicalTypesTestCase(ToolTestCase):
    def setUp(self):
        super().setUp()
        self.data, self.cases = logical_types_parquet(NUM_BYTES, row_groups=2)
        # Every column natively; under an emulator (the test matrix runs the
        # whole suite on each emulated CPU, where each run of the tool costs
        # 10-50x) every eighth, a different eighth per test class, and two
        # refusals a column, so that the rules, which no ISA changes, are
        # still exercised there (the hashing under them is the kernels', which
        # the kernel tests cover on every emulated CPU).
        self.probe_cases = self.cases
        self.refusals_per_case = None
        if cli_support.WRAPPER:
            start = sum(map(ord, type(self).__name__)) % 8
            self.probe_cases = self.cases[start::8]
            self.refusals_per_case = 2
        self.file = self.path("logical_types.parquet")
        with open(self.file, "wb") as f:
            f.write(self.data)

    def probe(self, case, texts, extra=()):
        """[(maybe in row group 0, maybe in row group 1)] per text, from --json."""
        result = run(["parquet", "probe", self.file, "--column", case["path"], "--json"] +
                     list(extra) + ["--"] + list(texts))
        self.assertEqual(result.returncode, 0, "%s %r %r: %s" % (case["path"], extra, texts,
                                                                 result.stderr))
        report = json.loads(result.stdout)
        self.assertEqual(report["column"], case["path"])
        self.assertEqual([r["value"] for r in report["results"]], list(texts))
        answers = []
        for r in report["results"]:
            self.assertEqual([g["row_group"] for g in r["row_groups"]], [0, 1])
            answers.append(tuple(g["maybe"] for g in r["row_groups"]))
        return answers

    def check(self, case, entries, form, extra=()):
        """Every text that form(entry) gives answers the model's maybe in row
        group 0 (stored: True) and absent in the empty row group 1."""
        texts, want = [], []
        for entry in entries:
            for text in form(entry):
                texts.append(text)
                want.append((entry["maybe"], False))
        if texts:
            with self.subTest(column=case["path"], type=case["type"], extra=extra):
                self.assertEqual(dict(zip(texts, self.probe(case, texts, extra))),
                                 dict(zip(texts, want)))

    def check_forms(self, case, entries, key, extra=()):
        """check() of entry[key] = (text, is_hex): hex ones with --hex."""
        for is_hex in (False, True):
            chosen = [v for v in entries if v[key][1] == is_hex]
            self.check(case, chosen, lambda v: [v[key][0]], list(extra) + ["--hex"] * is_hex)


class LogicalTypesFileToday(LogicalTypesTestCase):
    """Passes today: the file, its filters and the model, through the probe
    of physical values."""

    def test_list_lists_every_filter(self):
        report = json.loads(self.run_ok(["parquet", "list", self.file, "--json"]).stdout)
        self.assertEqual(report["row_groups"], 2)
        filters = report["filters"]
        self.assertEqual([(f["row_group"], f["column"]) for f in filters],
                         [(g, c["path"]) for g in (0, 1) for c in self.cases])
        for f, case in zip(filters, self.cases + self.cases):
            with self.subTest(column=case["path"], row_group=f["row_group"]):
                self.assertEqual(f["path"], case["names"])
                self.assertEqual(f["status"], "ok")
                self.assertEqual(f["num_bytes"], NUM_BYTES)
                self.assertTrue(f["physical_type"].startswith(case["physical"]), f)
                bits = sum(bin(b).count("1") for b in case["bitset"]) if f["row_group"] == 0 else 0
                self.assertAlmostEqual(f["bits_set_fraction"], bits / (8 * NUM_BYTES), places=6)

    def test_model_bitsets_are_the_files_bytes(self):
        chunks = walk_footer(self.data)
        self.assertEqual(len(chunks), 2 * len(self.cases))
        for chunk, case in zip(chunks, self.cases + self.cases):
            header_len, num_bytes = read_bloom_header(self.data, chunk["offset"])
            start = chunk["offset"] + header_len
            want = case["bitset"] if chunk["row_group"] == 0 else bytes(NUM_BYTES)
            self.assertEqual(num_bytes, NUM_BYTES)
            self.assertEqual(self.data[start:start + num_bytes], want, case["path"])

    def test_model_hashes_agree_with_blockbloom_build(self):
        # The placement: the tool builds the model's bitset from the model's hashes.
        for case in self.probe_cases:
            hashes = self.path("hashes.txt")
            cli_support.write_hashes(hashes, [v["hash"] for v in case["stored"]])
            self.assertEqual(self.build(hashes, self.out, NUM_BYTES), case["bitset"], case["path"])
        # The hash: `build --hash xxh64 --type T` of the physical values.
        types = {"INT32": "int32", "INT64": "int64", "FLOAT": "float", "DOUBLE": "double",
                 "BYTE_ARRAY": "string"}
        checked = 0
        for case in self.probe_cases:
            kind = types.get(case["physical"])
            texts = [v["physical"][0] for v in case["stored"]]
            if kind == "string":
                texts = [v["bytes"].decode() for v in case["stored"]
                         if v["bytes"] and b"\n" not in v["bytes"] and b"\r" not in v["bytes"]
                         and v["bytes"].isascii()]
                if len(texts) != len(case["stored"]):
                    continue  # an empty or non-ASCII value: its own bitset would differ
            if kind is None:
                continue
            values = self.path("values.txt")
            with open(values, "w", encoding="utf-8") as f:
                f.write("".join(t + "\n" for t in texts))
            self.run_ok(["build", "--layout", "parquet", "--bytes", str(NUM_BYTES), "--hash",
                         "xxh64", "--type", kind, "--input", values, "-o", self.out])
            self.assertEqual(read_bytes(self.out), case["bitset"], case["path"])
            checked += 1
        self.assertGreater(checked, 30 * len(self.probe_cases) // len(self.cases))

    def todays_form(self):
        """("today", []) for today's probe; once `parquet probe` has
        --physical (wp-values), the stored physical form with it: an
        annotated column's plain integer (a DATE's days) is then refused
        without the flag."""
        result = run(["parquet", "probe", "--help"])
        if "--physical" in result.stdout + result.stderr:
            return "physical", ["--physical"]
        return "today", []

    def test_stored_values_in_todays_form_answer_maybe(self):
        key, extra = self.todays_form()
        for case in self.probe_cases:
            self.check_forms(case, case["stored"], key, extra)

    def test_absent_values_in_todays_form_answer_the_model(self):
        key, extra = self.todays_form()
        for case in self.probe_cases:
            self.check_forms(case, case["absent"], key, extra)

    def test_hex_spellings_of_byte_values(self):
        for case in self.probe_cases:
            self.check(case, case["stored"] + case["absent"], lambda v: v["hex"], ["--hex"])

    def test_model_xxh64_vectors(self):
        for data, seed, want in xxh64_model.KNOWN_VECTORS:
            self.assertEqual(xxh64_model.xxh64(data, seed), want)


class LogicalTypesAsText(LogicalTypesTestCase):
    """`parquet probe` reads values as text by the library's rules
    (bb_parquet_hash_text, include/blockbloom/parquet_value.h)."""

    def type_names(self):
        report = json.loads(self.run_ok(["parquet", "list", self.file, "--json"]).stdout)
        return {f["column"]: (f["physical_type"], f["logical_type"])
                for f in report["filters"] if f["row_group"] == 0}

    def test_every_spelling_of_a_stored_value_answers_maybe(self):
        for case in self.probe_cases:
            self.check(case, case["stored"], lambda v: v["texts"])

    def test_absent_values_as_text_answer_the_model(self):
        for case in self.probe_cases:
            self.check(case, case["absent"], lambda v: v["texts"])

    def test_physical_form_answers_maybe(self):
        for case in self.probe_cases:
            self.check_forms(case, case["stored"] + case["absent"], "physical", ["--physical"])

    def test_refusals_name_the_value_the_column_and_its_type(self):
        names = self.type_names()
        for case in self.probe_cases:
            physical, logical = names[case["path"]]
            for text, kind in case["refusals"][:self.refusals_per_case]:
                with self.subTest(column=case["path"], text=text, kind=kind):
                    result = run(["parquet", "probe", self.file, "--column", case["path"], "--",
                                  text])
                    self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
                    self.assertEqual(result.stdout, "")
                    stderr = own_stderr(result)
                    self.assertRegex(stderr, r"(?m)^blockbloom: ")
                    self.assertIn('"%s"' % text, stderr)
                    self.assertIn(case["path"], stderr)
                    self.assertIn(logical or physical, stderr)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
