// The deflate the WARC would have with a native library: the system's zlib at level 1 (one stream,
// reset between records, as the archive's GzipDeflater does) against libdeflate at levels 1 to 3, in
// C, on the response records that `bench/deflate.ts --records-out` writes. Not part of the build: it
// answers whether a faster deflate than the one node:zlib has would meet issue 11's bound.
//
//   git clone https://github.com/ebiggers/libdeflate /tmp/libdeflate      # measured at 28e88e9
//   gcc -O2 -I/tmp/libdeflate bench/deflate-native.c /tmp/libdeflate/lib/*.c /tmp/libdeflate/lib/x86/*.c -lz -o /tmp/deflate-native
//   npx tsx bench/deflate.ts --records-out /tmp/records.bin && /tmp/deflate-native /tmp/records.bin
//
// (zlib's header from the zlib1g-dev package.) Prints CPU microseconds a record and the compressed share.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "libdeflate.h"

enum { ROUNDS = 50, MAX_RECORDS = 10000 };

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s RECORDS-FILE (from bench/deflate.ts --records-out)\n", argv[0]);
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (file == NULL) {
    perror(argv[1]);
    return 1;
  }
  static unsigned char *records[MAX_RECORDS];
  static uint32_t lengths[MAX_RECORDS];
  size_t count = 0, total = 0, largest = 0;
  unsigned char prefix[4];
  while (count < MAX_RECORDS && fread(prefix, 1, 4, file) == 4) {
    uint32_t n = prefix[0] | prefix[1] << 8 | prefix[2] << 16 | (uint32_t)prefix[3] << 24;
    records[count] = malloc(n);
    if (records[count] == NULL || fread(records[count], 1, n, file) != n) {
      fprintf(stderr, "%s: a record is cut short\n", argv[1]);
      return 1;
    }
    lengths[count++] = n;
    total += n;
    if (n > largest) largest = n;
  }
  fclose(file);
  size_t room = largest + largest / 8 + 1024;
  unsigned char *out = malloc(room);

  z_stream z;
  memset(&z, 0, sizeof z);
  deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  size_t made = 0;
  double start = cpu_seconds();
  for (int r = 0; r < ROUNDS; r++) {
    for (size_t i = 0; i < count; i++) {
      deflateReset(&z);
      z.next_in = records[i];
      z.avail_in = lengths[i];
      z.next_out = out;
      z.avail_out = room;
      deflate(&z, Z_FINISH);
      made += z.total_out;
    }
  }
  printf("%zu records of %.0f bytes on average\n", count, (double)total / count);
  printf("  zlib %s, level 1        %6.1f us a record, %.1f %% of its size\n", zlibVersion(),
         (cpu_seconds() - start) / (ROUNDS * count) * 1e6, 100.0 * made / (ROUNDS * total));
  deflateEnd(&z);

  for (int level = 1; level <= 3; level++) {
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);
    made = 0;
    start = cpu_seconds();
    for (int r = 0; r < ROUNDS; r++)
      for (size_t i = 0; i < count; i++) made += libdeflate_gzip_compress(c, records[i], lengths[i], out, room);
    printf("  libdeflate %s, level %d  %6.1f us a record, %.1f %% of its size\n", LIBDEFLATE_VERSION_STRING, level,
           (cpu_seconds() - start) / (ROUNDS * count) * 1e6, 100.0 * made / (ROUNDS * total));
    libdeflate_free_compressor(c);
  }
  return 0;
}
