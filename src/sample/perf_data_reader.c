/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading perf.data (the file layout of perf record) into the records and
 * header of pfmon's own sample file.
 *
 * The file is mapped (or, from a pipe, read whole) and indexed at the first
 * read (a stream at once), in one pass: every record's offset and time.  perf record -z's compressed records are
 * decoded while indexing (one zstd stream for the file, a record may span
 * two of them), and their records indexed at offsets past the file's end.
 * A stream of perf record -o - (pipe mode) has no sections: its event
 * attributes, features and build-ids come as records before the samples.
 * perf record writes each CPU's ring in turn, so a mapping can come after
 * the first sample in it; the index is sorted by time (stably: records of
 * equal time, or without one, keep their file order), as perf's own
 * ordered-events queue does, so that each sample is
 * symbolized against the address space it was taken in.  Records are then
 * decoded in place by the same decoder as the live ring's.
 *
 * A mapped file's pages are given back as the reading passes them: once
 * after indexing (which touched them all), then behind the records given
 * out.  The mapping is private and never written, so a page given back is
 * read again from the file if a record on it is wanted later (a record
 * out of file order, a pointer a caller kept): only the memory held
 * changes, never what is read.  Without this a report held the whole file
 * (87 MB for a million samples with call chains) besides its index.
 *
 * Before the file's own records the reader gives the synthetic records a
 * pfmon file would have: the kernel record (the kernel's build-id from the
 * build-id section, the release from the osrelease section) and one binary
 * record per build-id, so that a rebuilt binary is refused as for pfmon's
 * files and the recorded one is found by its build-id in the debug root.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "common/util.h"
#include "sample/ibs.h"
#include "sample/perf_data.h"
#include "sample/perf_data_format.h"
#include "sample/perf_data_spe.h"
#include "sample/perf_record.h"
#include "sample/read_fail.h"
#include "sample/zstd_stream.h"

/* the decoded records of a file: a bound against a hostile one (a
 * decompression bomb), well beyond what perf record -z writes (ratios of
 * 5 to 15): 100 times the file, at least 256 MiB, at most 64 GiB */
#define PD_DECODED_RATIO 100
#define PD_DECODED_MIN ((size_t)256 << 20)
#define PD_DECODED_MAX ((size_t)64 << 30)

/* one record of the data section, in the order it is given out */
struct pd_ref {
	uint64_t time;
	uint64_t off;
};

struct pd_binary {
	char *path;
	uint8_t len;
	uint8_t id[SAMPLE_BUILD_ID_MAX];
};

struct pd_id {
	uint64_t id;
	uint32_t evidx;
};

struct perf_data_reader {
	char *name;
	FILE *f;
	const unsigned char *buf;
	size_t size;
	bool mapped;
	bool indexed;                /* the records' order is known */
	/* a mapped file of plain records is ordered a round at a time */
	bool by_rounds;
	/* a round's pass met a compressed record or SPE trace: the whole is
	 * indexed (their records, samples, are in no round) */
	bool index_whole;
	uint64_t *round_ends;        /* the offset after each FINISHED_ROUND */
	size_t n_rounds, cap_rounds, round;
	uint64_t round_from;         /* where the next round to order starts */
	uint64_t data_stop;          /* where the records end (a cut file: before) */
	struct pd_ref *pending;      /* ordered, later than the limit: held */
	size_t n_pending, cap_pending;
	uint64_t read_last_time;     /* of the last record ordered, in file order */
	uint64_t round_max, flush_limit;
	bool rounds_done;
	uint64_t released;           /* mapped pages below this given back */
	uint64_t furthest;           /* the furthest record end given out */
	struct smpl_header h;
	struct perf_layout *layouts; /* one per attr, evidx its index */
	struct pd_id *ids;           /* sorted by id */
	size_t n_ids, cap_ids;
	bool identifier;             /* every attr has PERF_SAMPLE_IDENTIFIER */
	uint64_t data_off, data_end;
	bool pipe;                   /* perf record -o -: no sections, all records */
	struct zstd_stream *zstd;    /* the decoder of the compressed records */
	struct zstd_out decoded;     /* their records, at offsets from size on */
	size_t decoded_indexed;      /* the rest is the head of a record */
	uint64_t compressed_at;      /* the last compressed record's offset */
	struct pd_ref *order;
	size_t n_order, cap_order, next;
	uint64_t last_time;          /* of the last record indexed */
	bool unsorted;
	bool have_kernel;
	struct sample_kernel kernel;
	struct pd_binary *binaries;
	size_t n_binaries, cap_binaries;
	size_t synth;                /* synthetic records given: kernel, then binaries */
	uint64_t bounce[65536 / 8];  /* a record at an offset not 8-byte aligned */
	uint64_t tell;
	struct smpl_status st;
	/* the attr types of the IBS PMUs (HEADER_PMU_MAPPINGS); have_ibs_*
	 * false: the file names none */
	uint32_t ibs_op_type, ibs_fetch_type;
	bool have_ibs_op, have_ibs_fetch;
	struct read_fail fail; /* the first failure, answered to every later call */
	/* AUX trace: Arm SPE's decoded into samples (perf_data_spe.h) */
	uint32_t spe_pmu_type;       /* PMU_MAPPINGS' arm_spe_N, 0: none */
	uint64_t midr;               /* HEADER_CPUID's, 0: none */
	bool have_conv;              /* TIME_CONV */
	uint64_t conv_shift, conv_mult, conv_zero;
	uint32_t aux_type;           /* AUXTRACE_INFO's, 0: none yet */
	uint64_t aux_info_pmu;       /* its priv[0] (SPE: the PMU type) */
	struct pd_spe *spe;          /* events and samples of an SPE trace */
	uint64_t aux_skipped, aux_skipped_bytes; /* AUXTRACE records not decoded */
};

/* an order entry of a synthesized SPE sample rather than a file offset */
#define PD_SPE_REF (1ull << 63)

/* the reader's shorthand for read_fail_bad_file() */
#define bad(r, err, ...) read_fail_bad_file(&(r)->fail, (r)->name, (err), __VA_ARGS__)

bool perf_data_magic(const void *head, size_t len)
{
	return len >= PERF_DATA_MAGIC_LEN &&
	       (!memcmp(head, PERF_DATA_MAGIC, PERF_DATA_MAGIC_LEN) || !memcmp(head, "2ELIFREP", 8) ||
		!memcmp(head, "PERFFILE", 8));
}

/* the bytes at a record's offset: the file's, or past its size the
 * decoded records' */
static const unsigned char *at(const struct perf_data_reader *r, uint64_t off)
{
	return off < r->size ? r->buf + off : r->decoded.buf + (off - r->size);
}

/* a record's place for a message */
static const char *where(const struct perf_data_reader *r, uint64_t off, char *buf, size_t n)
{
	if (off < r->size)
		snprintf(buf, n, "offset %" PRIu64, off);
	else
		snprintf(buf, n, "offset %" PRIu64 " of the records decompressed up to offset %" PRIu64,
			 off - r->size, r->compressed_at);
	return buf;
}

/* [off, off + size) lies in the file */
static bool in_file(const struct perf_data_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->size && size <= r->size - off;
}

/* ----- the file into memory ----- */

static int load_file(struct perf_data_reader *r, const void *head, size_t head_len,
		     struct pf_error *err)
{
	struct stat st;
	unsigned char *b;
	size_t cap, len;

	if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(r->f), 0);

		if (m != MAP_FAILED) {
			r->buf = m;
			r->size = (size_t)st.st_size;
			r->mapped = true;
			return 0;
		}
	}
	/* a pipe: the bytes already read, then the rest */
	cap = head_len > 65536 ? head_len : 65536;
	b = xmalloc(cap);
	memcpy(b, head, head_len);
	len = head_len;
	for (;;) {
		size_t got;

		if (len == cap) {
			cap *= 2;
			b = xrealloc(b, cap);
		}
		got = fread(b + len, 1, cap - len, r->f);
		len += got;
		if (got == 0)
			break;
	}
	r->buf = b;
	r->size = len;
	if (ferror(r->f))
		return pf_error_set(err, PF_E_INPUT, r->name, strerror(errno ? errno : EIO));
	return 0;
}

/* ----- header features ----- */

/* a header string: u32 length, then that many bytes (NUL-padded) */
static const char *get_string(const unsigned char **p, const unsigned char *end, char **out)
{
	uint32_t len;

	if (end - *p < 4)
		return "string length past its section";
	len = pd_u32(*p);
	*p += 4;
	if (len > (size_t)(end - *p))
		return "string past its section";
	*out = xstrndup((const char *)*p, strnlen((const char *)*p, len));
	*p += len;
	return NULL;
}

static bool kernel_build_id_name(const char *name)
{
	return !strcmp(name, "[kernel.kallsyms]") || !strcmp(name, "vmlinux");
}

static void keep_build_id(struct perf_data_reader *r, uint16_t misc, const char *path,
			  const unsigned char *id, uint8_t len)
{
	unsigned cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (cpumode == PERF_RECORD_MISC_KERNEL && kernel_build_id_name(path)) {
		r->have_kernel = true;
		r->kernel.build_id_size = len;
		memcpy(r->kernel.build_id, id, len);
		return;
	}
	/* guests' binaries and kernel modules are not files of this machine's
	 * processes; pfmon's file keeps only those */
	if (cpumode != PERF_RECORD_MISC_USER || path[0] != '/')
		return;
	XGROW(r->binaries, r->cap_binaries, r->n_binaries);
	r->binaries[r->n_binaries].path = xstrdup(path);
	r->binaries[r->n_binaries].len = len;
	memcpy(r->binaries[r->n_binaries].id, id, len);
	r->n_binaries++;
}

static const char *parse_build_ids(struct perf_data_reader *r, const unsigned char *p,
				   const unsigned char *end)
{
	while (end - p >= 8) {
		uint16_t misc = pd_u16(p + 4), size = pd_u16(p + 6);
		uint8_t len = SAMPLE_BUILD_ID_MAX;
		char *path;

		if (size < PD_BUILD_ID_REC_FIXED || size > end - p)
			return "corrupted build-id section";
		if (misc & PD_MISC_BUILD_ID_SIZE)
			len = p[12 + SAMPLE_BUILD_ID_MAX];
		if (len > SAMPLE_BUILD_ID_MAX)
			return "corrupted build-id section (build-id longer than 20 bytes)";
		path = xstrndup((const char *)p + PD_BUILD_ID_REC_FIXED,
				strnlen((const char *)p + PD_BUILD_ID_REC_FIXED, size - PD_BUILD_ID_REC_FIXED));
		keep_build_id(r, misc, path, p + 12, len);
		free(path);
		p += size;
	}
	return NULL;
}

static const char *parse_cmdline(struct perf_data_reader *r, const unsigned char *p,
				 const unsigned char *end)
{
	uint32_t nr;

	if (end - p < 4)
		return "corrupted cmdline section";
	nr = pd_u32(p);
	p += 4;
	if (nr > (size_t)(end - p) / 4)
		return "corrupted cmdline section (impossible count)";
	r->h.argv = xcalloc(nr + 1, sizeof(*r->h.argv));
	for (uint32_t i = 0; i < nr; i++) {
		const char *why = get_string(&p, end, &r->h.argv[i]);

		if (why)
			return why;
		r->h.argc = i + 1;
	}
	return NULL;
}

/* the event whose ids include id, or -1 */
static int64_t event_of_id(const struct perf_data_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->n_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id == id)
			return r->ids[mid].evidx;
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* the events' names: entries nr, attr size, then per event its attr, the
 * count of its ids, its name and its ids */
static const char *parse_event_desc(struct perf_data_reader *r, const unsigned char *p,
				    const unsigned char *end)
{
	uint32_t nr, asz;

	if (end - p < 8)
		return "corrupted event_desc section";
	nr = pd_u32(p);
	asz = pd_u32(p + 4);
	p += 8;
	if (asz < PD_ATTR_SIZE_VER0 || asz > 4096 || nr > (size_t)(end - p) / asz)
		return "corrupted event_desc section";
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t n_ids;
		char *name = NULL;
		const char *why;
		int64_t ev = i < r->h.nr_events ? (int64_t)i : -1;

		if ((size_t)(end - p) < asz + 4)
			return "corrupted event_desc section";
		p += asz;
		n_ids = pd_u32(p);
		p += 4;
		why = get_string(&p, end, &name);
		if (!why && n_ids > (size_t)(end - p) / 8)
			why = "corrupted event_desc section (impossible id count)";
		if (why) {
			free(name);
			return why;
		}
		/* by its first id, else by its place */
		if (n_ids && event_of_id(r, pd_u64(p)) >= 0)
			ev = event_of_id(r, pd_u64(p));
		p += (size_t)n_ids * 8;
		if (ev >= 0 && name[0]) {
			free(r->h.events[ev].name);
			r->h.events[ev].name = name;
		} else {
			free(name);
		}
	}
	return NULL;
}

/* "AuthenticAMD,25,1,1": vendor, family, model, stepping (perf's x86
 * cpuid string); the family and model name the IBS errata.  On arm64 the
 * string is the MIDR, which names SPE's data-source encoding. */
static const char *parse_cpuid(struct perf_data_reader *r, const unsigned char *p, const unsigned char *end)
{
	char *s = NULL, *comma;
	const char *why = get_string(&p, end, &s);
	unsigned long fam, model;
	char *e;

	if (why)
		return why;
	r->midr = spe_midr_parse(s); /* an arm64 recording's MIDR, for SPE's data sources */
	comma = strchr(s, ',');
	if (comma) {
		fam = strtoul(comma + 1, &e, 10);
		if (*e == ',' && e != comma + 1) {
			model = strtoul(e + 1, &e, 10);
			if ((*e == ',' || !*e) && fam <= UINT32_MAX && model <= UINT32_MAX) {
				r->h.cpu_family = (uint32_t)fam;
				r->h.cpu_model = (uint32_t)model;
			}
		}
	}
	free(s);
	return NULL;
}

/* u32 nr, then nr times u32 type and a string: the PMUs of the recording
 * machine; the IBS PMUs' types say which events are IBS's, as for perf,
 * and an Arm SPE unit's (arm_spe_0, ...) which AUX trace is SPE's */
static const char *parse_pmu_mappings(struct perf_data_reader *r, const unsigned char *p,
				      const unsigned char *end)
{
	uint32_t nr;

	if (end - p < 4)
		return "corrupted pmu mappings section";
	nr = pd_u32(p);
	p += 4;
	if (nr > (size_t)(end - p) / 8)
		return "corrupted pmu mappings section (impossible count)";
	for (uint32_t i = 0; i < nr; i++) {
		char *name = NULL;
		uint32_t type;
		const char *why;

		if (end - p < 4)
			return "corrupted pmu mappings section";
		type = pd_u32(p);
		p += 4;
		why = get_string(&p, end, &name);
		if (why)
			return why;
		if (!strcmp(name, "ibs_op")) {
			r->ibs_op_type = type;
			r->have_ibs_op = true;
		} else if (!strcmp(name, "ibs_fetch")) {
			r->ibs_fetch_type = type;
			r->have_ibs_fetch = true;
		} else if (!strncmp(name, "arm_spe", 7) && type) {
			r->spe_pmu_type = type;
		}
		free(name);
	}
	for (uint32_t i = 0; i < r->h.nr_events; i++) {
		struct smpl_event *e = &r->h.events[i];

		if (r->have_ibs_op && e->attr_type == r->ibs_op_type)
			e->ibs = IBS_OP;
		else if (r->have_ibs_fetch && e->attr_type == r->ibs_fetch_type)
			e->ibs = IBS_FETCH;
		/* an op's data source, address and latency come from its registers */
		if (e->ibs == IBS_OP && (e->sample_type & PERF_SAMPLE_RAW))
			e->fields |= SAMPLE_F_DATA_SRC | SAMPLE_F_ADDR | SAMPLE_F_PHYS_ADDR | SAMPLE_F_WEIGHT |
				     SAMPLE_F_INS_LAT;
	}
	return NULL;
}

/* The cpu PMU's capabilities (perf 6.1's header.c, __process_pmu_caps):
 * u32 nr, then nr pairs of strings, a name and its value.  branches= is
 * the LBR's depth, which --stitch-lbr needs; the others are not used. */
static const char *parse_cpu_pmu_caps(struct perf_data_reader *r, const unsigned char *p,
				      const unsigned char *end)
{
	uint32_t nr;

	if (end - p < 4)
		return "corrupted cpu pmu capabilities section";
	nr = pd_u32(p);
	p += 4;
	if (nr > (size_t)(end - p) / 8)
		return "corrupted cpu pmu capabilities section (impossible count)";
	for (uint32_t i = 0; i < nr; i++) {
		char *name = NULL, *value = NULL;
		const char *why = get_string(&p, end, &name);
		uint64_t v;

		if (!why)
			why = get_string(&p, end, &value);
		if (!why && !strcmp(name, "branches") && parse_u64(value, &v) && v <= UINT32_MAX)
			r->h.max_branches = (uint32_t)v;
		free(name);
		free(value);
		if (why)
			return why;
	}
	return NULL;
}

static const char *parse_feature(struct perf_data_reader *r, unsigned feat, const unsigned char *p,
				 const unsigned char *end)
{
	char *s = NULL;
	const char *why;

	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		r->h.tracing_data = p;
		r->h.tracing_size = (size_t)(end - p);
		return NULL;
	case PD_FEAT_BUILD_ID:
		return parse_build_ids(r, p, end);
	case PD_FEAT_OSRELEASE:
		why = get_string(&p, end, &s);
		if (!why)
			snprintf(r->kernel.release, sizeof(r->kernel.release), "%s", s);
		free(s);
		return why;
	case PD_FEAT_CMDLINE:
		return parse_cmdline(r, p, end);
	case PD_FEAT_EVENT_DESC:
		return parse_event_desc(r, p, end);
	case PD_FEAT_CPUID:
		return parse_cpuid(r, p, end);
	case PD_FEAT_PMU_MAPPINGS:
		return parse_pmu_mappings(r, p, end);
	case PD_FEAT_CPU_PMU_CAPS:
		return parse_cpu_pmu_caps(r, p, end);
	default:
		return NULL;
	}
}

/* perf's names (tools/perf/util/header.h, HEADER_*), as perf report's
 * "missing features" line has them */
static const char *const feature_names[] = {
	[1] = "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH", "NRCPUS",
	"CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
	"BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME",
	"MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED",
	"CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

const char *perf_data_feature_name(unsigned feat)
{
	return feat < ARRAY_SIZE(feature_names) ? feature_names[feat] : NULL;
}

/* A file cut after its data (a copy stopped short, a full disk) lost the
 * sections past its end: its records are whole, as perf report reads them,
 * so the loss is said, not refused. */
static void feature_lost(struct perf_data_reader *r, unsigned feat)
{
	r->st.features_lost[feat / 64] |= 1ull << (feat % 64);
	r->st.features_cut_at = r->size;
}

/* the feature sections: a table of sections right after the data, one per
 * bit set in the header's bitmap, in bit order */
static int parse_features(struct perf_data_reader *r, const unsigned char *hdr, uint64_t table,
			  struct pf_error *err)
{
	unsigned k = 0;

	for (unsigned feat = 0; feat < PD_FEAT_BITS; feat++) {
		uint64_t word = pd_u64(hdr + PD_OFF_FEATURES + feat / 64 * 8), off, size;
		const char *why;

		if (!(word >> (feat % 64) & 1))
			continue;
		if (!in_file(r, table + (uint64_t)k * PD_SECTION_SIZE, PD_SECTION_SIZE) ||
		    table > UINT64_MAX - (uint64_t)k * PD_SECTION_SIZE) {
			feature_lost(r, feat); /* its place in the table is cut away */
			continue;
		}
		off = pd_u64(r->buf + table + (uint64_t)k * PD_SECTION_SIZE);
		size = pd_u64(r->buf + table + (uint64_t)k * PD_SECTION_SIZE + 8);
		k++;
		if (!in_file(r, off, size)) {
			feature_lost(r, feat);
			continue;
		}
		why = parse_feature(r, feat, r->buf + off, r->buf + off + size);
		if (why)
			return bad(r, err, "%s (header feature %u at offset %" PRIu64 ")", why, feat, off);
	}
	return 0;
}

/* ----- events ----- */

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

/* perf's name of an event without an event_desc section */
static char *attr_name(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE && a->config < ARRAY_SIZE(sw_names))
		return xstrdup(sw_names[a->config]);
	if (a->type == PERF_TYPE_HARDWARE && a->config < ARRAY_SIZE(hw_names))
		return xstrdup(hw_names[a->config]);
	return xasprintf("type%u/config=0x%llx", a->type, (unsigned long long)a->config);
}

static int cmp_id(const void *a, const void *b)
{
	const struct pd_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void add_event(struct perf_data_reader *r, uint32_t i, const struct perf_event_attr *a)
{
	struct smpl_event *e = &r->h.events[i];

	perf_layout_from_attr(&r->layouts[i], a, i);
	e->name = attr_name(a);
	e->fields = perf_attr_fields(a) & ~SAMPLE_F_READ;
	e->branch_sample_type = a->branch_sample_type;
	e->attr_type = a->type;
	e->attr_config = a->config;
	e->sample_type = a->sample_type;
	e->freq = a->freq;
	e->period = a->sample_period; /* sample_freq when freq: a union */
	/* perf record's dummy event carries the side-band records of a
	 * system-wide or delayed run and never samples: no profile of its own */
	e->counting = a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* one event: its attribute (have bytes of it at p) and its n_ids ids */
static int add_attr(struct perf_data_reader *r, const unsigned char *p, size_t have, const unsigned char *ids,
		    uint64_t n_ids, struct pf_error *err)
{
	uint32_t i = r->h.nr_events;
	struct perf_event_attr a = { 0 };

	if (i == SMPL_MAX_EVENTS)
		return bad(r, err, "more than %d events (pfmon reads 1 to %d)", SMPL_MAX_EVENTS, SMPL_MAX_EVENTS);
	r->h.events = xrealloc(r->h.events, (i + 2) * sizeof(*r->h.events));
	memset(&r->h.events[i], 0, 2 * sizeof(*r->h.events));
	r->layouts = xrealloc(r->layouts, (i + 1) * sizeof(*r->layouts));
	memcpy(&a, p, have < sizeof(a) ? have : sizeof(a));
	r->h.nr_events = i + 1;
	add_event(r, i, &a);
	r->identifier = (i == 0 || r->identifier) && (a.sample_type & PERF_SAMPLE_IDENTIFIER);
	/* without an identifier the id is found at the same place in every
	 * event's records only if their layouts are the same */
	if (i && (a.sample_type != r->layouts[0].sample_type || a.sample_id_all != r->layouts[0].sample_id_all) &&
	    !r->identifier)
		return bad(r, err, "events of different sample layouts without PERF_SAMPLE_IDENTIFIER");
	r->ids = xgrow(r->ids, &r->cap_ids, r->n_ids + n_ids, sizeof(*r->ids));
	for (uint64_t j = 0; j < n_ids; j++)
		r->ids[r->n_ids++] = (struct pd_id){ pd_u64(ids + j * 8), i };
	qsort(r->ids, r->n_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

/* the fields of the samples perf synthesizes from SPE records: its own,
 * and of the SPE event's time, cpu and physical address */
static uint32_t spe_fields(uint64_t spe_sample_type)
{
	uint32_t f = SAMPLE_F_IP | SAMPLE_F_TID | SAMPLE_F_PERIOD | SAMPLE_F_ADDR | SAMPLE_F_WEIGHT |
		     SAMPLE_F_DATA_SRC;

	return f | (perf_sample_fields(spe_sample_type) & (SAMPLE_F_TIME | SAMPLE_F_CPU | SAMPLE_F_PHYS_ADDR));
}

/*
 * An Arm SPE event (its type the arm_spe_N of PMU_MAPPINGS) samples
 * nothing itself: its trace becomes the samples of the events perf
 * synthesizes, appended after the file's (l1d-miss .. instructions).  The
 * SPE event is then read as a counting event, as the dummy is.
 */
static void spe_add_events(struct perf_data_reader *r)
{
	uint32_t ev = 0, first = r->h.nr_events;
	uint64_t st;

	if (r->spe || !r->spe_pmu_type)
		return;
	while (ev < first && r->h.events[ev].attr_type != r->spe_pmu_type)
		ev++;
	if (ev == first || first + SPE_S_COUNT > SMPL_MAX_EVENTS)
		return;
	st = r->h.events[ev].sample_type;
	r->h.events = xrealloc(r->h.events, (first + SPE_S_COUNT + 1) * sizeof(*r->h.events));
	memset(&r->h.events[first], 0, (SPE_S_COUNT + 1) * sizeof(*r->h.events));
	r->layouts = xrealloc(r->layouts, (first + SPE_S_COUNT) * sizeof(*r->layouts));
	memset(&r->layouts[first], 0, SPE_S_COUNT * sizeof(*r->layouts));
	r->h.events[ev].counting = true;
	for (unsigned k = 0; k < SPE_S_COUNT; k++) {
		struct smpl_event *e = &r->h.events[first + k];

		e->name = xstrdup(spe_synth_name(k));
		e->fields = spe_fields(st);
		e->attr_type = PERF_TYPE_HARDWARE;
		e->attr_config = k == SPE_S_INSTRUCTIONS ? PERF_COUNT_HW_INSTRUCTIONS : 0;
		e->sample_type = (st & (PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PHYS_ADDR)) | PERF_SAMPLE_IP |
				 PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
				 PERF_SAMPLE_DATA_SRC;
		e->period = 1;
		perf_layout_from_attr(&r->layouts[first + k], &(struct perf_event_attr){ .sample_type = e->sample_type },
				      first + k);
	}
	r->h.nr_events = first + SPE_S_COUNT;
	r->spe = pd_spe_new(first, spe_fields(st), r->midr);
	if (r->have_conv)
		pd_spe_time_conv(r->spe, r->conv_shift, r->conv_mult, r->conv_zero);
}

static int parse_attrs(struct perf_data_reader *r, const unsigned char *hdr, struct pf_error *err)
{
	uint64_t attr_size = pd_u64(hdr + PD_OFF_ATTR_SIZE);
	uint64_t off = pd_u64(hdr + PD_OFF_ATTRS), size = pd_u64(hdr + PD_OFF_ATTRS + 8), nr;

	if (attr_size < PD_ATTR_SIZE_VER0 + PD_SECTION_SIZE || attr_size > 4096)
		return bad(r, err, "impossible event attribute size %" PRIu64, attr_size);
	if (!in_file(r, off, size) || size % attr_size)
		return bad(r, err, "the event attributes lie outside the file (offset %" PRIu64
			   ", size %" PRIu64 ")", off, size);
	nr = size / attr_size;
	if (nr == 0 || nr > SMPL_MAX_EVENTS)
		return bad(r, err, "%" PRIu64 " events (pfmon reads 1 to %d)", nr, SMPL_MAX_EVENTS);
	for (uint32_t i = 0; i < nr; i++) {
		const unsigned char *p = r->buf + off + i * attr_size;
		size_t have = attr_size - PD_SECTION_SIZE;
		uint64_t ids_off = pd_u64(p + have), ids_size = pd_u64(p + have + 8);

		if (!in_file(r, ids_off, ids_size) || ids_size % 8)
			return bad(r, err, "the ids of event %u lie outside the file", i);
		if (add_attr(r, p, have, r->buf + ids_off, ids_size / 8, err))
			return -1;
	}
	return 0;
}

static int parse_header(struct perf_data_reader *r, struct pf_error *err)
{
	const unsigned char *hdr = r->buf;
	uint64_t hsize, data_off, data_size;

	if (!memcmp(hdr, "2ELIFREP", 8))
		return bad(r, err, "a perf.data file of the other byte order: not supported");
	if (memcmp(hdr, PERF_DATA_MAGIC, 8))
		return bad(r, err, "a perf.data file of the first version (PERFFILE): not supported");
	if (r->size < PD_PIPE_HEADER_SIZE)
		return bad(r, err, "truncated perf.data header (%zu bytes)", r->size);
	hsize = pd_u64(hdr + PD_OFF_SIZE);
	r->h.clockid = -1;
	if (hsize == PD_PIPE_HEADER_SIZE) {
		/* perf record -o -: the records follow, the attributes first */
		r->pipe = true;
		r->st.complete = true; /* nothing in a stream says otherwise */
		r->data_off = r->tell = PD_PIPE_HEADER_SIZE;
		r->data_end = r->size;
		return 0;
	}
	if (hsize < PD_HEADER_SIZE || r->size < PD_HEADER_SIZE)
		return bad(r, err, "truncated perf.data header (%zu of %d bytes)",
			   r->size < PD_HEADER_SIZE ? r->size : (size_t)hsize, PD_HEADER_SIZE);
	if (parse_attrs(r, hdr, err))
		return -1;
	data_off = pd_u64(hdr + PD_OFF_DATA);
	data_size = pd_u64(hdr + PD_OFF_DATA + 8);
	if (data_off > r->size)
		return bad(r, err, "the data section starts past the end of the file (offset %" PRIu64 ")",
			   data_off);
	r->data_off = data_off;
	/* perf record killed before it finished: no size, no features; the
	 * records run to the end of the file, as perf report reads them */
	r->st.complete = data_size != 0;
	if (!data_size)
		data_size = r->size - data_off;
	if (!in_file(r, data_off, data_size)) {
		r->st.truncated = true;
		r->st.truncated_at = r->size;
		data_size = r->size - data_off;
	}
	r->data_end = data_off + data_size;
	if (r->st.complete && !r->st.truncated &&
	    parse_features(r, hdr, data_off + data_size, err))
		return -1;
	r->tell = data_off;
	return 0;
}

/* ----- the data section ----- */

/* rec at an 8-byte aligned address, as the decoder needs */
static const struct perf_event_header *aligned(struct perf_data_reader *r, uint64_t off)
{
	const unsigned char *p = at(r, off);
	uint16_t size = pd_u16(p + 6);

	if (((uintptr_t)p & 7) == 0)
		return (const void *)p;
	memcpy(r->bounce, p, size);
	return (const void *)r->bounce;
}

/* the memory a report holds of a mapped file: what is behind it */
#define PD_KEEP_BEHIND ((uint64_t)8 << 20)
#define PD_RELEASE_STEP ((uint64_t)16 << 20)

/* give back the mapped pages of [from, to), whole pages only */
static void release_pages(struct perf_data_reader *r, uint64_t from, uint64_t to)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t a = (from + page - 1) / page * page, b = to / page * page;

	if (r->mapped && b > a)
		madvise((void *)(r->buf + a), b - a, MADV_DONTNEED);
}

/* the reading got to end: give back what lies well behind it; records
 * are near file order (one round of perf record's rings at a time) */
static void release_behind(struct perf_data_reader *r, uint64_t end)
{
	if (end <= r->furthest || end > r->size)
		return;
	r->furthest = end;
	if (r->furthest - r->released < PD_KEEP_BEHIND + PD_RELEASE_STEP)
		return;
	release_pages(r, r->released, r->furthest - PD_KEEP_BEHIND);
	r->released = r->furthest - PD_KEEP_BEHIND;
}

/* the layout of rec's event */
static const struct perf_layout *layout_of(struct perf_data_reader *r,
					   const struct perf_event_header *rec)
{
	uint64_t id;
	int64_t ev;

	if (r->h.nr_events == 1 || !r->identifier ||
	    perf_record_peek_id(rec, r->layouts[0].sample_id_all, &id) != 0)
		return &r->layouts[0];
	ev = event_of_id(r, id);
	return ev >= 0 ? &r->layouts[ev] : NULL;
}

/* perf record's mapping of the kernel, "[kernel.kallsyms]_text" at pgoff
 * _text's address: where the kernel was that boot */
static void note_kernel_map(struct perf_data_reader *r, const struct perf_event_header *rec,
			    const struct perf_layout *l)
{
	struct sample_record m;
	struct pf_error ignored;

	if ((rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    perf_record_decode(rec, l ? l : &r->layouts[0], &m, &ignored) != 1 || m.type != SREC_MMAP ||
	    !m.mmap.filename || strncmp(m.mmap.filename, "[kernel.kallsyms]", 17))
		return;
	r->kernel.text_addr = m.mmap.pgoff;
}

static int cmp_ref(const void *a, const void *b)
{
	const struct pd_ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int index_record(struct perf_data_reader *r, uint64_t off, uint64_t left, uint64_t *skip,
			struct pf_error *err);

static void push_u64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = x;
}

static void push_ref(struct pd_ref **v, size_t *n, size_t *cap, uint64_t time, uint64_t off)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = (struct pd_ref){ time, off };
}

/* a record the kernel wrote: its time (or the one of the record before) */
static uint64_t record_time(struct perf_data_reader *r, const struct perf_event_header *rec,
			    const struct perf_layout *l, uint64_t before)
{
	uint64_t t = before;

	if (l && perf_record_peek_time(rec, l, &t) != 0)
		t = before;
	return t;
}

/* what the SPE samples take from the kernel's records: the process of a
 * thread (COMM: pid, tid; FORK: pid, ppid, tid), the AUX buffers lost */
static void spe_side_band(struct perf_data_reader *r, const struct perf_event_header *rec)
{
	const unsigned char *p = (const unsigned char *)rec;

	if (rec->type == PERF_RECORD_COMM && rec->size >= 16)
		pd_spe_thread(r->spe, pd_u32(p + 8), pd_u32(p + 12));
	else if (rec->type == PERF_RECORD_FORK && rec->size >= 24)
		pd_spe_thread(r->spe, pd_u32(p + 8), pd_u32(p + 16));
	else if (rec->type == PERF_RECORD_AUX && rec->size >= 32)
		pd_spe_aux_flags(r->spe, pd_u64(p + 24));
}

/* a record the kernel wrote: its time, and the kernel's place */
static int index_kernel_record(struct perf_data_reader *r, uint64_t off, struct pf_error *err)
{
	const struct perf_event_header *rec = aligned(r, off);
	const struct perf_layout *l;
	uint64_t t;
	char buf[96];

	if (!r->h.nr_events)
		return bad(r, err, "a record at %s comes before any event attribute", where(r, off, buf, sizeof(buf)));
	l = layout_of(r, rec);
	if (rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2)
		note_kernel_map(r, rec, l);
	if (r->spe)
		spe_side_band(r, rec);
	if (r->by_rounds) /* ordered when its round is read */
		return 0;
	t = record_time(r, rec, l, r->last_time);
	if (t < r->last_time)
		r->unsorted = true;
	r->last_time = t;
	push_ref(&r->order, &r->n_order, &r->cap_order, t, off);
	return 0;
}

/* a COMPRESSED record: decode its bytes, then index the whole records
 * they complete; a record's head waits for the next compressed record */
static int index_compressed(struct perf_data_reader *r, uint64_t off, const unsigned char *p, uint16_t size,
			    struct pf_error *err)
{
	const unsigned char *zbytes = p + 8;
	uint64_t n = size - 8u;
	const char *why;

	if (r->by_rounds) { /* its records are in no round: the file is indexed whole */
		r->index_whole = true;
		return 1;
	}
	if (off >= r->size)
		return bad(r, err, "a compressed record inside compressed records (at offset %" PRIu64 ")", r->compressed_at);
	if (pd_u32(p) == PD_RECORD_COMPRESSED2) {
		if (size < 16 || pd_u64(p + 8) > size - 16u)
			return bad(r, err, "compressed record at offset %" PRIu64 " holds more bytes than its size", off);
		zbytes = p + 16;
		n = pd_u64(p + 8);
	}
	if (!r->zstd) {
		struct pf_error why_not;

		r->zstd = zstd_stream_new(&why_not);
		if (!r->zstd)
			return read_fail_keep(&r->fail, &why_not, err);
		r->decoded.max = r->size < PD_DECODED_MAX / PD_DECODED_RATIO ? r->size * PD_DECODED_RATIO
									      : PD_DECODED_MAX;
		if (r->decoded.max < PD_DECODED_MIN)
			r->decoded.max = PD_DECODED_MIN;
	}
	r->compressed_at = off;
	why = zstd_stream_decode(r->zstd, zbytes, n, &r->decoded);
	if (why)
		return bad(r, err, "compressed records (perf record -z) at offset %" PRIu64 ": %s", off, why);
	while (r->decoded_indexed < r->decoded.len) {
		uint64_t skip;
		int rc = index_record(r, r->size + r->decoded_indexed, r->decoded.len - r->decoded_indexed, &skip, err);

		if (rc < 0)
			return -1;
		if (rc > 0)
			break;
		r->decoded_indexed += skip;
	}
	return 0;
}

/* pipe mode's HEADER_ATTR: an attribute (its own size field), its ids */
static int pipe_attr(struct perf_data_reader *r, uint64_t off, const unsigned char *p, uint16_t size,
		     struct pf_error *err)
{
	const unsigned char *a = p + 8;
	uint32_t have = size - 8u, asz = have >= 8 ? pd_u32(a + 4) : 0;

	if (!asz)
		asz = PD_ATTR_SIZE_VER0; /* the first version wrote no size */
	if (asz < PD_ATTR_SIZE_VER0 || asz > have || (have - asz) % 8)
		return bad(r, err, "event attribute record at offset %" PRIu64 " of the impossible size %u", off, asz);
	return add_attr(r, a, asz, a + asz, (have - asz) / 8, err);
}

/* pipe mode's HEADER_FEATURE: a feature section's bytes in a record */
static int pipe_feature(struct perf_data_reader *r, uint64_t off, const unsigned char *p, uint16_t size,
			struct pf_error *err)
{
	uint64_t feat;
	const char *why;

	if (size < 16)
		return bad(r, err, "feature record at offset %" PRIu64 " of the impossible size %u", off, size);
	feat = pd_u64(p + 8);
	why = feat < PD_FEAT_BITS ? parse_feature(r, (unsigned)feat, p + 16, p + size) : NULL;
	if (why)
		return bad(r, err, "%s (header feature %" PRIu64 " in the record at offset %" PRIu64 ")", why, feat, off);
	return 0;
}

/* the bytes that follow a record outside header.size: AUXTRACE's data,
 * HEADER_TRACING_DATA's tracing data */
static uint64_t payload_after(const unsigned char *p, uint32_t type, uint16_t size)
{
	if (type == PD_RECORD_AUXTRACE)
		return size >= PD_AUXTRACE_FIXED ? pd_u64(p + 8) : 0;
	if (type == PD_RECORD_HEADER_TRACING_DATA)
		return size >= 12 ? pd_u32(p + 8) : 0;
	return 0;
}

/* perf's names of the AUX trace types (tools/perf/util/auxtrace.h) */
static const char *aux_type_name(uint32_t type)
{
	static const char *const names[] = {
		[1] = "Intel PT", [2] = "Intel BTS", [3] = "CoreSight ETM", [4] = "Arm SPE",
		[5] = "S390 CPUMSF", [6] = "HiSilicon PTT",
	};

	return type < ARRAY_SIZE(names) && names[type] ? names[type] : "unknown";
}

/* AUXTRACE_INFO: the kind of the AUX trace that follows */
static int index_auxtrace_info(struct perf_data_reader *r, uint64_t off, const unsigned char *p, uint16_t size,
			       struct pf_error *err)
{
	char buf[96];

	if (size < 16)
		return bad(r, err, "AUXTRACE_INFO record at %s of the impossible size %u", where(r, off, buf, sizeof(buf)),
			   size);
	r->aux_type = pd_u32(p + 8);
	if (r->aux_type == SPE_AUXTRACE_TYPE && size >= 16 + 8 * SPE_PRIV_MIN) {
		r->aux_info_pmu = pd_u64(p + 16 + 8 * SPE_PRIV_PMU_TYPE);
		if (!r->spe_pmu_type) /* a stream says it only here */
			r->spe_pmu_type = (uint32_t)r->aux_info_pmu;
		if (r->pipe)
			spe_add_events(r);
	}
	return 0;
}

/* order entries for the SPE samples of an AUXTRACE record */
static void order_spe(void *ctx, uint64_t time, size_t i)
{
	struct perf_data_reader *r = ctx;

	push_ref(&r->order, &r->n_order, &r->cap_order, time, PD_SPE_REF | i);
	r->unsorted = true; /* among the file's records by their times */
}

/* AUXTRACE: its trace, payload bytes after the record, into samples when
 * it is Arm SPE's; any other is counted (said in the file's note) */
static int index_auxtrace(struct perf_data_reader *r, const unsigned char *p, uint16_t size, uint64_t payload)
{
	if (size < PD_AUXTRACE_FIXED)
		return 0;
	if (r->aux_type != SPE_AUXTRACE_TYPE || !r->spe) {
		r->aux_skipped++;
		r->aux_skipped_bytes += payload;
		return 0;
	}
	if (r->by_rounds) { /* its samples are in no round */
		r->index_whole = true;
		return 1;
	}
	pd_spe_trace(r->spe, p + size, payload, pd_u64(p + 16), pd_u32(p + 32), pd_u32(p + 36), pd_u32(p + 40),
		     r->last_time, order_spe, r);
	return 0;
}

/*
 * Index the record at off, left bytes before its region (the file's data,
 * the decoded records) ends: 0 and its length in *skip, 1 when the region
 * ends before the record does, -1 for a record that cannot be.
 */
static int index_record(struct perf_data_reader *r, uint64_t off, uint64_t left, uint64_t *skip,
			struct pf_error *err)
{
	const unsigned char *p = at(r, off);
	uint32_t type;
	uint16_t size;
	char buf[96];

	if (left < sizeof(struct perf_event_header))
		return 1;
	type = pd_u32(p);
	size = pd_u16(p + 6);
	if (size < sizeof(struct perf_event_header))
		return bad(r, err, "record at %s has the impossible size %u", where(r, off, buf, sizeof(buf)), size);
	if (size > left)
		return 1;
	*skip = size;
	switch (type) {
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		return index_compressed(r, off, p, size, err);
	case PD_RECORD_AUXTRACE:
	case PD_RECORD_HEADER_TRACING_DATA: {
		uint64_t payload = payload_after(p, type, size);

		if (payload > left - size)
			return 1;
		*skip += payload;
		if (type == PD_RECORD_AUXTRACE)
			return index_auxtrace(r, p, size, payload);
		if (type == PD_RECORD_HEADER_TRACING_DATA && r->pipe) {
			r->h.tracing_data = p + size;
			r->h.tracing_size = payload;
		}
		return 0;
	}
	case PD_RECORD_AUXTRACE_INFO:
		return index_auxtrace_info(r, off, p, size, err);
	case PD_RECORD_TIME_CONV:
		if (size >= 32) {
			r->have_conv = true;
			r->conv_shift = pd_u64(p + 8);
			r->conv_mult = pd_u64(p + 16);
			r->conv_zero = pd_u64(p + 24);
			if (r->spe)
				pd_spe_time_conv(r->spe, r->conv_shift, r->conv_mult, r->conv_zero);
		}
		return 0;
	case PD_RECORD_FINISHED_ROUND:
		if (r->by_rounds)
			push_u64(&r->round_ends, &r->n_rounds, &r->cap_rounds, off + size);
		return 0;
	case PD_RECORD_HEADER_ATTR:
		return r->pipe ? pipe_attr(r, off, p, size, err) : 0;
	case PD_RECORD_HEADER_FEATURE:
		return r->pipe ? pipe_feature(r, off, p, size, err) : 0;
	case PD_RECORD_HEADER_BUILD_ID: {
		const char *why = parse_build_ids(r, p, p + size);

		return why ? bad(r, err, "%s (record at %s)", why, where(r, off, buf, sizeof(buf))) : 0;
	}
	default:
		return type < PD_USER_TYPE_START ? index_kernel_record(r, off, err) : 0;
	}
}

/* one pass over the data section: 0, or -1 */
static int index_pass(struct perf_data_reader *r, struct pf_error *err)
{
	uint64_t off = r->data_off;

	while (off < r->data_end) {
		uint64_t skip;
		int rc = index_record(r, off, r->data_end - off, &skip, err);

		if (rc < 0)
			return -1;
		if (rc > 0 && r->index_whole)
			return 0;
		if (rc > 0) {
			r->st.truncated = true;
			r->st.truncated_at = off;
			break;
		}
		off += skip;
		release_behind(r, off);
	}
	r->data_stop = off;
	return 0;
}

/* the one note of the AUX trace not decoded, in the status */
static void aux_note(struct perf_data_reader *r)
{
	char spe[256] = "";
	size_t n = sizeof(r->st.aux_note);
	int k = 0;

	if (r->spe)
		pd_spe_note(r->spe, spe, sizeof(spe));
	if (spe[0])
		k = snprintf(r->st.aux_note, n, "Arm SPE trace not decoded: %s", spe);
	if (r->aux_skipped && k >= 0 && (size_t)k < n)
		snprintf(r->st.aux_note + k, n - (size_t)k, "%s%" PRIu64 " AUX trace buffer%s of %s (%" PRIu64
			 " bytes) not decoded%s", k ? "; " : "", r->aux_skipped, r->aux_skipped == 1 ? "" : "s",
			 aux_type_name(r->aux_type), r->aux_skipped_bytes,
			 r->aux_type == SPE_AUXTRACE_TYPE ? " (no event of its PMU: no arm_spe in PMU_MAPPINGS)" : "");
}

/*
 * The records' offsets and times, in time order.  perf record writes a
 * FINISHED_ROUND record after each pass over its rings: a mapped file of
 * plain records is then ordered one round at a time when read, as perf's
 * ordered-events queue does, and holds no index of the whole (16 bytes a
 * record: 160 MB for 10 M samples).  Compressed records and streams are
 * indexed whole here.
 */
static int index_records(struct perf_data_reader *r, struct pf_error *err)
{
	size_t header_binaries = r->n_binaries;

	r->by_rounds = r->mapped && !r->pipe;
	if (index_pass(r, err))
		return -1;
	if (r->index_whole) { /* again, every record this time */
		while (r->n_binaries > header_binaries) /* build-id records: read again */
			free(r->binaries[--r->n_binaries].path);
		r->by_rounds = false;
		r->n_rounds = 0;
		r->released = r->furthest = 0;
		r->last_time = 0;
		r->aux_skipped = r->aux_skipped_bytes = 0;
		if (r->spe)
			pd_spe_reset(r->spe);
		if (index_pass(r, err))
			return -1;
	}
	if (r->spe)
		pd_spe_finish(r->spe);
	aux_note(r);
	if (!r->st.truncated && r->decoded_indexed < r->decoded.len) {
		/* the compressed data ends inside a record */
		r->st.truncated = true;
		r->st.truncated_at = r->compressed_at;
	}
	if (r->unsorted)
		qsort(r->order, r->n_order, sizeof(*r->order), cmp_ref);
	r->round_from = r->data_off;
	return 0;
}

/* the file's records in [from, to), each with its time, into pending */
static void collect_round(struct perf_data_reader *r, uint64_t from, uint64_t to)
{
	for (uint64_t off = from; off < to;) {
		const unsigned char *p = at(r, off);
		uint32_t type = pd_u32(p);
		uint16_t size = pd_u16(p + 6);

		if (type < PD_USER_TYPE_START) {
			const struct perf_event_header *rec = aligned(r, off);
			uint64_t t = record_time(r, rec, layout_of(r, rec), r->read_last_time);

			r->read_last_time = t;
			if (t > r->round_max)
				r->round_max = t;
			push_ref(&r->pending, &r->n_pending, &r->cap_pending, t, off);
		}
		off += size + payload_after(p, type, size); /* the index pass checked them */
	}
}

/*
 * The next round into the records given out (order): every held record
 * no later than the latest time seen before this round (perf record wrote
 * all of those before it), the rest held for the next; after the last
 * round, everything.
 */
static void order_next_round(struct perf_data_reader *r)
{
	bool last = r->round >= r->n_rounds;
	uint64_t to = last ? r->data_stop : r->round_ends[r->round];
	uint64_t limit = last ? UINT64_MAX : r->flush_limit;
	size_t k = 0;

	collect_round(r, r->round_from, to);
	r->round_from = to;
	r->round++;
	r->rounds_done = last;
	r->flush_limit = r->round_max;
	r->n_order = r->next = 0;
	if (!r->n_pending) /* a round of no kernel record: pending may be NULL */
		return;
	qsort(r->pending, r->n_pending, sizeof(*r->pending), cmp_ref);
	while (k < r->n_pending && r->pending[k].time <= limit)
		k++;
	if (k > r->cap_order) {
		r->cap_order = k;
		r->order = xrealloc(r->order, k * sizeof(*r->order));
	}
	if (k) /* order is NULL until a round gives out a record */
		memcpy(r->order, r->pending, k * sizeof(*r->order));
	r->n_order = k;
	memmove(r->pending, r->pending + k, (r->n_pending - k) * sizeof(*r->pending));
	r->n_pending -= k;
}

/*
 * The records are indexed at the first read, not at the opening: a reader
 * opened for the header alone (a report whose reading thread opens the file
 * again, --merge checking its inputs) makes no pass over the data.  A
 * stream is indexed at once: its event attributes are records in it.
 */
static int index_once(struct perf_data_reader *r, struct pf_error *err)
{
	if (r->indexed)
		return 0;
	r->indexed = true;
	if (index_records(r, err))
		return -1;
	/* the reading starts with no page held: indexing touched them all */
	release_pages(r, 0, r->size);
	r->released = r->furthest = 0;
	return 0;
}

struct perf_data_reader *perf_data_reader_fopen(FILE *f, const void *head, size_t head_len,
						const char *name, struct pf_error *err)
{
	struct perf_data_reader *r = xcalloc(1, sizeof(*r));

	r->f = f;
	r->name = xstrdup(name);
	if (load_file(r, head, head_len, err) || parse_header(r, err)) {
		perf_data_reader_close(r);
		return NULL;
	}
	spe_add_events(r); /* a stream's: at its AUXTRACE_INFO */
	if (r->pipe && index_once(r, err)) {
		perf_data_reader_close(r);
		return NULL;
	}
	if (!r->h.nr_events) {
		bad(r, err, "no event attributes: %s", r->pipe ? "the stream has no HEADER_ATTR record" : "none in the header");
		perf_data_reader_close(r);
		return NULL;
	}
	return r;
}

const struct smpl_header *perf_data_reader_header(const struct perf_data_reader *r)
{
	return &r->h;
}

const struct smpl_status *perf_data_reader_status(const struct perf_data_reader *r)
{
	return &r->st;
}

uint64_t perf_data_reader_tell(const struct perf_data_reader *r)
{
	return r->tell;
}

/* the kernel record, then the binaries', before the file's records */
static bool next_synthetic(struct perf_data_reader *r, struct sample_record *out)
{
	if (r->synth == 0) {
		r->synth++;
		if (r->have_kernel || r->kernel.release[0]) {
			memset(out, 0, sizeof(*out));
			out->type = SREC_KERNEL;
			out->kernel = r->kernel;
			return true;
		}
	}
	if (r->synth - 1 < r->n_binaries) {
		const struct pd_binary *b = &r->binaries[r->synth - 1];

		r->synth++;
		memset(out, 0, sizeof(*out));
		out->type = SREC_BINARY;
		out->binary.path = b->path;
		out->binary.build_id_size = b->len;
		memcpy(out->binary.build_id, b->id, b->len);
		return true;
	}
	return false;
}

/* without PERF_SAMPLE_IDENTIFIER every event's records decode alike: the
 * event is then the one of the record's id */
static void fix_event(struct perf_data_reader *r, struct sample_record *out)
{
	int64_t ev;

	if (r->identifier || r->h.nr_events == 1)
		return;
	if (out->type == SREC_SAMPLE && (out->sample.fields & SAMPLE_F_ID) &&
	    (ev = event_of_id(r, out->sample.id)) >= 0)
		out->sample.evidx = (uint32_t)ev;
}

static int next_record(struct perf_data_reader *r, struct sample_record *out, struct pf_error *err);

/* an IBS sample: its registers decoded into the sample's memory fields;
 * what cannot be decoded is counted for the report's one note */
static void ibs_sample(struct perf_data_reader *r, struct sample *s)
{
	const struct smpl_event *e = s->evidx < r->h.nr_events ? &r->h.events[s->evidx] : NULL;
	struct ibs_cpu cpu = { r->h.cpu_family, r->h.cpu_model };
	struct ibs_sample ibs;
	uint32_t what;

	if (!e || e->ibs == IBS_NONE || !s->raw)
		return;
	if (ibs_read(e->ibs, s->raw, s->raw_size, &ibs))
		ibs_fill_sample(&ibs, &cpu, s);
	what = ibs_undecoded(&ibs);
	if (what) {
		r->st.ibs_undecoded++;
		r->st.ibs_undecoded_what |= what;
	}
}

int perf_data_reader_next(struct perf_data_reader *r, struct sample_record *out,
			  struct pf_error *err)
{
	if (read_fail_again(&r->fail, err) || index_once(r, err))
		return -1;
	if (next_synthetic(r, out))
		return 1;
	for (;;) {
		int rc = next_record(r, out, err);

		if (rc != 0 || !r->by_rounds || r->rounds_done)
			return rc;
		order_next_round(r);
	}
}

/* the next of the records ordered so far: 1, 0 when none is left, -1 */
static int next_record(struct perf_data_reader *r, struct sample_record *out, struct pf_error *err)
{
	while (r->next < r->n_order) {
		uint64_t off = r->order[r->next++].off;
		const struct perf_event_header *rec;
		const struct perf_layout *l;
		struct pf_error why;
		int rc;

		char buf[96];

		if (off & PD_SPE_REF) {
			memset(out, 0, sizeof(*out));
			out->type = SREC_SAMPLE;
			pd_spe_sample(r->spe, off & ~PD_SPE_REF, &out->sample);
			sample_totals_add(&r->st.counted, out);
			return 1;
		}
		rec = aligned(r, off);
		l = layout_of(r, rec);
		if (!l && rec->type == PERF_RECORD_SAMPLE)
			return bad(r, err, "sample at %s of an event id no event has", where(r, off, buf, sizeof(buf)));
		rc = perf_record_decode(rec, l ? l : &r->layouts[0], out, &why);
		if (rc < 0)
			return bad(r, err, "record at %s: %s", where(r, off, buf, sizeof(buf)), why.msg);
		if (rc == 0)
			continue;
		if (out->type == SREC_THROTTLE || out->type == SREC_UNTHROTTLE) {
			int64_t ev = event_of_id(r, out->throttle.id);

			out->throttle.evidx = ev >= 0 ? (uint32_t)ev : 0;
		}
		fix_event(r, out);
		if (out->type == SREC_SAMPLE) {
			ibs_sample(r, &out->sample);
		}
		if (off < r->size)
			r->tell = off + rec->size;
		release_behind(r, off + rec->size);
		sample_totals_add(&r->st.counted, out);
		return 1;
	}
	return 0;
}

/* one AUX record of the file, as perf report -D heads it */
static void dump_aux_record(struct perf_data_reader *r, FILE *out, const unsigned char *p, uint32_t type,
			    uint16_t size, uint64_t payload, struct spe_unknown *u)
{
	if (type == PD_RECORD_AUXTRACE_INFO && size >= 16) {
		r->aux_type = pd_u32(p + 8);
		fprintf(out, "AUXTRACE_INFO type: %u (%s)\n", r->aux_type, aux_type_name(r->aux_type));
		if (r->aux_type == SPE_AUXTRACE_TYPE && size >= 16 + 8 * SPE_PRIV_MIN)
			fprintf(out, "  PMU Type           %" PRId64 "\n", (int64_t)pd_u64(p + 16));
		return;
	}
	if (type != PD_RECORD_AUXTRACE || size < PD_AUXTRACE_FIXED)
		return;
	fprintf(out, "AUXTRACE size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64 "  idx: %u  tid: %d  cpu: %d\n",
		payload, pd_u64(p + 16), pd_u64(p + 24), pd_u32(p + 32), (int32_t)pd_u32(p + 36),
		(int32_t)pd_u32(p + 40));
	if (r->aux_type == SPE_AUXTRACE_TYPE) {
		spe_dump(out, p + size, payload, pd_u64(p + 16), u);
	} else {
		r->aux_skipped++;
		r->aux_skipped_bytes += payload;
	}
}

int perf_data_reader_dump_aux(struct perf_data_reader *r, FILE *out, struct pf_error *err)
{
	struct spe_unknown u = { 0 };
	char note[256];
	uint64_t off = r->data_off;

	if (read_fail_again(&r->fail, err))
		return -1;
	r->aux_type = 0;
	r->aux_skipped = r->aux_skipped_bytes = 0;
	while (off < r->data_end && r->data_end - off >= 8) {
		const unsigned char *p = r->buf + off;
		uint32_t type = pd_u32(p);
		uint16_t size = pd_u16(p + 6);
		uint64_t payload = payload_after(p, type, size);

		if (size < 8)
			return bad(r, err, "record at offset %" PRIu64 " has the impossible size %u", off, size);
		if (size > r->data_end - off || payload > r->data_end - off - size)
			break; /* cut: said below */
		if (type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2)
			return bad(r, err, "compressed records (perf record -z): --dump-aux reads plain records only");
		dump_aux_record(r, out, p, type, size, payload, &u);
		if (type == PERF_RECORD_AUX && size >= 32 && (pd_u64(p + 24) & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL)))
			u.lost_aux++;
		off += size + payload;
	}
	if (off < r->data_end)
		fprintf(stderr, "warning: '%s' is truncated at offset %" PRIu64 ": the AUX trace after it is lost\n",
			r->name, off);
	spe_unknown_note(&u, note, sizeof(note));
	if (note[0])
		fprintf(stderr, "note: '%s': Arm SPE trace not decoded: %s\n", r->name, note);
	if (r->aux_skipped)
		fprintf(stderr, "note: '%s': %" PRIu64 " AUX trace buffer%s of %s (%" PRIu64 " bytes) not decoded\n",
			r->name, r->aux_skipped, r->aux_skipped == 1 ? "" : "s", aux_type_name(r->aux_type),
			r->aux_skipped_bytes);
	return 0;
}

void perf_data_reader_close(struct perf_data_reader *r)
{
	if (!r)
		return;
	if (r->mapped)
		munmap((void *)r->buf, r->size);
	else
		free((void *)r->buf);
	if (r->f && r->f != stdin)
		fclose(r->f);
	for (uint32_t i = 0; i < r->h.nr_events; i++)
		free(r->h.events[i].name);
	free(r->h.events);
	str_vec_free(r->h.argv);
	for (size_t i = 0; i < r->n_binaries; i++)
		free(r->binaries[i].path);
	free(r->binaries);
	free(r->layouts);
	free(r->ids);
	free(r->order);
	free(r->pending);
	free(r->round_ends);
	zstd_stream_free(r->zstd);
	pd_spe_free(r->spe);
	free(r->decoded.buf);
	free(r->name);
	free(r);
}
