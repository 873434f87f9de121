/*
 * inflate-floor: the inflate half of the checkout floor.  Inflates pack
 * entries with libdeflate, one thread, each into one reused buffer of the
 * entry's size: no delta applied, no hashing, no output.  bench/floor gives
 * it every entry a checkout of the tree must inflate at the least (the
 * trees and blobs, and the delta bases of their chains), each once.
 *
 * usage: inflate-floor PACK HASHSZ <LIST
 *
 * LIST has one "OFFSET LENGTH" line per entry (LENGTH: the entry's bytes in
 * the pack, header included); HASHSZ is 20 (SHA-1) or 32 (SHA-256), the
 * size of a REF_DELTA base name.  The pack is read into memory before the
 * clock starts.  Prints one line: "wall_s user_s sys_s entries in_bytes
 * out_bytes".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "span.h"

struct entry {
	const unsigned char *zdata;
	size_t zlen, size;
};

static void die(const char *what)
{
	fprintf(stderr, "inflate-floor: %s%s%s\n", what, errno ? ": " : "",
		errno ? strerror(errno) : "");
	exit(1);
}

/* An entry's header: type and size, then a delta's base; e->zdata is where
 * the zlib stream starts. */
static void parse_header(struct entry *e, const unsigned char *p, size_t len, int hashsz)
{
	const unsigned char *end = p + len;
	unsigned type = (*p >> 4) & 7, shift = 4;

	e->size = *p & 15;
	while (*p++ & 0x80) {
		if (p >= end)
			die("truncated entry header");
		e->size |= (size_t)(*p & 0x7f) << shift;
		shift += 7;
	}
	if (type == 6)		/* OFS_DELTA: a varint offset */
		while (p < end && (*p++ & 0x80))
			;
	else if (type == 7)	/* REF_DELTA: the base's name */
		p += hashsz;
	if (p >= end)
		die("entry without data");
	e->zdata = p;
	e->zlen = end - p;
}

int main(int argc, char **argv)
{
	struct libdeflate_decompressor *d;
	struct span span;
	struct entry *entries = NULL;
	unsigned char *pack, *out;
	size_t nr = 0, alloc = 0, i, max = 1, in_bytes = 0, out_bytes = 0, size;
	unsigned long long off, len;
	int hashsz;

	if (argc != 3)
		die("usage: inflate-floor PACK HASHSZ <LIST");
	hashsz = atoi(argv[2]);
	pack = read_whole(argv[1], &size);
	if (!pack)
		die(argv[1]);

	while (scanf("%llu %llu", &off, &len) == 2) {
		if (off + len > (unsigned long long)size || !len)
			die("entry outside the pack");
		if (nr == alloc &&
		    !(entries = realloc(entries, (alloc = alloc ? 2 * alloc : 65536) * sizeof(*entries))))
			die("realloc");
		parse_header(&entries[nr], pack + off, len, hashsz);
		if (entries[nr].size > max)
			max = entries[nr].size;
		in_bytes += entries[nr].zlen;
		out_bytes += entries[nr].size;
		nr++;
	}
	out = malloc(max);
	d = libdeflate_alloc_decompressor();
	if (!out || !d)
		die("malloc");

	span_start(&span);
	for (i = 0; i < nr; i++) {
		size_t got;
		if (libdeflate_zlib_decompress(d, entries[i].zdata, entries[i].zlen,
					       out, entries[i].size, &got) != LIBDEFLATE_SUCCESS ||
		    got != entries[i].size) {
			errno = 0;
			die("an entry does not inflate to its size");
		}
	}
	span_print(&span);
	printf(" %zu %zu %zu\n", nr, in_bytes, out_bytes);
	return 0;
}
