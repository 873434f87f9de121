/*
 * proc-cpu: a library for LD_PRELOAD that tells, for every process of a
 * command, the CPU it used itself.  When a process exits it appends one
 * line to the file named by PROC_CPU_FILE:
 *
 *   PID PPID PROCESS_CPU_S THREAD_CPU_S ARGV...
 *
 * PROCESS_CPU_S is user + sys of all the process's threads, without its
 * children (getrusage RUSAGE_SELF); THREAD_CPU_S is the CPU of the thread
 * that calls exit, the main thread (CLOCK_THREAD_CPUTIME_ID).  bench/measure
 * and bench/serial-share use it to tell the main process of a checkout from
 * its workers.  One write() with O_APPEND per line: lines of processes
 * exiting together do not mix.  A process that ends in _exit() or by a
 * signal writes nothing.
 *
 * build: cc -O2 -shared -fPIC -o proc-cpu.so proc-cpu.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static char out_path[4096];
static char args[1024];

/* glibc passes main's arguments to the constructors of preloaded libraries */
__attribute__((constructor))
static void start(int argc, char **argv)
{
	const char *p = getenv("PROC_CPU_FILE");
	size_t len = 0;
	int i;

	if (!p || strlen(p) >= sizeof(out_path))
		return;
	strcpy(out_path, p);
	for (i = 0; i < argc && argv && argv[i]; i++) {
		int n = snprintf(args + len, sizeof(args) - len, " %s", argv[i]);
		if (n < 0 || (size_t)n >= sizeof(args) - len)
			break;
		len += n;
	}
	for (i = 0; args[i]; i++)
		if (args[i] == '\n')
			args[i] = ' ';
}

__attribute__((destructor))
static void finish(void)
{
	struct rusage ru;
	struct timespec ts;
	char line[sizeof(args) + 128];
	int fd, n;

	if (!*out_path || getrusage(RUSAGE_SELF, &ru) ||
	    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return;
	n = snprintf(line, sizeof(line), "%d %d %.6f %.6f%s\n",
		     (int)getpid(), (int)getppid(),
		     ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		     ts.tv_sec + ts.tv_nsec / 1e9, args);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	fd = open(out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, n) != n)
		n = 0; /* nothing to do about it at exit */
	close(fd);
}
