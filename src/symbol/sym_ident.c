/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which file a binary is: a report must not name samples after a binary
 * rebuilt or replaced since they were taken.  The GNU build-id decides when
 * the file had one; otherwise inode, mtime and size must all be the same
 * (not the device: its number may change between boots).  A binary that
 * is not the recorded one may still exist by its build-id in the debug
 * root, the way debuginfod clients and perf's build-id cache find them.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util.h"
#include "symbol/sym_internal.h"

static void stat_identity(const struct stat *st, struct sym_file_id *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->mtime_ns = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
	id->size = (uint64_t)st->st_size;
}

int sym_file_identity(const char *path, struct sym_file_id *id, struct pf_error *err)
{
	struct sym_elf e;
	struct stat st;
	int fd;

	memset(id, 0, sizeof(*id));
	if (sym_open_regular(path, &fd, &st, err) != 0)
		return -1;
	close(fd);
	stat_identity(&st, id);
	if (sym_elf_open(path, &e, NULL) == 0) {
		id->build_id_len = sym_build_id(e.elf, id->build_id, sizeof(id->build_id));
		sym_elf_close(&e);
	}
	return 0;
}

bool sym_dso_is(const struct sym_dso *dso, const struct sym_file_id *id, char **why)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	struct sym_file_id now = { 0 };

	*why = NULL;
	if (id->build_id_len || dso->build_id_len) {
		if (id->build_id_len == dso->build_id_len &&
		    !memcmp(id->build_id, dso->build_id, id->build_id_len))
			return true;
		strbuf_addstr(&sb, "not the binary recorded: build-id ");
		if (dso->build_id_len)
			strbuf_addhex(&sb, dso->build_id, dso->build_id_len);
		else
			strbuf_addstr(&sb, "none");
		strbuf_addstr(&sb, ", recorded ");
		if (id->build_id_len)
			strbuf_addhex(&sb, id->build_id, id->build_id_len);
		else
			strbuf_addstr(&sb, "none");
		*why = strbuf_detach(&sb);
		return false;
	}
	if (stat(dso->path, &st) == 0)
		stat_identity(&st, &now);
	if (now.ino == id->ino && now.mtime_ns == id->mtime_ns && now.size == id->size)
		return true;
	*why = xasprintf("not the binary recorded (no build-id; inode, mtime or size changed)");
	return false;
}

static struct sym_dso *try_open(const char *path, const char *debug_root, const struct sym_file_id *id)
{
	struct sym_dso *dso;
	char *why;

	if (sym_dso_open(path, debug_root, &dso, NULL) != 0)
		return NULL;
	if (sym_dso_is(dso, id, &why))
		return dso;
	free(why);
	sym_dso_close(dso);
	return NULL;
}

struct sym_dso *sym_dso_by_build_id(const char *debug_root, const struct sym_file_id *id)
{
	struct strbuf sb = STRBUF_INIT;
	struct sym_dso *dso;

	if (id->build_id_len < 2)
		return NULL;
	strbuf_addf(&sb, "%s/.build-id/%02x/", sym_debug_root(debug_root), id->build_id[0]);
	strbuf_addhex(&sb, id->build_id + 1, id->build_id_len - 1);
	/* the binary itself (a link some distributions keep), else its debug file */
	dso = try_open(strbuf_str(&sb), debug_root, id);
	if (!dso) {
		strbuf_addstr(&sb, ".debug");
		dso = try_open(strbuf_str(&sb), debug_root, id);
	}
	strbuf_release(&sb);
	return dso;
}
