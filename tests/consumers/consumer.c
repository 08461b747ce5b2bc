/* SPDX-License-Identifier: Apache-2.0 */
/* A C99 consumer of the installed blockbloom (tests/consumers/run_consumers.py):
 * inserts keys, finds every one of them, sees few of 10000 other keys, and
 * checks the version. usage: consumer EXPECTED_VERSION */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <blockbloom/blockbloom.h>

#if BB_VERSION_NUMBER != BB_VERSION_MAJOR * 10000 + BB_VERSION_MINOR * 100 + BB_VERSION_PATCH
#error "blockbloom/version.h is inconsistent"
#endif

#define NUM_KEYS 1000
#define NUM_OTHERS 10000

static uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

int main(int argc, char** argv) {
  uint64_t keys[NUM_KEYS];
  uint64_t state = 1;
  uint8_t bitmap[(NUM_KEYS + 7) / 8];
  size_t hits = 0;
  size_t false_positives = 0;
  size_t i;
  bb_filter f;
  int status;

  if (argc != 2) {
    fprintf(stderr, "usage: %s EXPECTED_VERSION\n", argv[0]);
    return 2;
  }
  if (strcmp(bb_version(), argv[1]) != 0 || strcmp(bb_version(), BB_VERSION_STRING) != 0) {
    fprintf(stderr, "version: library %s, header %s, expected %s\n", bb_version(),
            BB_VERSION_STRING, argv[1]);
    return 1;
  }
  for (i = 0; i < NUM_KEYS; ++i) keys[i] = splitmix64(&state);

  status = bb_filter_init(&f, 16384);
  if (status != BB_OK) {
    fprintf(stderr, "bb_filter_init: %s\n", bb_status_message(status));
    return 1;
  }
  if (bb_insert(&f, keys[0]) != BB_OK || bb_insert_batch(&f, keys + 1, NUM_KEYS - 1) != BB_OK) {
    fprintf(stderr, "insert failed\n");
    return 1;
  }
  for (i = 0; i < NUM_KEYS; ++i) {
    if (bb_find(&f, keys[i]) != 1) {
      fprintf(stderr, "inserted key %lu not found\n", (unsigned long)i);
      return 1;
    }
  }
  status = bb_find_batch_bitmap(&f, keys, NUM_KEYS, bitmap, &hits);
  if (status != BB_OK || hits != NUM_KEYS) {
    fprintf(stderr, "bb_find_batch_bitmap: status %d, %lu hits\n", status, (unsigned long)hits);
    return 1;
  }
  for (i = 0; i < NUM_OTHERS; ++i) {
    if (bb_find(&f, splitmix64(&state)) > 0) ++false_positives;
  }
  /* 16 KiB for 1000 keys: an FPP far below 1%; 2% of 10000 is a wide margin. */
  if (false_positives > NUM_OTHERS / 50) {
    fprintf(stderr, "%lu of %d other keys found\n", (unsigned long)false_positives, NUM_OTHERS);
    return 1;
  }
  bb_filter_release(&f);
  if (bb_filter_init(&f, 100) != BB_ERR_SIZE_NOT_MULTIPLE_OF_32) {
    fprintf(stderr, "a 100-byte filter was not refused\n");
    return 1;
  }
  printf("c99 consumer: blockbloom %s (selected ISA %s): %d keys found, %lu of %d others\n",
         bb_version(), bb_selected_isa(), NUM_KEYS, (unsigned long)false_positives,
         NUM_OTHERS);
  return 0;
}
