/* SPDX-License-Identifier: Apache-2.0 */
/* A timed probe (tests/consumers/run_consumers.py): the same program built in
 * Meson parent projects of every build type and against the installed
 * library, so that their timings can be compared. It inserts NUM_VALUES / 2 int64
 * values into a 1 MiB filter and times bb_find_column_bitmap of an int64
 * column (XXH64 hashing and probing: the kernels and the hot API path, one call) over
 * NUM_VALUES values, half of them inserted, REPEATS times. The minimum of the
 * repeats is printed (noise only ever adds time):
 *   timed_probe: min_ns_per_value=<float> hits=<n>
 * and the hits are checked (every inserted value found). The loop's own code
 * is one call per repeat, so the consumer's build type does not matter. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <blockbloom/blockbloom.h>
#include <blockbloom/column.h>

#define NUM_VALUES (1u << 21)
#define REPEATS 21

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(void) {
  int64_t* inserted = malloc(NUM_VALUES / 2 * sizeof(int64_t));
  int64_t* probed = malloc(NUM_VALUES * sizeof(int64_t));
  uint8_t* bitmap = malloc(NUM_VALUES / 8);
  double best = -1.0;
  size_t hits = 0;
  size_t i;
  int r;
  bb_filter f;
  bb_column keys = BB_COLUMN_INIT;
  bb_column column = BB_COLUMN_INIT;

  if (inserted == NULL || probed == NULL || bitmap == NULL) return 1;
  for (i = 0; i < NUM_VALUES / 2; ++i) inserted[i] = (int64_t)(i * 2654435761u);
  /* Even rows: inserted values; odd rows: values never inserted. */
  for (i = 0; i < NUM_VALUES; ++i) {
    probed[i] = (i % 2 == 0) ? inserted[i / 2] : -(int64_t)i - 1;
  }
  if (bb_filter_init(&f, 1024 * 1024) != BB_OK) return 1;
  keys.type = BB_TYPE_INT64;
  keys.length = NUM_VALUES / 2;
  keys.values = inserted;
  column.type = BB_TYPE_INT64;
  column.length = NUM_VALUES;
  column.values = probed;
  if (bb_insert_column(&f, &keys) != BB_OK) return 1;
  for (r = 0; r < REPEATS; ++r) {
    const double start = now_ns();
    const int status = bb_find_column_bitmap(&f, &column, bitmap, &hits);
    const double elapsed = now_ns() - start;
    if (status != BB_OK) {
      fprintf(stderr, "bb_find_column_bitmap: %s\n", bb_status_message(status));
      return 1;
    }
    if (best < 0 || elapsed < best) best = elapsed;
  }
  if (hits < NUM_VALUES / 2) {
    fprintf(stderr, "only %lu of the %u inserted values found\n", (unsigned long)hits,
            NUM_VALUES / 2);
    return 1;
  }
  printf("timed_probe: min_ns_per_value=%.4f hits=%lu\n", best / NUM_VALUES, (unsigned long)hits);
  bb_filter_release(&f);
  free(inserted);
  free(probed);
  free(bitmap);
  return 0;
}
