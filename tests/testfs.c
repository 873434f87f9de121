/*
 * testfs: a FUSE passthrough filesystem, a fixture for tests.
 *
 *   testfs [--casefold] [--delay-us=N] [--threads=N] [--time-gran=NS]
 *          BACKING_DIR MOUNTPOINT [FUSE options]
 *
 * Mirrors BACKING_DIR on MOUNTPOINT.  With --casefold, names are looked
 * up ignoring ASCII case and stored as created, like the defaults of
 * APFS and NTFS, so that git's code for case-insensitive filesystems
 * (core.ignoreCase, collision detection, symlink checks) can be tested
 * on Linux.  With --delay-us=N, every operation first sleeps N
 * microseconds, to stand in for a network filesystem; the FUSE loop is
 * multi-threaded, so the delays of parallel clients overlap.  It runs up
 * to --threads=N threads (default 128): fuse_main() stops at 10, which
 * would queue the requests of more than 10 clients behind each other.
 * With --time-gran=NS, file times are rounded down to NS nanoseconds,
 * like a filesystem with coarser timestamps (10000000: 10 ms, as exFAT;
 * 1000000000: whole seconds).
 *
 * Every access to the backing directory goes through *at() calls on
 * directories opened one component at a time with O_NOFOLLOW, so a
 * symbolic link in the backing directory is never followed there: the
 * kernel follows the links it is given, as on any filesystem.
 *
 * Build: cc -O2 -Wall testfs.c $(pkg-config --cflags --libs fuse3)
 */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

static int base = -1;		/* the backing directory, O_PATH */
static int casefold;
static unsigned int delay_us;
static unsigned int time_gran;	/* nanoseconds; 0 or 1: as stored */

static void delay(void)
{
	struct timespec ts = {
		.tv_sec = delay_us / 1000000,
		.tv_nsec = (long)(delay_us % 1000000) * 1000,
	};

	if (delay_us)
		while (nanosleep(&ts, &ts) && errno == EINTR)
			; /* sleep the rest */
}

/* Where a path lives in the backing directory: a directory and a name. */
struct loc {
	int dir;
	char name[NAME_MAX + 1];
};

/*
 * Copy into "out" the name under which "name" is stored in "dir": the
 * name itself if it exists (or without --casefold), else the first entry
 * that matches it ignoring ASCII case, else the name itself (to create).
 */
static int fold(int dir, const char *name, size_t len, char *out)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd;

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(out, name, len);
	out[len] = '\0';
	if (!casefold || !fstatat(dir, out, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	fd = openat(dir, ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d)))
		if (!strcasecmp(de->d_name, out)) {
			strcpy(out, de->d_name);
			break;
		}
	closedir(d);
	return 0;
}

/* Resolve "path" (from FUSE, "/a/b/c") to l; undo with close(l->dir). */
static int locate(const char *path, struct loc *l)
{
	const char *p = path + strspn(path, "/"), *end;
	int fd, next, ret;

	fd = openat(base, ".", O_PATH | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	strcpy(l->name, ".");
	while (*p) {
		end = strchrnul(p, '/');
		ret = fold(fd, p, end - p, l->name);
		if (ret < 0)
			goto fail;
		p = end + strspn(end, "/");
		if (!*p)
			break;
		/* an intermediate component: must be a real directory */
		next = openat(fd, l->name, O_PATH | O_DIRECTORY | O_NOFOLLOW);
		if (next < 0) {
			ret = errno == ELOOP ? -ENOTDIR : -errno;
			goto fail;
		}
		close(fd);
		fd = next;
	}
	l->dir = fd;
	return 0;
fail:
	close(fd);
	return ret;
}

/* Return -errno if the system call just made failed, else 0. */
static int done(int ret, struct loc *l)
{
	int err = ret < 0 ? -errno : 0;

	if (l)
		close(l->dir);
	return err;
}

#define LOCATE(path, l) do { \
	int err_ = locate((path), (l)); \
	if (err_) \
		return err_; \
} while (0)

static void coarsen(struct timespec *ts)
{
	if (time_gran >= 1000000000)
		ts->tv_nsec = 0;
	else if (time_gran > 1)
		ts->tv_nsec -= ts->tv_nsec % time_gran;
}

static void *tfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* lookups and readdir in one directory at once, as NFS does */
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	/* the times the kernel makes up itself, too */
	if (time_gran > 1)
		conn->time_gran = time_gran;
	cfg->use_ino = 1;	/* st_ino from the backing files */
	cfg->hard_remove = 1;	/* no .fuse_hidden files */
	/* never let the kernel cache a name or its absence */
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static int tfs_getattr(const char *path, struct stat *st,
		       struct fuse_file_info *fi)
{
	struct loc l;

	int err;

	delay();
	if (fi) {
		err = done(fstat(fi->fh, st), NULL);
	} else {
		LOCATE(path, &l);
		err = done(fstatat(l.dir, l.name, st, AT_SYMLINK_NOFOLLOW), &l);
	}
	coarsen(&st->st_atim);
	coarsen(&st->st_mtim);
	coarsen(&st->st_ctim);
	return err;
}

static int tfs_access(const char *path, int mask)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(faccessat(l.dir, l.name, mask, AT_SYMLINK_NOFOLLOW), &l);
}

static int tfs_readlink(const char *path, char *buf, size_t size)
{
	struct loc l;
	ssize_t n;

	delay();
	LOCATE(path, &l);
	n = readlinkat(l.dir, l.name, buf, size - 1);
	if (n >= 0)
		buf[n] = '\0';
	return done(n, &l);
}

static int tfs_readdir(const char *path, void *buf, fuse_fill_dir_t filler,
		       off_t offset, struct fuse_file_info *fi,
		       enum fuse_readdir_flags flags)
{
	struct dirent *de;
	struct loc l;
	DIR *d;
	int fd;

	(void)offset;
	(void)fi;
	(void)flags;
	delay();
	LOCATE(path, &l);
	fd = openat(l.dir, l.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return done(fd, &l);
	close(l.dir);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		struct stat st = {
			.st_ino = de->d_ino,
			.st_mode = DTTOIF(de->d_type),
		};

		if (filler(buf, de->d_name, &st, 0, 0))
			break;
	}
	closedir(d);
	return 0;
}

static int tfs_mknod(const char *path, mode_t mode, dev_t rdev)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(mknodat(l.dir, l.name, mode, rdev), &l);
}

static int tfs_mkdir(const char *path, mode_t mode)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(mkdirat(l.dir, l.name, mode), &l);
}

static int tfs_symlink(const char *target, const char *path)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(symlinkat(target, l.dir, l.name), &l);
}

static int tfs_unlink(const char *path)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(unlinkat(l.dir, l.name, 0), &l);
}

static int tfs_rmdir(const char *path)
{
	struct loc l;

	delay();
	LOCATE(path, &l);
	return done(unlinkat(l.dir, l.name, AT_REMOVEDIR), &l);
}

static int same_dir(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) &&
		sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int tfs_rename(const char *from, const char *to, unsigned int flags)
{
	struct loc f, t;
	int ret;

	delay();
	LOCATE(from, &f);
	ret = locate(to, &t);
	if (ret) {
		close(f.dir);
		return ret;
	}
	/*
	 * A new case for the same entry ("a" to "A") renames it to the
	 * name given; any other case variant is the entry replaced.
	 */
	if (casefold && !strcmp(f.name, t.name) && same_dir(f.dir, t.dir)) {
		const char *last = strrchr(to, '/');

		strcpy(t.name, last ? last + 1 : to);
	}
	ret = renameat2(f.dir, f.name, t.dir, t.name, flags);
	close(f.dir);
	return done(ret, &t);
}

static int tfs_link(const char *from, const char *to)
{
	struct loc f, t;
	int ret;

	delay();
	LOCATE(from, &f);
	ret = locate(to, &t);
	if (ret) {
		close(f.dir);
		return ret;
	}
	ret = linkat(f.dir, f.name, t.dir, t.name, 0);
	close(f.dir);
	return done(ret, &t);
}

static int tfs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct loc l;

	delay();
	if (fi)
		return done(fchmod(fi->fh, mode), NULL);
	LOCATE(path, &l);
	return done(fchmodat(l.dir, l.name, mode, AT_SYMLINK_NOFOLLOW), &l);
}

static int tfs_chown(const char *path, uid_t uid, gid_t gid,
		     struct fuse_file_info *fi)
{
	struct loc l;

	delay();
	if (fi)
		return done(fchown(fi->fh, uid, gid), NULL);
	LOCATE(path, &l);
	return done(fchownat(l.dir, l.name, uid, gid, AT_SYMLINK_NOFOLLOW), &l);
}

static int tfs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct loc l;
	int fd, ret;

	delay();
	if (fi)
		return done(ftruncate(fi->fh, size), NULL);
	LOCATE(path, &l);
	fd = openat(l.dir, l.name, O_WRONLY | O_NOFOLLOW);
	if (fd < 0)
		return done(fd, &l);
	ret = done(ftruncate(fd, size), NULL);
	close(fd);
	close(l.dir);
	return ret;
}

static int tfs_utimens(const char *path, const struct timespec tv[2],
		       struct fuse_file_info *fi)
{
	struct loc l;

	delay();
	if (fi)
		return done(futimens(fi->fh, tv), NULL);
	LOCATE(path, &l);
	return done(utimensat(l.dir, l.name, tv, AT_SYMLINK_NOFOLLOW), &l);
}

static int tfs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	struct loc l;
	int fd;

	delay();
	LOCATE(path, &l);
	fd = openat(l.dir, l.name, fi->flags | O_CREAT | O_NOFOLLOW, mode);
	if (fd >= 0)
		fi->fh = fd;
	return done(fd, &l);
}

static int tfs_open(const char *path, struct fuse_file_info *fi)
{
	struct loc l;
	int fd;

	delay();
	LOCATE(path, &l);
	fd = openat(l.dir, l.name, fi->flags | O_NOFOLLOW);
	if (fd >= 0)
		fi->fh = fd;
	return done(fd, &l);
}

static int tfs_read(const char *path, char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	delay();
	n = pread(fi->fh, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int tfs_write(const char *path, const char *buf, size_t size,
		     off_t off, struct fuse_file_info *fi)
{
	ssize_t n;

	(void)path;
	delay();
	n = pwrite(fi->fh, buf, size, off);
	return n < 0 ? -errno : (int)n;
}

static int tfs_statfs(const char *path, struct statvfs *sv)
{
	(void)path;
	delay();
	return done(fstatvfs(base, sv), NULL);
}

static int tfs_flush(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	delay();
	/* report errors of close(2) (e.g. of NFS) on every close */
	return done(close(dup(fi->fh)), NULL);
}

static int tfs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	delay();
	close(fi->fh);
	return 0;
}

static int tfs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path;
	delay();
	return done(datasync ? fdatasync(fi->fh) : fsync(fi->fh), NULL);
}

static int tfs_fallocate(const char *path, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	(void)path;
	delay();
	return done(fallocate(fi->fh, mode, off, len), NULL);
}

static const struct fuse_operations tfs_ops = {
	.init		= tfs_init,
	.getattr	= tfs_getattr,
	.access		= tfs_access,
	.readlink	= tfs_readlink,
	.readdir	= tfs_readdir,
	.mknod		= tfs_mknod,
	.mkdir		= tfs_mkdir,
	.symlink	= tfs_symlink,
	.unlink		= tfs_unlink,
	.rmdir		= tfs_rmdir,
	.rename		= tfs_rename,
	.link		= tfs_link,
	.chmod		= tfs_chmod,
	.chown		= tfs_chown,
	.truncate	= tfs_truncate,
	.utimens	= tfs_utimens,
	.create		= tfs_create,
	.open		= tfs_open,
	.read		= tfs_read,
	.write		= tfs_write,
	.statfs		= tfs_statfs,
	.flush		= tfs_flush,
	.release	= tfs_release,
	.fsync		= tfs_fsync,
	.fallocate	= tfs_fallocate,
};

static struct tfs_options {
	int casefold;
	unsigned int delay_us;
	unsigned int threads;
	unsigned int time_gran;
	const char *backing;
} opts = { .threads = 128 };

static const struct fuse_opt tfs_opts[] = {
	{ "--casefold", offsetof(struct tfs_options, casefold), 1 },
	{ "--delay-us=%u", offsetof(struct tfs_options, delay_us), 0 },
	{ "--threads=%u", offsetof(struct tfs_options, threads), 0 },
	{ "--time-gran=%u", offsetof(struct tfs_options, time_gran), 0 },
	FUSE_OPT_END
};

/* The first argument that is not an option is ours, the next is FUSE's. */
static int tfs_opt(void *data, const char *arg, int key,
		   struct fuse_args *args)
{
	(void)data;
	(void)args;
	if (key != FUSE_OPT_KEY_NONOPT || opts.backing)
		return 1;
	opts.backing = arg;
	return 0;
}

/*
 * What fuse_main() does, but with our own limit on the threads of the
 * multi-threaded loop.
 */
static int serve(struct fuse_args *args)
{
	struct fuse_cmdline_opts co;
	struct fuse_loop_config *cfg;
	struct fuse_session *se;
	struct fuse *fuse;
	int ret = 1;

	if (fuse_parse_cmdline(args, &co))
		return 1;
	if (!co.mountpoint) {
		fprintf(stderr, "testfs: no mount point\n");
		goto out;
	}
	fuse = fuse_new(args, &tfs_ops, sizeof(tfs_ops), NULL);
	if (!fuse)
		goto out;
	if (fuse_mount(fuse, co.mountpoint))
		goto destroy;
	if (fuse_daemonize(co.foreground))
		goto unmount;
	se = fuse_get_session(fuse);
	if (fuse_set_signal_handlers(se))
		goto unmount;
	if (co.singlethread) {
		ret = fuse_loop(fuse) ? 1 : 0;
	} else {
		cfg = fuse_loop_cfg_create();
		if (!cfg) {
			fuse_remove_signal_handlers(se);
			goto unmount;
		}
		fuse_loop_cfg_set_clone_fd(cfg, co.clone_fd);
		fuse_loop_cfg_set_idle_threads(cfg, co.max_idle_threads);
		fuse_loop_cfg_set_max_threads(cfg, opts.threads);
		ret = fuse_loop_mt(fuse, cfg) ? 1 : 0;
		fuse_loop_cfg_destroy(cfg);
	}
	fuse_remove_signal_handlers(se);
unmount:
	fuse_unmount(fuse);
destroy:
	fuse_destroy(fuse);
out:
	free(co.mountpoint);
	return ret;
}

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	int ret;

	/* hold none of the caller's pipes open (e.g. a test harness's) */
	close_range(3, ~0U, 0);
	if (fuse_opt_parse(&args, &opts, tfs_opts, tfs_opt))
		return 1;
	if (!opts.backing) {
		fprintf(stderr, "usage: %s [--casefold] [--delay-us=N] "
			"[--threads=N] [--time-gran=NS] BACKING_DIR MOUNTPOINT "
			"[FUSE options]\n", argv[0]);
		return 1;
	}
	casefold = opts.casefold;
	delay_us = opts.delay_us;
	time_gran = opts.time_gran;
	base = open(opts.backing, O_PATH | O_DIRECTORY);
	if (base < 0) {
		perror(opts.backing);
		return 1;
	}
	if (!opts.threads)
		opts.threads = 1;
	ret = serve(&args);
	fuse_opt_free_args(&args);
	return ret;
}
