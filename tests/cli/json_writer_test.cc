// SPDX-License-Identifier: Apache-2.0
// tools/common/json_writer: the one JSON writer of the tools. Its escaping
// rule (docs/formats.md, "The tools' output of names and values"), its
// numbers and null, and the layout of its arrays and objects, which every
// --json report's bytes depend on.
#include "tools/common/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace blockbloom_tools {
namespace {

using namespace std::string_literals;

TEST(JsonString, EscapesQuoteBackslashAndTheNamedControls) {
  EXPECT_EQ(JsonString("a\"b"), R"("a\"b")");
  EXPECT_EQ(JsonString("a\\b"), R"("a\\b")");
  EXPECT_EQ(JsonString("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(JsonString(""), R"("")");
}

TEST(JsonString, EscapesOtherControlBytesAndDelAsU00XX) {
  EXPECT_EQ(JsonString("\x01"), R"("\u0001")");
  EXPECT_EQ(JsonString("\x1f"), R"("\u001f")");
  EXPECT_EQ(JsonString("\x7f"), R"("\u007f")");
  EXPECT_EQ(JsonString("a\0b"s), R"("a\u0000b")");  // a NUL inside does not end the text
}

TEST(JsonString, PassesValidUtf8Through) {
  const std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
  EXPECT_EQ(JsonString(text), "\"" + text + "\"");
}

TEST(JsonString, WritesEachByteOfInvalidUtf8AsALoneSurrogate) {
  EXPECT_EQ(JsonString("\xff"), R"("\udcff")");
  EXPECT_EQ(JsonString("\x80"), R"("\udc80")");                  // a stray continuation byte
  EXPECT_EQ(JsonString("\xc0\x80"), R"("\udcc0\udc80")");        // overlong
  EXPECT_EQ(JsonString("\xe0\x80\x80"), R"("\udce0\udc80\udc80")");  // overlong, 3 bytes
  EXPECT_EQ(JsonString("\xed\xa0\x80"), R"("\udced\udca0\udc80")");  // an encoded surrogate
  EXPECT_EQ(JsonString("\xf4\x90\x80\x80"), R"("\udcf4\udc90\udc80\udc80")");  // past U+10FFFF
  EXPECT_EQ(JsonString("a\xe2\x82"), R"("a\udce2\udc82")");      // cut short at the end
  // The byte after a broken sequence starts afresh: here a valid character.
  EXPECT_EQ(JsonString("\xe2\xc3\xa9"), "\"\\udce2\xc3\xa9\"");
  // Distinct bytes stay distinct.
  EXPECT_NE(JsonString("\xfe"), JsonString("\xff"));
}

TEST(JsonString, OrNullIsNullForNullptrOnly) {
  EXPECT_EQ(JsonStringOrNull(nullptr), "null");
  EXPECT_EQ(JsonStringOrNull(""), R"("")");
  EXPECT_EQ(JsonStringOrNull("x\n"), R"("x\n")");
}

TEST(JsonNumbers, NonFiniteFloatsAreNull) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const double v : {inf, -inf, std::nan("")}) {
    EXPECT_EQ(JsonFloat(v), kJsonNull);
    EXPECT_EQ(JsonFloat(v, 9), kJsonNull);
    EXPECT_EQ(JsonFixed(v, 4), kJsonNull);
  }
  EXPECT_STREQ(kJsonNull, "null");
}

TEST(JsonNumbers, FloatsKeepTheDigitsAsked) {
  EXPECT_EQ(JsonFloat(0.013671875, 9), "0.013671875");
  EXPECT_EQ(JsonFloat(14.0897002001, 9), "14.0897002");
  EXPECT_EQ(JsonFloat(2.71828, 4), "2.718");
  EXPECT_EQ(JsonFloat(1e20), "1e+20");
  EXPECT_EQ(JsonFloat(0.0), "0");
  EXPECT_EQ(JsonFixed(2.5, 4), "2.5000");
  EXPECT_EQ(JsonFixed(-0.125, 1), "-0.1");
  EXPECT_EQ(JsonFixed(3.0, 0), "3");
}

TEST(JsonNumbers, IntegersAtTheInt64AndUint64Extremes) {
  EXPECT_EQ(JsonInteger(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(JsonInteger(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
  EXPECT_EQ(JsonInteger(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(JsonInteger(std::uint64_t{0}), "0");
  EXPECT_EQ(JsonInteger(std::numeric_limits<std::uint32_t>::max()), "4294967295");
  EXPECT_EQ(JsonInteger(-1), "-1");
}

TEST(JsonNumbers, Bools) {
  EXPECT_EQ(JsonBool(true), "true");
  EXPECT_EQ(JsonBool(false), "false");
}

TEST(JsonArrays, OnOneLineNestedAndEmpty) {
  EXPECT_EQ(JsonArray({}), "[]");
  EXPECT_EQ(JsonArray({"1"}), "[1]");
  EXPECT_EQ(JsonArray({"1", "null", "true"}), "[1, null, true]");
  EXPECT_EQ(JsonArray({JsonArray({"1", "2"}), JsonArray({}), JsonArray({JsonArray({"3"})})}),
            "[[1, 2], [], [[3]]]");
  EXPECT_EQ(JsonStringArray({"a", "b\"", "\xff"}), R"(["a", "b\"", "\udcff"])");
  EXPECT_EQ(JsonStringArray({}), "[]");
}

TEST(JsonArrays, OnePerLineIndentsElementsAndClosingBracket) {
  EXPECT_EQ(JsonArrayOnePerLine({}, 2), "[]");
  EXPECT_EQ(JsonArrayOnePerLine({"1"}, 0), "[\n  1\n]");
  EXPECT_EQ(JsonArrayOnePerLine({"1", JsonArray({"2", "3"})}, 2), "[\n    1,\n    [2, 3]\n  ]");
}

// The streaming writer, as parquet list and probe use it: the pieces, put
// together, are the array the whole-array functions write.
TEST(JsonArrayStream, PiecesMakeTheSameArrayAsTheWholeArrayFunctions) {
  const std::vector<std::string> values = {"1", R"({"a": 2})", "[]"};
  for (const int indent : {0, 2, 4}) {
    JsonArrayStream lines = JsonArrayStream::OnePerLine(indent);
    std::string out;
    for (const std::string& v : values) out += lines.Next() + v;
    out += lines.Close();
    EXPECT_EQ(out, JsonArrayOnePerLine(values, indent)) << "indent " << indent;
  }
  JsonArrayStream inline_stream = JsonArrayStream::OnOneLine();
  std::string out;
  for (const std::string& v : values) out += inline_stream.Next() + v;
  EXPECT_EQ(out + inline_stream.Close(), JsonArray(values));
}

TEST(JsonArrayStream, PiecesOneByOne) {
  JsonArrayStream s = JsonArrayStream::OnePerLine(0);
  EXPECT_EQ(s.Next(), "[\n  ");
  EXPECT_EQ(s.Next(), ",\n  ");
  EXPECT_EQ(s.Close(), "\n]");
  JsonArrayStream o = JsonArrayStream::OnOneLine();
  EXPECT_EQ(o.Next(), "[");
  EXPECT_EQ(o.Next(), ", ");
  EXPECT_EQ(o.Close(), "]");
  // Nothing written: the close alone is the whole (empty) array.
  EXPECT_EQ(JsonArrayStream::OnePerLine(2).Close(), "[]");
  EXPECT_EQ(JsonArrayStream::OnOneLine().Close(), "[]");
}

TEST(JsonObjectWriter, OneMemberPerLineOrOnOneLine) {
  JsonObjectWriter lines(2);
  lines.Add("a", "1").Add("b\"", kJsonNull);
  EXPECT_EQ(lines.Finish(), "{\n    \"a\": 1,\n    \"b\\\"\": null\n  }");
  EXPECT_EQ(JsonObjectWriter().Finish(), "{}");
  EXPECT_EQ(JsonObjectWriter::OnOneLine().Add("a", "1").Add("b", JsonArray({"2"})).Finish(),
            R"({"a": 1, "b": [2]})");
  EXPECT_EQ(JsonObjectWriter::OnOneLine().Finish(), "{}");
  EXPECT_EQ(JsonKey("k\n"), R"("k\n": )");
}

TEST(JsonObjectWriter, FinishBeforeLastLeavesTheLastValueToTheCaller) {
  JsonObjectWriter o = JsonObjectWriter::OnOneLine();
  o.Add("file", JsonString("f"));
  JsonArrayStream rows = JsonArrayStream::OnOneLine();
  std::string out = o.FinishBeforeLast("rows");
  out += rows.Next() + "1";  // Next and Close in order: one statement each
  out += rows.Close() + "}";
  EXPECT_EQ(out, R"({"file": "f", "rows": [1]})");
  EXPECT_EQ(JsonObjectWriter::OnOneLine().FinishBeforeLast("x") + "[]}", R"({"x": []})");
}

}  // namespace
}  // namespace blockbloom_tools
