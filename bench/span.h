/*
 * The clock of bench/'s C helpers: wall and CPU time of a span of work,
 * printed as "wall_s user_s sys_s" (CPU of the whole process, all threads);
 * and read_whole(), which reads their input into memory before any clock
 * starts.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The file at path in a buffer of malloc(), its size in *size; NULL on an error. */
static inline unsigned char *read_whole(const char *path, size_t *size)
{
	unsigned char *buf = NULL;
	struct stat st;
	size_t done = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) || !(buf = malloc(st.st_size ? st.st_size : 1)))
		goto fail;
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, st.st_size - done);

		if (n <= 0)
			goto fail;
		done += n;
	}
	close(fd);
	*size = done;
	return buf;
fail:
	free(buf);
	if (fd >= 0)
		close(fd);
	return NULL;
}

struct span {
	struct timespec wall;
	struct rusage cpu;
};

static inline void span_start(struct span *s)
{
	clock_gettime(CLOCK_MONOTONIC, &s->wall);
	getrusage(RUSAGE_SELF, &s->cpu);
}

static inline double tv_seconds(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static inline void span_print(const struct span *s)
{
	struct span now;

	span_start(&now);
	printf("%.6f %.6f %.6f",
	       (now.wall.tv_sec - s->wall.tv_sec) + (now.wall.tv_nsec - s->wall.tv_nsec) / 1e9,
	       tv_seconds(now.cpu.ru_utime) - tv_seconds(s->cpu.ru_utime),
	       tv_seconds(now.cpu.ru_stime) - tv_seconds(s->cpu.ru_stime));
}
