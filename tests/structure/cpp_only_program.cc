// SPDX-License-Identifier: Apache-2.0
// A program written as a port of code that used Arrow's BlockSplitBloomFilter
// and Kudu's BlockBloomFilter would be, through the C++ headers alone (issue
// 22 item 6): cpp_only_check.py fails the suite if a C identifier of the
// library (the two-letter prefix and an underscore, either case) appears in
// this file, comments included. Exits 0 when every answer is the expected one.
#include <blockbloom/blockbloom.hpp>
#include <blockbloom/kudu.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void Expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

// Arrow: OptimalNumOfBytes(ndv, fpp), then one filter per worker, each
// inserting Hash(value) of its rows; the writer unions them and stores the
// filter in the file; a reader probes it.
void ArrowStyle() {
  const std::uint64_t ndv = 20000;
  const double fpp = 0.01;
  blockbloom::Filter worker_a = blockbloom::Filter::for_ndv(ndv, fpp);
  blockbloom::Filter worker_b = blockbloom::Filter::for_ndv(ndv, fpp);
  Expect(worker_a.max_ndv(fpp) >= ndv, "the sized filter holds ndv values at the target");

  for (std::int64_t id = 0; id < 10000; ++id) worker_a.insert(blockbloom::parquet_hash(id));
  for (std::int64_t id = 10000; id < 20000; ++id) worker_b.insert(blockbloom::parquet_hash(id));
  const std::vector<std::string> names = {"ada", "grace", "edsger"};
  for (const std::string& name : names) worker_b.insert(blockbloom::parquet_hash(name));
  worker_b.insert(blockbloom::parquet_hash(2.5));

  worker_a |= worker_b;  // the column chunk's filter
  const double estimated = worker_a.estimated_ndv();
  Expect(estimated > 19000.0 && estimated < 21500.0, "estimated_ndv is near what went in");

  const std::vector<std::uint8_t> stored = worker_a.to_parquet_bytes();
  const blockbloom::Filter read = blockbloom::Filter::from_parquet_bytes(stored.data(),
                                                                        stored.size());
  const blockbloom::ConstView in_place =
      blockbloom::ConstView::parquet_in_place(stored.data(), stored.size());
  Expect(read == worker_a && in_place == worker_a, "what was stored reads back");

  bool all_found = true;
  for (std::int64_t id = 0; id < 20000; ++id) {
    all_found = all_found && read.find(blockbloom::parquet_hash(id)) &&
                in_place.find(blockbloom::parquet_hash(id));
  }
  for (const std::string& name : names) all_found = all_found && read.find(blockbloom::parquet_hash(name));
  Expect(all_found && read.find(blockbloom::parquet_hash(2.5)), "no false negatives");

  std::uint64_t false_positives = 0;
  const std::int64_t probes = 100000;
  for (std::int64_t id = 1000000; id < 1000000 + probes; ++id) {
    false_positives += read.find(blockbloom::parquet_hash(id)) ? 1u : 0u;
  }
  const double measured = static_cast<double>(false_positives) / static_cast<double>(probes);
  Expect(measured <= 2 * fpp, "the false-positive rate is near the target");

  // A size only some readers accept is refused unless asked for.
  blockbloom::Filter odd = blockbloom::Filter::for_ndv(ndv, fpp, blockbloom::Sizing::parquet);
  bool refused = false;
  try {
    odd.to_parquet_bytes();
  } catch (const blockbloom::Error& e) {
    refused = e.status() < 0;
    std::printf("Parquet writer: %s\n", e.what());
  }
  Expect(refused && !odd.to_parquet_bytes_any_size().empty(), "odd sizes need _any_size");
  std::printf("Arrow-style: %zu bytes stored, measured FPP %.4f (target %.2f)\n", stored.size(),
              measured, fpp);
}

// Kudu: BlockBloomFilter::Init(MinLogSpace(ndv, fpp), FAST_HASH, seed),
// Insert(Hash(key)) per row, Or() of two filters, CopyToPB / InitFromPB,
// Find.
void KuduStyle() {
  const std::uint32_t seed = 42;
  blockbloom::KuduFilter left = blockbloom::KuduFilter::for_ndv(5000, 0.01, seed);
  blockbloom::KuduFilter right = blockbloom::KuduFilter::for_ndv(5000, 0.01, seed);
  Expect(left.always_false(), "a new Kudu filter is always-false");
  for (std::int32_t key = 0; key < 2500; ++key) left.insert(blockbloom::kudu_hash(key, seed));
  for (std::int32_t key = 2500; key < 5000; ++key) right.insert(blockbloom::kudu_hash(key, seed));
  left |= right;

  const blockbloom::KuduDirectory pb = left.to_directory();
  Expect(pb.hash_seed == seed && !pb.always_false &&
             pb.bloom_data.size() == std::size_t{1} << pb.log_space_bytes,
         "the directory's fields");
  const blockbloom::KuduFilter received = blockbloom::KuduFilter::from_directory(pb);
  bool all_found = received == left;
  for (std::int32_t key = 0; key < 5000; ++key) {
    all_found = all_found && received.find(blockbloom::kudu_hash(key, seed));
  }
  Expect(all_found, "the received Kudu filter finds every key");

  blockbloom::KuduDirectory foreign = pb;
  foreign.hash_algorithm = 1;  // not FAST_HASH
  bool refused = false;
  try {
    blockbloom::KuduFilter::from_directory(foreign);
  } catch (const blockbloom::Error& e) {
    refused = e.status() < 0;
    std::printf("Kudu import: %s\n", e.what());
  }
  Expect(refused, "a directory of another hash is refused");
  std::printf("Kudu-style: %zu-byte directory, log_space_bytes %d\n", pb.bloom_data.size(),
              static_cast<int>(pb.log_space_bytes));
}

}  // namespace

int main() {
  ArrowStyle();
  KuduStyle();
  std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
