// SPDX-License-Identifier: Apache-2.0
// The C++ classes of both layouts are one class template per role over a
// layout policy (blockbloom.hpp, kudu.hpp): checked at compile time (the
// names are instantiations of the same templates; a layout's own members,
// constructors and hash type exist on its classes only, found by detection
// idioms that are shown to answer both ways), then at run time by one
// function template written once and run on both layouts.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "blockbloom/arrow.hpp"
#include "blockbloom/blockbloom.hpp"
#include "blockbloom/kudu.hpp"
#include "support/thrown_status.h"

namespace {

namespace bb = blockbloom;

// True when A and B are instantiations of one class template of two
// parameters (the layout and its constructor arguments).
template <class A, class B>
struct SameTemplate : std::false_type {};
template <template <class, class> class T, class L1, class A1, class L2, class A2>
struct SameTemplate<T<L1, A1>, T<L2, A2>> : std::true_type {};

static_assert(SameTemplate<bb::ConstView, bb::KuduConstView>::value);
static_assert(SameTemplate<bb::View, bb::KuduView>::value);
static_assert(SameTemplate<bb::Filter, bb::KuduFilter>::value);
// The trait can say no: the roles are different templates.
static_assert(!SameTemplate<bb::Filter, bb::KuduView>::value);
static_assert(!SameTemplate<bb::ConstView, bb::View>::value);
static_assert(std::is_same_v<bb::Filter, bb::BasicFilter<bb::ParquetLayout>>);
static_assert(std::is_same_v<bb::KuduFilter, bb::BasicFilter<bb::KuduLayout>>);
static_assert(std::is_same_v<bb::KuduConstView, bb::BasicConstView<bb::KuduLayout>>);

// The roles nest as before: an owned filter is a writable view is a view.
static_assert(std::is_base_of_v<bb::View, bb::Filter> &&
              std::is_base_of_v<bb::ConstView, bb::View>);
static_assert(std::is_base_of_v<bb::KuduView, bb::KuduFilter> &&
              std::is_base_of_v<bb::KuduConstView, bb::KuduView>);
static_assert(!std::is_base_of_v<bb::ConstView, bb::KuduFilter> &&
              !std::is_base_of_v<bb::KuduConstView, bb::Filter>);

// The hashes each layout takes.
static_assert(std::is_same_v<bb::Filter::hash_type, std::uint64_t>);
static_assert(std::is_same_v<bb::KuduFilter::hash_type, std::uint32_t>);

// Detection of a member (void_t): Has<Probe, T> is true when Probe<T> is well formed.
template <template <class> class Probe, class T, class = void>
struct Has : std::false_type {};
template <template <class> class Probe, class T>
struct Has<Probe, T, std::void_t<Probe<T>>> : std::true_type {};

template <class T>
using ToParquetBytes = decltype(std::declval<const T&>().to_parquet_bytes());
template <class T>
using ParquetInPlace = decltype(T::parquet_in_place(nullptr, std::size_t{0}));
template <class T>
using FromParquetBytes = decltype(T::from_parquet_bytes(nullptr, std::size_t{0}));
template <class T>
using ForNdvWithSizing = decltype(T::for_ndv(1, 0.01, bb::Sizing::parquet));
template <class T>
using ToDirectory = decltype(std::declval<const T&>().to_directory());
template <class T>
using HashSeed = decltype(std::declval<const T&>().hash_seed());
template <class T>
using AlwaysFalse = decltype(std::declval<const T&>().always_false());
template <class T>
using FromDirectory = decltype(T::from_directory(std::declval<const bb::KuduDirectory&>()));

// Parquet's own members: on the Parquet classes only.
static_assert(Has<ToParquetBytes, bb::ConstView>::value && Has<ToParquetBytes, bb::Filter>::value);
static_assert(!Has<ToParquetBytes, bb::KuduConstView>::value &&
              !Has<ToParquetBytes, bb::KuduFilter>::value);
static_assert(Has<ParquetInPlace, bb::ConstView>::value &&
              !Has<ParquetInPlace, bb::KuduConstView>::value);
static_assert(Has<FromParquetBytes, bb::Filter>::value &&
              !Has<FromParquetBytes, bb::KuduFilter>::value);
static_assert(Has<ForNdvWithSizing, bb::Filter>::value &&
              !Has<ForNdvWithSizing, bb::KuduFilter>::value);
// Kudu's own members: on the Kudu classes only.
static_assert(Has<ToDirectory, bb::KuduConstView>::value &&
              !Has<ToDirectory, bb::ConstView>::value);
static_assert(Has<HashSeed, bb::KuduFilter>::value && !Has<HashSeed, bb::Filter>::value);
static_assert(Has<AlwaysFalse, bb::KuduView>::value && !Has<AlwaysFalse, bb::View>::value);
static_assert(Has<FromDirectory, bb::KuduFilter>::value && !Has<FromDirectory, bb::Filter>::value);

// Each layout's constructor arguments, and no other layout's.
static_assert(std::is_constructible_v<bb::ConstView, const void*, std::size_t>);
static_assert(
    !std::is_constructible_v<bb::ConstView, const void*, std::size_t, bool, std::uint32_t>);
static_assert(
    std::is_constructible_v<bb::KuduConstView, const void*, std::size_t, bool, std::uint32_t>);
static_assert(!std::is_constructible_v<bb::KuduConstView, const void*, std::size_t>);
static_assert(std::is_constructible_v<bb::View, void*, std::size_t> &&
              !std::is_constructible_v<bb::View, const void*, std::size_t>);
static_assert(
    std::is_constructible_v<bb::KuduView, void*, std::size_t, bool, std::uint32_t> &&
    !std::is_constructible_v<bb::KuduView, const void*, std::size_t, bool, std::uint32_t>);
static_assert(
    std::is_constructible_v<bb::Filter, std::size_t, const bb_allocator&> &&
    !std::is_constructible_v<bb::Filter, std::size_t, std::uint32_t, const bb_allocator&>);
static_assert(
    std::is_constructible_v<bb::KuduFilter, std::int32_t> &&
    std::is_constructible_v<bb::KuduFilter, std::int32_t, std::uint32_t> &&
    std::is_constructible_v<bb::KuduFilter, std::int32_t, std::uint32_t, const bb_allocator&>);
// Owned filters move, never copy; the allocator must not be a temporary.
static_assert(std::is_nothrow_move_constructible_v<bb::Filter> &&
              !std::is_copy_constructible_v<bb::Filter> &&
              !std::is_copy_assignable_v<bb::KuduFilter>);
static_assert(
    !std::is_constructible_v<bb::KuduFilter, std::int32_t, std::uint32_t, bb_allocator&&>);
// A union never mixes layouts.
template <class A, class B>
using OrAssign = decltype(std::declval<A&>() |= std::declval<const B&>());
template <class T>
using OrKudu = OrAssign<T, bb::KuduConstView>;
template <class T>
using OrParquet = OrAssign<T, bb::ConstView>;
static_assert(Has<OrParquet, bb::Filter>::value && !Has<OrKudu, bb::Filter>::value);
static_assert(Has<OrKudu, bb::KuduFilter>::value && !Has<OrParquet, bb::KuduFilter>::value);

// One test body for any layout: written once against the templates.
template <class Layout>
void BuildProbeCombineMove(bb::BasicFilter<Layout> a, bb::BasicFilter<Layout> b) {
  using Hash = typename Layout::hash_type;
  std::vector<Hash> hashes;
  for (Hash i = 1; i <= 200; ++i) hashes.push_back(static_cast<Hash>(i * Hash{0x9E3779B1u}));
  a.insert_batch(hashes.data(), hashes.size());
  for (Hash h : hashes) EXPECT_TRUE(a.find(h));
  std::vector<std::uint8_t> bitmap((hashes.size() + 7) / 8);
  EXPECT_EQ(a.find_batch_bitmap(hashes.data(), hashes.size(), bitmap.data()), hashes.size());

  // b holds half the hashes: a | b == a, and b & a == b.
  b.insert_batch(hashes.data(), hashes.size() / 2);
  EXPECT_NE(a, b);
  bb::BasicFilter<Layout> united = bb::BasicFilter<Layout>::copy_of(b);
  united |= a;
  EXPECT_EQ(united, a);
  const bb::BasicFilter<Layout> half = bb::BasicFilter<Layout>::copy_of(b);
  b &= a;
  EXPECT_EQ(b, half);
  EXPECT_GT(a.bits_set(), half.bits_set());

  // A moved-from filter holds nothing and its operations throw.
  bb::BasicFilter<Layout> moved = std::move(a);
  EXPECT_TRUE(moved.find(hashes[0]));
  EXPECT_EQ(a.num_bytes(), 0u);  // NOLINT(bugprone-use-after-move): the state under test
  EXPECT_EQ(ThrownStatus([&] { a.find(hashes[0]); }), BB_ERR_NULL_POINTER);

  // A filter file of the layout reads back equal.
  const std::vector<std::uint8_t> file = moved.to_file_bytes(bb::ValueType::raw_hashes());
  EXPECT_EQ(bb::BasicFilter<Layout>::from_file_bytes(file.data(), file.size()), moved);
}

TEST(LayoutTemplate, OneBodyRunsOnTheParquetLayout) {
  BuildProbeCombineMove<bb::ParquetLayout>(bb::Filter(1024), bb::Filter(1024));
}

TEST(LayoutTemplate, OneBodyRunsOnTheKuduLayout) {
  BuildProbeCombineMove<bb::KuduLayout>(bb::KuduFilter(10, 7), bb::KuduFilter(10, 7));
}

// The size alone: the layout's other arguments are 0 (Kudu's seed).
TEST(LayoutTemplate, KuduSizeAloneHasSeedZero) {
  const bb::KuduFilter f(8);
  EXPECT_EQ(f.hash_seed(), 0u);
  EXPECT_EQ(f.log_space_bytes(), 8);
  EXPECT_TRUE(f.always_false());
}

// A filter file of the other layout is refused by each layout's load.
TEST(LayoutTemplate, EachLayoutRefusesTheOthersFile) {
  const std::vector<std::uint8_t> parquet =
      bb::Filter(64).to_file_bytes(bb::ValueType::raw_hashes());
  const std::vector<std::uint8_t> kudu =
      bb::KuduFilter(6).to_file_bytes(bb::ValueType::raw_hashes());
  EXPECT_EQ(ThrownStatus([&] { bb::KuduFilter::from_file_bytes(parquet.data(), parquet.size()); }),
            BB_ERR_LAYOUT_MISMATCH);
  EXPECT_EQ(ThrownStatus([&] { bb::Filter::from_file_bytes(kudu.data(), kudu.size()); }),
            BB_ERR_LAYOUT_MISMATCH);
}

// adopt, common to both layouts, takes over a C filter of its layout.
TEST(LayoutTemplate, KuduFilterAdoptsACFilter) {
  bb_filter c{};
  ASSERT_EQ(bb_kudu_filter_init(&c, 7, 3), BB_OK);
  ASSERT_EQ(bb_kudu_insert(&c, 42), BB_OK);
  const bb::KuduFilter f = bb::KuduFilter::adopt(&c);
  EXPECT_EQ(c.data, nullptr);
  EXPECT_TRUE(f.find(42));
  EXPECT_EQ(f.hash_seed(), 3u);
}

// arrow.hpp's C++ calls without a type take either layout's classes: the
// rows of an int32 array (one null) go in as the typed column of the same
// values does, and probe alike; a Parquet type is for Parquet classes only.
template <class T>
using ArrowTyped = decltype(bb::arrow::insert(
    std::declval<T&>(), std::declval<const bb_parquet_column&>(),
    std::declval<const ArrowSchema&>(), std::declval<const ArrowArray&>()));
static_assert(Has<ArrowTyped, bb::Filter>::value && !Has<ArrowTyped, bb::KuduFilter>::value);

// Not released: the test owns the buffers.
template <class T>
void NoRelease(T*) {}

template <class Layout>
void ArrowRowsAsTheTypedColumn(bb::BasicFilter<Layout> by_arrow,
                               bb::BasicFilter<Layout> by_column) {
  const std::int32_t values[5] = {3, -7, 11, 0, 42};
  const std::uint8_t validity[1] = {0x1B};  // row 2 null
  const void* buffers[2] = {validity, values};
  const ArrowArray array{5, 1, 0, 2, 0, buffers, nullptr, nullptr, NoRelease<ArrowArray>, nullptr};
  const ArrowSchema schema{
      "i", "", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr, NoRelease<ArrowSchema>, nullptr};
  bb::arrow::insert(by_arrow, schema, array);
  by_column.insert_column(bb::Column::of(values, 5).with_validity(validity, 0));
  EXPECT_EQ(by_arrow, by_column);
  EXPECT_GT(by_arrow.bits_set(), 0u);
  std::uint8_t bitmap[1] = {0};
  EXPECT_EQ(bb::arrow::find_bitmap(by_arrow, schema, array, bitmap), 4u);
  EXPECT_EQ(bitmap[0], 0x1B);
  std::uint32_t selection[5] = {};
  ASSERT_EQ(bb::arrow::find_select(by_arrow, schema, array, selection), 4u);
  EXPECT_EQ(selection[2], 3u);
}

TEST(LayoutTemplate, ArrowCallsTakeTheParquetClasses) {
  ArrowRowsAsTheTypedColumn<bb::ParquetLayout>(bb::Filter(256), bb::Filter(256));
}

TEST(LayoutTemplate, ArrowCallsTakeTheKuduClasses) {
  ArrowRowsAsTheTypedColumn<bb::KuduLayout>(bb::KuduFilter(8, 5), bb::KuduFilter(8, 5));
}

}  // namespace
