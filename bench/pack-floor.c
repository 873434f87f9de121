/*
 * pack-floor: the floor of index-pack, the work no indexer of this pack
 * can skip, in one thread: every entry's stream inflated once (whole
 * buffer, libdeflate), every delta applied once, every object hashed once
 * with collision detection (the series' sha1dc, with the SIMD path this
 * processor has) and, as the limit of hashing, once with OpenSSL's plain
 * SHA-1; the CRC-32 of every entry and the pack's trailing checksum.
 * Nothing is written.  bench/index-pack-scaling divides it over threads.
 *
 * usage: pack-floor PACK
 *
 * The pack is read into memory before any clock starts.  Deltas must be
 * OFS_DELTA (what pack-objects --delta-base-offset and every clone write).
 * Bases are resolved depth first, a base kept only while its deltas are
 * applied.  Each kind of work is timed on its own (CLOCK_MONOTONIC around
 * each call, one thread: run it on a quiet machine).  Prints one line of
 * JSON: the counts, and the seconds of each kind of work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "span.h"
#include "sha1.h"
#include "sha1_simd.h"

enum { OBJ_COMMIT = 1, OBJ_TREE, OBJ_BLOB, OBJ_TAG, OBJ_OFS_DELTA = 6, OBJ_REF_DELTA };

struct entry {
	size_t offset, size;	/* where it starts; its inflated size */
	size_t base;		/* a delta's base entry */
	size_t first_child;	/* deltas on it: a list through next_sibling */
	size_t next_sibling;
	unsigned char *data;	/* what its stream inflates to */
	int type;
};

#define NONE ((size_t)-1)

static struct {
	double inflate, crc32, packsum, delta, sha1dc, sha1;
} secs;
static size_t nr_objects, nr_deltas, object_bytes, inflated_bytes, max_depth;
static int collisions;

static void die(const char *what)
{
	fprintf(stderr, "pack-floor: %s%s%s\n", what, errno ? ": " : "",
		errno ? strerror(errno) : "");
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("malloc");
	return p;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* A delta's header: the sizes of base and result. */
static size_t delta_varint(const unsigned char **p, const unsigned char *end)
{
	size_t v = 0;
	int shift = 0;

	do {
		if (*p >= end || shift > 56)
			die("bad delta header");
		v |= (size_t)(**p & 0x7f) << shift;
		shift += 7;
	} while (*(*p)++ & 0x80);
	return v;
}

/* Apply "delta" (len bytes) to base (base_len); the result is malloc'd. */
static unsigned char *apply_delta(const unsigned char *base, size_t base_len,
				  const unsigned char *delta, size_t len,
				  size_t *out_len)
{
	const unsigned char *p = delta, *end = delta + len;
	unsigned char *out, *o, *oend;
	size_t size;

	if (delta_varint(&p, end) != base_len)
		die("delta for a base of another size");
	size = delta_varint(&p, end);
	o = out = xmalloc(size);
	oend = out + size;
	while (p < end) {
		unsigned op = *p++;

		if (op & 0x80) {
			size_t off = 0, n = 0;
			int i;

			for (i = 0; i < 4; i++)
				if (op & (1u << i)) {
					if (p >= end)
						die("truncated copy");
					off |= (size_t)*p++ << (8 * i);
				}
			for (i = 0; i < 3; i++)
				if (op & (0x10u << i)) {
					if (p >= end)
						die("truncated copy");
					n |= (size_t)*p++ << (8 * i);
				}
			if (!n)
				n = 0x10000;
			if (off > base_len || n > base_len - off || n > (size_t)(oend - o))
				die("copy out of bounds");
			memcpy(o, base + off, n);
			o += n;
		} else if (op) {
			if (op > (size_t)(end - p) || op > (size_t)(oend - o))
				die("insert out of bounds");
			memcpy(o, p, op);
			o += op;
			p += op;
		} else {
			die("delta opcode 0");
		}
	}
	if (o != oend)
		die("delta result of the wrong size");
	*out_len = size;
	return out;
}

static void hash_object(int type, const unsigned char *data, size_t size)
{
	static const char *names[] = { "", "commit", "tree", "blob", "tag" };
	unsigned char hdr[32], dc[20], plain[20];
	int hdrlen = snprintf((char *)hdr, sizeof(hdr), "%s %zu", names[type], size) + 1;
	SHA1_CTX ctx;
	SHA_CTX sctx;
	double t0 = now(), t1, t2;

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)hdr, hdrlen);
	SHA1DCUpdate(&ctx, (const char *)data, size);
	collisions += SHA1DCFinal(dc, &ctx);
	t1 = now();
	SHA1_Init(&sctx);
	SHA1_Update(&sctx, hdr, hdrlen);
	SHA1_Update(&sctx, data, size);
	SHA1_Final(plain, &sctx);
	t2 = now();
	if (memcmp(dc, plain, 20))
		die("sha1dc and OpenSSL disagree");
	secs.sha1dc += t1 - t0;
	secs.sha1 += t2 - t1;
	nr_objects++;
	object_bytes += size;
}

/* Hash the object of entry e (data, size), then resolve its deltas. */
static void resolve(struct entry *entries, size_t e, int type,
		    const unsigned char *data, size_t size, size_t depth)
{
	size_t c;

	hash_object(type, data, size);
	if (depth > max_depth)
		max_depth = depth;
	for (c = entries[e].first_child; c != NONE; c = entries[c].next_sibling) {
		size_t len;
		double t0 = now();
		unsigned char *obj = apply_delta(data, size, entries[c].data,
						 entries[c].size, &len);

		secs.delta += now() - t0;
		nr_deltas++;
		free(entries[c].data);
		entries[c].data = NULL;
		resolve(entries, c, type, obj, len, depth + 1);
		free(obj);
	}
}

int main(int argc, char **argv)
{
	struct libdeflate_decompressor *d;
	struct entry *entries;
	unsigned char *pack, trailer[20];
	size_t nr, i, size, pos = 12, end, lo, hi;
	uint32_t crc = 0;
	double t0;

	if (argc != 2)
		die("usage: pack-floor PACK");
	pack = read_whole(argv[1], &size);
	if (!pack)
		die(argv[1]);
	errno = 0;
	if (size < 32)
		die("not a pack");
	if (memcmp(pack, "PACK", 4) || (be32(pack + 4) != 2 && be32(pack + 4) != 3))
		die("not a pack of version 2 or 3");
	nr = be32(pack + 8);
	end = size - 20;
	entries = xmalloc(nr * sizeof(*entries));
	d = libdeflate_alloc_decompressor();
	if (!d)
		die("libdeflate_alloc_decompressor");

	/* every stream, inflated once, in pack order */
	t0 = now();
	for (i = 0; i < nr; i++) {
		struct entry *e = &entries[i];
		const unsigned char *p = pack + pos;
		size_t in;
		unsigned shift = 4;

		if (pos >= end)
			die("truncated pack");
		e->offset = pos;
		e->type = (*p >> 4) & 7;
		e->size = *p & 15;
		e->first_child = e->next_sibling = e->base = NONE;
		while (*p++ & 0x80) {
			if (p >= pack + end || shift > 57)
				die("bad entry header");
			e->size |= (size_t)(*p & 0x7f) << shift;
			shift += 7;
		}
		if (e->type == OBJ_OFS_DELTA) {
			size_t back = *p & 0x7f;

			while (*p++ & 0x80) {
				if (p >= pack + end)
					die("bad delta offset");
				back = ((back + 1) << 7) | (*p & 0x7f);
			}
			if (!back || back > pos)
				die("delta base outside the pack");
			e->base = pos - back;
		} else if (e->type == OBJ_REF_DELTA) {
			die("REF_DELTA: give a pack written with --delta-base-offset");
		} else if (e->type < OBJ_COMMIT || e->type > OBJ_TAG) {
			die("bad object type");
		}
		e->data = xmalloc(e->size);
		if (libdeflate_zlib_decompress_ex(d, p, pack + end - p, e->data,
						  e->size, &in, NULL) != LIBDEFLATE_SUCCESS)
			die("a stream does not inflate to its size");
		inflated_bytes += e->size;
		pos = p + in - pack;
	}
	secs.inflate = now() - t0;
	if (pos != end)
		die("garbage after the last entry");

	t0 = now();
	for (i = 0; i < nr; i++) {
		size_t next = i + 1 < nr ? entries[i + 1].offset : end;

		crc ^= (uint32_t)libdeflate_crc32(0, pack + entries[i].offset,
						  next - entries[i].offset);
	}
	secs.crc32 = now() - t0;

	t0 = now();
	SHA1(pack, end, trailer);
	secs.packsum = now() - t0;
	if (memcmp(trailer, pack + end, 20))
		die("the pack's checksum does not match");

	/* each delta's base by its offset; children listed in pack order */
	for (i = nr; i-- > 0;) {
		if (entries[i].type != OBJ_OFS_DELTA)
			continue;
		lo = 0;
		hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (entries[mid].offset < entries[i].base)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == i || entries[lo].offset != entries[i].base)
			die("delta base is not an entry");
		entries[i].base = lo;
		entries[i].next_sibling = entries[lo].first_child;
		entries[lo].first_child = i;
	}

	for (i = 0; i < nr; i++) {
		if (entries[i].type == OBJ_OFS_DELTA)
			continue;
		resolve(entries, i, entries[i].type, entries[i].data,
			entries[i].size, 0);
		free(entries[i].data);
	}
	if (nr_objects != nr)
		die("some deltas were not reached from a base");

	printf("{\"entries\": %zu, \"deltas\": %zu, \"pack_bytes\": %zu, "
	       "\"inflated_bytes\": %zu, \"object_bytes\": %zu, \"max_depth\": %zu, "
	       "\"collisions\": %d, \"sha1dc_path\": \"%s\", "
	       "\"inflate\": %.6f, \"crc32\": %.6f, \"packsum\": %.6f, "
	       "\"delta\": %.6f, \"sha1dc\": %.6f, \"sha1\": %.6f, \"crc\": \"%08x\"}\n",
	       nr, nr_deltas, size, inflated_bytes, object_bytes,
	       max_depth, collisions,
	       sha1dc_simd_get() ? sha1dc_simd_get()->name : "portable",
	       secs.inflate, secs.crc32, secs.packsum, secs.delta, secs.sha1dc,
	       secs.sha1, crc);
	return 0;
}
