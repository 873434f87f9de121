/*
 * write-floor: the write half of the checkout floor.  Creates the files of
 * a tree from memory, the way a checkout must at the least: the directories
 * first (one thread), then every file with open(O_CREAT|O_EXCL), write,
 * fstat (git records the stat data in the index) and close, and every
 * symlink with symlink(), spread over THREADS threads that take entries in
 * chunks from a shared counter.  No hashing, no inflating, no index.
 *
 * usage: write-floor THREADS DESTDIR STREAM
 *
 * STREAM (made by bench/blob-stream) holds, per entry, "MODE SIZE PATH\0"
 * followed by SIZE bytes of content (the link target for mode 120000).
 * It is read into memory before the clock starts.  DESTDIR must not exist.
 * Prints one line: "wall_s user_s sys_s files bytes".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "span.h"

struct entry {
	unsigned mode;
	size_t size;
	const char *path;
	const char *data;
};

static struct entry *entries;
static size_t nr_entries;
static atomic_size_t next_entry;
#define CHUNK 32

static void die(const char *what, const char *path)
{
	fprintf(stderr, "write-floor: %s %s: %s\n", what, path ? path : "", strerror(errno));
	exit(1);
}

static void write_entry(const struct entry *e)
{
	struct stat st;
	const char *p = e->data;
	size_t left = e->size;
	int fd;

	if (e->mode == 0120000) {
		char *target = strndup(e->data, e->size);
		if (!target || symlink(target, e->path))
			die("symlink", e->path);
		free(target);
		return;
	}
	fd = open(e->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  (e->mode & 0100) ? 0777 : 0666);
	if (fd < 0)
		die("open", e->path);
	while (left) {
		ssize_t n = write(fd, p, left);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("write", e->path);
		}
		p += n;
		left -= n;
	}
	if (fstat(fd, &st))
		die("fstat", e->path);
	if (close(fd))
		die("close", e->path);
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		size_t i = atomic_fetch_add(&next_entry, CHUNK), end = i + CHUNK;
		if (i >= nr_entries)
			return NULL;
		if (end > nr_entries)
			end = nr_entries;
		for (; i < end; i++)
			write_entry(&entries[i]);
	}
}

/* mkdir every leading directory of path that prev (the previous entry's
 * path) did not already have: entries come in tree order. */
static void make_leading_dirs(const char *path, const char *prev)
{
	size_t common = 0, i;
	char buf[4096];

	if (prev) {
		while (path[common] && path[common] == prev[common])
			common++;
		while (common && path[common - 1] != '/')
			common--;
	}
	for (i = common; path[i]; i++) {
		if (path[i] != '/')
			continue;
		if (i >= sizeof(buf))
			die("path too long", path);
		memcpy(buf, path, i);
		buf[i] = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			die("mkdir", buf);
	}
}

int main(int argc, char **argv)
{
	struct span span;
	char *buf, *p, *end;
	size_t cap, len = 0, alloc = 0, bytes = 0, i;
	pthread_t *threads;
	int nthreads, fd;
	const char *prev = NULL;

	if (argc != 4) {
		fprintf(stderr, "usage: write-floor THREADS DESTDIR STREAM\n");
		return 2;
	}
	nthreads = atoi(argv[1]);
	if (nthreads < 1)
		nthreads = 1;

	fd = open(argv[3], O_RDONLY);
	if (fd < 0)
		die("open", argv[3]);
	cap = 1 << 24;
	buf = malloc(cap);
	for (;;) {
		ssize_t n;
		if (len == cap && !(buf = realloc(buf, cap *= 2)))
			die("realloc", NULL);
		n = read(fd, buf + len, cap - len);
		if (n < 0)
			die("read", argv[3]);
		if (!n)
			break;
		len += n;
	}
	close(fd);

	for (p = buf, end = buf + len; p < end; ) {
		struct entry e;
		char *nul = memchr(p, '\0', end - p), *path;
		if (!nul || sscanf(p, "%o %zu", &e.mode, &e.size) != 2 ||
		    !(path = strchr(p, ' ')) || !(path = strchr(path + 1, ' ')))
			die("malformed stream", argv[3]);
		e.path = path + 1;
		e.data = nul + 1;
		if ((size_t)(end - e.data) < e.size)
			die("truncated stream", argv[3]);
		p = nul + 1 + e.size;
		if (nr_entries == alloc &&
		    !(entries = realloc(entries, (alloc = alloc ? 2 * alloc : 65536) * sizeof(*entries))))
			die("realloc", NULL);
		entries[nr_entries++] = e;
		bytes += e.size;
	}

	if (mkdir(argv[2], 0777) || chdir(argv[2]))
		die("mkdir", argv[2]);
	threads = calloc(nthreads, sizeof(*threads));

	span_start(&span);
	for (i = 0; i < nr_entries; i++) {
		make_leading_dirs(entries[i].path, prev);
		prev = entries[i].path;
	}
	for (i = 0; i < (size_t)nthreads; i++)
		if (pthread_create(&threads[i], NULL, worker, NULL))
			die("pthread_create", NULL);
	for (i = 0; i < (size_t)nthreads; i++)
		pthread_join(threads[i], NULL);
	span_print(&span);
	printf(" %zu %zu\n", nr_entries, bytes);
	return 0;
}
