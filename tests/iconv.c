/*
 * A minimal iconv(1) over the C library's iconv(3): "iconv -f FROM -t TO"
 * from standard input to standard output.  Built with musl-gcc by
 * scripts/test-job musl, so that the tests compare what git encodes with
 * what the same C library does, as on a musl system (musl's UTF-16 is
 * big-endian without a byte order mark, glibc's has one).
 */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *from = "UTF-8", *to = "UTF-8";
	static char in[1 << 16], out[1 << 18];
	size_t len = 0, n;
	iconv_t cd;
	int c;

	while ((c = getopt(argc, argv, "f:t:")) != -1) {
		if (c == 'f')
			from = optarg;
		else if (c == 't')
			to = optarg;
		else
			return 2;
	}
	while ((n = fread(in + len, 1, sizeof(in) - len, stdin)) > 0)
		len += n;
	cd = iconv_open(to, from);
	if (cd == (iconv_t)-1) {
		fprintf(stderr, "iconv: %s to %s: %s\n", from, to, strerror(errno));
		return 1;
	}
	{
		char *ip = in, *op = out;
		size_t il = len, ol = sizeof(out);

		if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1) {
			fprintf(stderr, "iconv: %s\n", strerror(errno));
			return 1;
		}
		fwrite(out, 1, op - out, stdout);
	}
	return 0;
}
