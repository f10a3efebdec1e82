/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userfile.h"
#include "util.h"

static const char *file_kind(mode_t mode)
{
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a FIFO or pipe";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	return "a special file";
}

static int not_regular(const char *path, mode_t mode, struct pf_error *err)
{
	char why[96];

	snprintf(why, sizeof(why), "%s, not a regular file", file_kind(mode));
	return pf_error_set(err, PF_E_BAD_FILE, path, why);
}

int user_file_check(const char *path, struct pf_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	return S_ISREG(st.st_mode) ? 0 : not_regular(path, st.st_mode, err);
}

/* up to max + 1 bytes of fd: one more than allowed says the file is too large */
static int read_all(int fd, size_t max, char **text, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap + 1);

	for (;;) {
		ssize_t got;

		if (n == cap && cap <= max) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		if (n == cap)
			break;
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int user_file_read(const char *path, size_t max, const char *kind, char **text, size_t *len,
		   struct pf_error *err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat refuses it */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int e;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return pf_error_set(err, PF_E_INPUT, path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return pf_error_set(err, PF_E_INPUT, path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return not_regular(path, st.st_mode, err);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	e = read_all(fd, max, text, len);
	close(fd);
	if (e)
		return pf_error_set(err, PF_E_INPUT, path, strerror(e));
	if (*len > max) {
		char why[96];

		free(*text);
		*text = NULL;
		snprintf(why, sizeof(why), "larger than %zu MiB: not a %s", max >> 20, kind);
		return pf_error_set(err, PF_E_BAD_FILE, path, why);
	}
	return 0;
}
