/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#include "common/util.h"
#include "procfs.h"

static int by_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

bool procfs_task_id(const char *name, pid_t *tid)
{
	uint64_t v;

	/* decimal only: /proc has no 0x names, nor a leading 0 */
	if (name[0] < '1' || name[0] > '9' || !parse_u64(name, &v) || v > INT32_MAX)
		return false;
	*tid = (pid_t)v;
	return true;
}

long procfs_tasks(pid_t pid, pid_t **tids)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	size_t n = 0, cap = 16;
	pid_t *v;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1; /* errno: ENOENT for no such process */
	v = xcalloc(cap, sizeof(*v));
	while ((de = readdir(d))) {
		pid_t t;

		if (!procfs_task_id(de->d_name, &t))
			continue;
		if (n == cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = t;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), by_pid);
	*tids = v;
	return (long)n;
}

bool procfs_tgid(pid_t tid, pid_t *tgid)
{
	char path[64], line[256];
	FILE *f;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		int v;

		if (sscanf(line, "Tgid: %d", &v) == 1) {
			*tgid = (pid_t)v;
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

char procfs_state(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name in parentheses may hold anything, ')' too: the state
	 * follows the last one */
	close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' ? close_paren[2] : 0;
}

bool procfs_comm(pid_t pid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	return read_first_line(path, buf, size);
}

/*
 * One line of /proc/PID/maps:
 *   start-end perms offset maj:min inode   path
 * The path is everything after the inode's padding, spaces included
 * (" (deleted)" too, as the kernel prints it).
 */
static bool parse_map_line(char *line, struct sample_mmap *m, char **path)
{
	uint64_t start, end, off, ino;
	unsigned maj, min;
	char perms[8];
	int consumed = 0;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &start, &end, perms,
		   &off, &maj, &min, &ino, &consumed) < 7 || !consumed || end <= start)
		return false;
	line[strcspn(line, "\n")] = '\0';
	memset(m, 0, sizeof(*m));
	m->start = start;
	m->len = end - start;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->has_inode = true;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->data = perms[2] != 'x';
	m->cpumode = PERF_RECORD_MISC_USER;
	*path = line + consumed;
	return true;
}

long procfs_maps(pid_t pid, bool data, struct sample_record **out)
{
	char path[64], *line = NULL;
	size_t len = 0, n = 0, cap = 32;
	struct sample_record *v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	v = xcalloc(cap, sizeof(*v));
	while (getline(&line, &len, f) > 0) {
		struct sample_mmap m;
		char *name;

		if (!parse_map_line(line, &m, &name) || (m.data && !data))
			continue;
		/* anonymous mappings carry no symbols; [vdso] does */
		if (!*name || (name[0] == '[' && strcmp(name, "[vdso]") != 0))
			continue;
		if (n == cap) {
			cap *= 2;
			v = xrealloc(v, cap * sizeof(*v));
		}
		m.pid = m.tid = (uint32_t)pid;
		m.filename = xstrdup(name);
		v[n] = (struct sample_record){ .type = SREC_MMAP, .mmap = m };
		v[n].sid = (struct sample_id){ .fields = SAMPLE_F_TID | SAMPLE_F_TIME, .pid = (uint32_t)pid,
					       .tid = (uint32_t)pid };
		n++;
	}
	free(line);
	fclose(f);
	*out = v;
	return (long)n;
}

bool procfs_comm_record(pid_t pid, struct sample_record *out)
{
	char comm[64];

	if (!procfs_comm(pid, comm, sizeof(comm)))
		return false;
	*out = (struct sample_record){ .type = SREC_COMM };
	out->comm = (struct sample_comm){ .pid = (uint32_t)pid, .tid = (uint32_t)pid, .comm = xstrdup(comm) };
	out->sid = (struct sample_id){ .fields = SAMPLE_F_TID | SAMPLE_F_TIME, .pid = (uint32_t)pid,
				       .tid = (uint32_t)pid };
	return true;
}

void procfs_maps_free(struct sample_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)(recs[i].type == SREC_COMM ? recs[i].comm.comm : recs[i].mmap.filename));
	free(recs);
}

static int by_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* the largest CPU number of a list (online or not is checked against the
 * system, not here) */
#define CPU_NUMBER_MAX 999999

long procfs_parse_cpu_list(const char *list, int **cpus, char *why, size_t why_size)
{
	uint64_t *v;
	const char *bad;
	long n = parse_u64_list(list, true, 0, CPU_NUMBER_MAX, &v, &bad);

	if (n < 0) {
		snprintf(why, why_size, "expected CPU numbers and ranges, as 0,2-3");
		return -1;
	}
	*cpus = xcalloc((size_t)n, sizeof(**cpus));
	for (long i = 0; i < n; i++)
		(*cpus)[i] = (int)v[i];
	free(v);
	qsort(*cpus, (size_t)n, sizeof(**cpus), by_int);
	for (long i = 1; i < n; i++) {
		if ((*cpus)[i] == (*cpus)[i - 1]) {
			snprintf(why, why_size, "CPU %d is listed twice", (*cpus)[i]);
			free(*cpus);
			*cpus = NULL;
			return -1;
		}
	}
	return n;
}

long procfs_online_cpus(int **cpus)
{
	char buf[4096], why[64];

	if (!read_first_line("/sys/devices/system/cpu/online", buf, sizeof(buf)))
		return -1;
	return procfs_parse_cpu_list(buf, cpus, why, sizeof(why));
}
