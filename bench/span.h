/*
 * The clock of bench/'s C helpers: wall and CPU time of a span of work,
 * printed as "wall_s user_s sys_s" (CPU of the whole process, all threads).
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

struct span {
	struct timespec wall;
	struct rusage cpu;
};

static void span_start(struct span *s)
{
	clock_gettime(CLOCK_MONOTONIC, &s->wall);
	getrusage(RUSAGE_SELF, &s->cpu);
}

static double tv_seconds(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

static void span_print(const struct span *s)
{
	struct span now;

	span_start(&now);
	printf("%.6f %.6f %.6f",
	       (now.wall.tv_sec - s->wall.tv_sec) + (now.wall.tv_nsec - s->wall.tv_nsec) / 1e9,
	       tv_seconds(now.cpu.ru_utime) - tv_seconds(s->cpu.ru_utime),
	       tv_seconds(now.cpu.ru_stime) - tv_seconds(s->cpu.ru_stime));
}
