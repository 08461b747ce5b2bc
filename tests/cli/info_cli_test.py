#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`blockbloom info`: the build and CPU facts it reports (human and --json),
and the environment overrides it shows (BLOCKBLOOM_ISA, the prefetch setting).

usage: info_cli_test.py PATH_TO_BLOCKBLOOM [TestClass ...]
(the arguments and the exit status: cli_support.main)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_support  # noqa: E402
from cli_support import ToolTestCase, WRAPPER, info_json, run  # noqa: E402

TOOL = None  # set from argv by cli_support.main


class InfoReportsBuildAndCpu(ToolTestCase):
    def test_json_has_every_key_with_the_right_type(self):
        info = info_json()
        self.assertEqual(
            set(info), {"version", "selected_isa", "isas", "compiled_isas", "supported_isas",
                        "forced_isa", "forced_isa_refused", "prefetch", "caches", "cpu"})
        self.assertIsInstance(info["version"], str)
        self.assertRegex(info["version"], r"^\d+\.\d+\.\d+")
        self.assertIsInstance(info["selected_isa"], str)
        # "isas" is the library's registry (bb_isa_name), best first, scalar
        # last; the compiled and supported tiers are among its names.
        self.assertIsInstance(info["isas"], list)
        self.assertEqual(info["isas"][-1], "scalar")
        self.assertEqual(len(set(info["isas"])), len(info["isas"]))
        for key in ("compiled_isas", "supported_isas"):
            self.assertIsInstance(info[key], list)
            self.assertTrue(info[key], key + " is empty")
            for name in info[key]:
                self.assertIn(name, info["isas"])
        self.assertIsNone(info["forced_isa"])
        self.assertIsNone(info["forced_isa_refused"])
        self.assertEqual(set(info["cpu"]), {"vendor", "brand", "microarchitecture"})
        for key in ("vendor", "brand", "microarchitecture"):
            self.assertIsInstance(info["cpu"][key], str)
        self.assertEqual(set(info["prefetch"]),
                         {"hint", "distance", "override_refused", "defaults"})
        # Nothing set: the defaults of the size classes apply.
        self.assertEqual(info["prefetch"]["hint"], "default")
        self.assertEqual(info["prefetch"]["distance"], 0)
        self.assertIsNone(info["prefetch"]["override_refused"])
        defaults = info["prefetch"]["defaults"]
        self.assertGreaterEqual(len(defaults), 1)
        # The classes follow the detected caches: the first starts at the L2
        # (the reference machine's 1 MiB when no cache is reported) and the
        # last at the L3 when there is one larger than the L2.
        caches = info["caches"]
        self.assertEqual(set(caches), {"source", "l1d_bytes", "l2_bytes", "l3_bytes",
                                       "l3_sharing", "l3_per_core_bytes"})
        self.assertIn(caches["source"],
                      {"cpuid leaf 4", "cpuid leaf 0x8000001d", "sysfs", "none"})
        if caches["l2_bytes"]:
            self.assertEqual(defaults[0]["min_bytes"], caches["l2_bytes"])
        if caches["l3_bytes"] > max(caches["l2_bytes"], 1 << 20):
            self.assertEqual(defaults[-1]["min_bytes"], caches["l3_bytes"])
        if caches["source"] == "none":
            self.assertEqual([c["min_bytes"] for c in defaults], [1 << 20, 4 << 20, 32 << 20])
        for before, after in zip(defaults, defaults[1:]):
            self.assertLess(before["min_bytes"], after["min_bytes"])
        for c in defaults:
            self.assertEqual(set(c), {"min_bytes", "hint", "distance"})
            self.assertIn(c["hint"], {"l1", "l2", "l3"})
            self.assertTrue(1 <= c["distance"] <= 512, c)

    def test_selected_is_supported_and_supported_is_compiled(self):
        info = info_json()
        self.assertIn(info["selected_isa"], info["supported_isas"])
        self.assertTrue(set(info["supported_isas"]) <= set(info["compiled_isas"]))
        self.assertIn("scalar", info["supported_isas"])
        self.assertEqual(info["selected_isa"], info["supported_isas"][0],
                         "with no override the best supported ISA is selected")

    def test_human_form_lists_the_same_facts(self):
        info = info_json()
        result = run(["info"])
        self.assertOk(result)
        rows = {}
        for line in result.stdout.splitlines():
            key, sep, value = line.partition(":")
            self.assertTrue(sep, "not a key: value line: %r" % line)
            rows[key.strip()] = value.strip()
        self.assertEqual(rows["version"], info["version"])
        self.assertEqual(rows["selected ISA"], info["selected_isa"])
        self.assertEqual(rows["supported ISAs"], ", ".join(info["supported_isas"]))
        self.assertEqual(rows["compiled ISAs"], ", ".join(info["compiled_isas"]))
        self.assertEqual(rows["BLOCKBLOOM_ISA"], "(not set)")
        self.assertIn("cpu vendor", rows)
        self.assertIn("from " + info["caches"]["source"], rows["caches"])
        for c in info["prefetch"]["defaults"]:
            self.assertIn(" %s at %d" % (c["hint"], c["distance"]), rows["prefetch"])
        # The values start in one column.
        columns = {len(line) - len(line.split(":", 1)[1].lstrip())
                   for line in result.stdout.splitlines()}
        self.assertEqual(len(columns), 1, result.stdout)


class IsaOverrideFromEnvironment(ToolTestCase):
    def test_scalar_is_forced(self):
        info = info_json(isa="scalar")
        self.assertEqual(info["selected_isa"], "scalar")
        self.assertEqual(info["forced_isa"], "scalar")
        self.assertIsNone(info["forced_isa_refused"])

    def test_every_supported_isa_can_be_forced(self):
        for isa in info_json()["supported_isas"]:
            with self.subTest(isa=isa):
                info = info_json(isa=isa)
                self.assertEqual(info["selected_isa"], isa)
                self.assertIsNone(info["forced_isa_refused"])

    def test_bogus_is_refused_and_the_best_isa_stays(self):
        best = info_json()["supported_isas"][0]
        info = info_json(isa="bogus")
        self.assertEqual(info["forced_isa"], "bogus")
        self.assertIsInstance(info["forced_isa_refused"], str)
        self.assertIn("bogus", info["forced_isa_refused"])
        self.assertEqual(info["selected_isa"], best)
        self.assertEqual(info["selected_isa"], info["supported_isas"][0])

    def test_json_escapes_a_hostile_override(self):
        info = info_json(isa='a"b\\c')  # must still parse
        self.assertIsNotNone(info["forced_isa_refused"])
        self.assertNotEqual(info["selected_isa"], 'a"b\\c')


class PrefetchOverrideFromEnvironment(ToolTestCase):
    def info_with(self, **variables):
        env = dict(os.environ, **variables)
        result = subprocess.run(WRAPPER + [TOOL, "info", "--json"], capture_output=True, text=True,
                                env=env, timeout=120)
        self.assertOk(result)
        return json.loads(result.stdout)

    def test_valid_values_are_shown(self):
        info = self.info_with(BLOCKBLOOM_PREFETCH_DISTANCE="128", BLOCKBLOOM_PREFETCH_HINT="l1")
        self.assertEqual({k: v for k, v in info["prefetch"].items() if k != "defaults"},
                         {"hint": "l1", "distance": 128, "override_refused": None})

    def test_a_bad_value_is_refused_with_a_reason_in_both_forms(self):
        info = self.info_with(BLOCKBLOOM_PREFETCH_DISTANCE="9999")
        self.assertIn("BLOCKBLOOM_PREFETCH_DISTANCE", info["prefetch"]["override_refused"])
        env = dict(os.environ, BLOCKBLOOM_PREFETCH_DISTANCE="9999")
        result = subprocess.run(WRAPPER + [TOOL, "info"], capture_output=True, text=True, env=env,
                                timeout=120)
        self.assertOk(result)
        self.assertIn("prefetch override:", result.stdout)
        self.assertIn("refused", result.stdout)


if __name__ == "__main__":
    sys.exit(cli_support.main(__name__, sys.argv))
