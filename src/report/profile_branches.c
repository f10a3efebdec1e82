/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Samples' branch stacks: the taken branches counted in pairs (perf report
 * -b's symbol_from,symbol_to and srcline_from,srcline_to), the blocks run
 * between two of them (hot paths), the mispredicted ones by cost, and
 * BOLT's fdata of the pairs.
 *
 * A stack holds the most recent branch first.  Between an older branch i+1
 * and the next one i, the code ran straight from entry[i+1].to to
 * entry[i].from: one execution of the block [to, from], and entry[i]'s
 * cycles (the cycles since the previous taken branch) are its time.
 */
#include <config.h>

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "flame.h"
#include "profile_internal.h"
#include "sample/branch.h"

/* A block longer than this is taken for a lost branch in between (a
 * branch the filter or an interrupt left out), not one straight run:
 * perf2bolt's aggregation refuses such ranges too. */
#define BLOCK_SPAN_MAX 4096u

/* kernel addresses have the top bit set (x86-64, arm64, IA-64 region 7) */
static struct prof_frame branch_frame(struct profile *p, uint32_t pid, uint64_t addr)
{
	if ((int64_t)addr < 0) {
		u64set_add(&p->kernel_ips, addr);
		return (struct prof_frame){ FRAME_KERNEL, NULL, addr };
	}
	/* per address: the answer of one (binary, address) is one pointer */
	return prof_user_frame(p, pid, addr, false);
}

static void count_entry(struct prof_entry *e, const struct branch *b, uint64_t count)
{
	e->mispred += b->mispred ? count : 0;
	if (b->cycles) {
		e->timed += count;
		e->cycles += (uint64_t)b->cycles * count;
	}
}

/* the block [first, last] ran, ending at branch b; false when it cannot be one */
static bool add_block(struct profile *p, uint32_t pid, uint64_t first, const struct branch *b, uint64_t count)
{
	struct prof_frame key[2];

	if (first > b->from || b->from - first > BLOCK_SPAN_MAX)
		return false;
	key[0] = branch_frame(p, pid, first);
	key[1] = branch_frame(p, pid, b->from);
	if (key[0].kind != key[1].kind || (key[0].res && key[1].res && key[0].res->binary != key[1].res->binary))
		return false;
	count_entry(prof_keymap_add(&p->br.blocks, key, 2, count), b, count);
	return true;
}

/* one branch, older the one before it in the same stack (NULL: none) */
static void add_branch(struct profile *p, uint32_t pid, const struct branch *b, const struct branch *older,
		       uint64_t count)
{
	struct prof_branches *br = &p->br;
	struct prof_frame key[2] = { branch_frame(p, pid, b->from), branch_frame(p, pid, b->to) };

	br->branches += count;
	br->timed += b->cycles ? count : 0;
	count_entry(prof_keymap_add(&br->pairs, key, 2, count), b, count);
	if (!older)
		return;
	/* a branch whose target was lost (an IA-64 BTB's) starts no block */
	if (older->to && add_block(p, pid, older->to, b, count))
		br->blocks_run += count;
	else
		br->broken += count;
}

/* perf 6.1's names of a branch type (util/branch.c; new types as its
 * builds for other machines than arm64 name them, whatever the file's
 * machine), "" when not recorded */
static const char *brstack_type_name(const struct branch *b)
{
	static const char *const types[] = { "", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					     "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
					     "SERROR", "NO_TX" };
	static const char *const new_types[] = { "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
						 "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5" };

	if (b->type == PERF_BR_EXTEND_ABI)
		return b->new_type < ARRAY_SIZE(new_types) ? new_types[b->new_type] : "";
	return b->type < ARRAY_SIZE(types) ? types[b->type] : "";
}

/* --report-format=brstack: the sample's line as perf script -F brstack
 * prints it: " from/to/M|P|-/X|-/A|-/cycles/type " per entry, newest
 * first (perf 6.1 shows neither spec nor priv) */
static void add_brstack_line(struct strbuf *sb, const struct sample *s)
{
	struct branch b;

	for (uint32_t i = 0; i < s->branch_nr; i++) {
		branch_decode(&s->branches[i], &b);
		strbuf_addf(sb, " 0x%" PRIx64 "/0x%" PRIx64 "/%c/%c/%c/%u/%s ", b.from, b.to,
			    b.mispred ? 'M' : b.predicted ? 'P' : '-', b.in_tx ? 'X' : '-', b.abort ? 'A' : '-',
			    b.cycles, brstack_type_name(&b));
	}
	strbuf_addch(sb, '\n');
}

void prof_add_branches(struct profile *p, const struct sample *s, uint64_t count)
{
	struct prof_branches *br = &p->br;
	struct branch b, older = { 0 };

	if (p->opts.format == PROFILE_BRSTACK) {
		if (s->fields & SAMPLE_F_BRANCH)
			add_brstack_line(&br->brstack, s);
		return;
	}
	if (!(s->fields & SAMPLE_F_BRANCH) || !s->branch_nr)
		return;
	br->samples += count;
	for (uint32_t i = s->branch_nr; i-- > 0;) { /* oldest first */
		uint64_t reserved = branch_decode(&s->branches[i], &b);

		if (reserved) {
			br->reserved_bits |= reserved;
			br->reserved_entries += count;
		}
		add_branch(p, s->pid, &b, i + 1 < s->branch_nr ? &older : NULL, count);
		older = b;
	}
}

void profile_add_branches(struct profile *p, uint32_t pid, const struct branch *v, size_t n, uint64_t count)
{
	if (!n)
		return;
	p->br.samples += count;
	for (size_t i = n; i-- > 0;)
		add_branch(p, pid, &v[i], i + 1 < n ? &v[i + 1] : NULL, count);
}

/* ---- naming, once the kernel's symbols are known ---- */

/* a block's end: "function+0x1c" ("function" at its start), or the address */
static void name_address(struct profile *p, const struct prof_frame *f, struct strbuf *out)
{
	const struct sym_result *r = f->res;

	if (f->kind == FRAME_KERNEL && p->kernel_named)
		r = sym_resolve_kernel(p->res, f->addr);
	if (r && r->func && !r->wrong_file && r->offset)
		strbuf_addf(out, "%s+0x%" PRIx64, r->func, r->offset);
	else if (r && r->func && !r->wrong_file)
		strbuf_addstr(out, r->func);
	else
		prof_name_frame(p, f, PROFILE_BY_ADDRESS, out);
}

static void name_end(struct profile *p, const struct prof_frame *f, struct strbuf *out)
{
	switch (p->opts.format == PROFILE_FDATA ? PROFILE_BY_ADDRESS : p->opts.sort) {
	case PROFILE_BY_BRANCH_LINE:
		prof_name_frame(p, f, PROFILE_BY_LINE, out);
		return;
	case PROFILE_BY_BRANCH:
		prof_name_frame(p, f, PROFILE_BY_FUNCTION, out);
		return;
	default: /* blocks, mispredicted branches, fdata: each address */
		name_address(p, f, out);
	}
}

/* fdata: the end's function and offset, when a user symbol covers it */
static void fdata_end(const struct prof_frame *f, const char **func, uint64_t *off)
{
	bool named = f->kind == FRAME_USER && f->res && f->res->func && !f->res->wrong_file;

	*func = named ? f->res->func : NULL;
	*off = named ? f->res->offset : 0;
}

static struct prof_branch_row *row_of(struct prof_branches *br, const char *from, const char *to,
				      const struct prof_entry *e)
{
	struct strbuf key = STRBUF_INIT;
	size_t at;

	strbuf_addf(&key, "%s\n%s", from, to);
	at = strmap_get(&br->row_index, strbuf_str(&key));
	if (!at) {
		XGROW(br->rows, br->cap_rows, br->n_rows);
		br->rows[br->n_rows] = (struct prof_branch_row){ .from = xstrdup(from), .to = xstrdup(to) };
		at = ++br->n_rows;
		strmap_add(&br->row_index, strbuf_str(&key), at);
		fdata_end(&e->frames[0], &br->rows[at - 1].from_func, &br->rows[at - 1].from_off);
		fdata_end(&e->frames[1], &br->rows[at - 1].to_func, &br->rows[at - 1].to_off);
	}
	strbuf_release(&key);
	return &br->rows[at - 1];
}

static void add_row(struct prof_branch_row *row, const struct prof_entry *e)
{
	row->count += e->count;
	row->mispred += e->mispred;
	row->timed += e->timed;
	row->cycles += e->cycles;
}

void prof_name_branches(struct profile *p)
{
	struct prof_branches *br = &p->br;
	bool blocks = p->opts.sort == PROFILE_BY_BLOCK && p->opts.format != PROFILE_FDATA;
	struct prof_keymap *m = blocks ? &br->blocks : &br->pairs;
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	const struct prof_entry *e;

	strmap_init(&br->row_index);
	for (size_t i = 0; (e = prof_keymap_next(m, &i));) {
		struct prof_branch_row *row;

		if (p->opts.sort == PROFILE_BY_MISPREDICT && p->opts.format != PROFILE_FDATA && !e->mispred)
			continue;
		strbuf_reset(&from);
		strbuf_reset(&to);
		name_end(p, &e->frames[0], &from);
		name_end(p, &e->frames[1], &to);
		row = row_of(br, strbuf_str(&from), strbuf_str(&to), e);
		add_row(row, e);
		br->total += e->count;
		if (blocks && !row->line && e->frames[0].res && e->frames[0].res->file && e->frames[0].res->line) {
			strbuf_reset(&from);
			prof_name_frame(p, &e->frames[0], PROFILE_BY_LINE, &from);
			row->line = xstrdup(strbuf_str(&from));
		}
	}
	strbuf_release(&from);
	strbuf_release(&to);
	strmap_release(&br->row_index);
	prof_keymap_release(&br->pairs);
	prof_keymap_release(&br->blocks);
}

void prof_release_branches(struct prof_branches *br)
{
	strbuf_release(&br->brstack);
	for (size_t i = 0; i < br->n_rows; i++) {
		free(br->rows[i].from);
		free(br->rows[i].to);
		free(br->rows[i].line);
	}
	free(br->rows);
	prof_keymap_release(&br->pairs);
	prof_keymap_release(&br->blocks);
}

/* ---- printing ---- */

void prof_print_branch_note(const struct profile *p, FILE *err)
{
	const char *sep = "";

	if (!p->br.reserved_entries)
		return;
	fprintf(err, "note: %" PRIu64 " branches have perf flag bits no known kernel defines (bit", p->br.reserved_entries);
	if (p->br.reserved_bits & (p->br.reserved_bits - 1))
		fputc('s', err);
	for (unsigned i = 0; i < 64; i++)
		if (p->br.reserved_bits >> i & 1) {
			fprintf(err, "%s %u", sep, i);
			sep = ",";
		}
	fputs("): a newer kernel's fields, not read\n", err);
}

static double avg_cycles(const struct prof_branch_row *r)
{
	return r->timed ? (double)r->cycles / (double)r->timed : 0.0;
}

/* the mispredicted branches' cost: each one's cycles when recorded, else 1 */
static double cost(const struct prof_branch_row *r)
{
	return (double)r->mispred * (r->timed ? avg_cycles(r) : 1.0);
}

static int cmp_str(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

static bool by_cost;

/* by count (by cost for the mispredicted view), then by name: the same bytes every run */
static int cmp_rows(const void *x, const void *y)
{
	const struct prof_branch_row *a = x, *b = y;
	int c;

	if (by_cost && cost(a) != cost(b))
		return cost(a) < cost(b) ? 1 : -1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return (c = strcmp(a->from, b->from)) ? c : (c = strcmp(a->to, b->to)) ? c : cmp_str(a->line, b->line);
}

static void sort_rows(const struct profile *p)
{
	by_cost = p->opts.sort == PROFILE_BY_MISPREDICT;
	if (p->br.n_rows)
		qsort(p->br.rows, p->br.n_rows, sizeof(*p->br.rows), cmp_rows);
}

/* --smpl-show-top and --smpl-cum-threshold */
static size_t shown_rows(const struct profile *p)
{
	uint64_t cum = 0;
	size_t i;

	for (i = 0; i < p->br.n_rows; i++) {
		if ((p->opts.top && i >= p->opts.top) || (p->br.total && cum * 100 >= p->opts.cum_threshold * p->br.total))
			break;
		cum += p->br.rows[i].count;
	}
	return i;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_header_text(const struct profile *p, FILE *out)
{
	const struct prof_branches *br = &p->br;
	static const char *const what[] = { "taken branches by function", "taken branches by source line",
					    "hot paths: blocks between taken branches",
					    "mispredicted branches by cost" };

	fprintf(out, "# pfmon branch profile: %s\n", what[p->opts.sort - PROFILE_BY_BRANCH]);
	fprintf(out, "# %" PRIu64 " samples with a branch stack, %" PRIu64 " taken branches (%" PRIu64
		     " with cycles), %" PRIu64 " blocks",
		br->samples, br->branches, br->timed, br->blocks_run);
	if (br->broken)
		fprintf(out, " (%" PRIu64 " ranges that are no block left out)", br->broken);
	fputc('\n', out);
}

static void print_block_rows(const struct profile *p, size_t n, FILE *out)
{
	fprintf(out, "# %10s %7s %10s  %s\n", "count", "%total", "avg cycles", "block (first..last instruction) source line");
	for (size_t i = 0; i < n; i++) {
		const struct prof_branch_row *r = &p->br.rows[i];

		fprintf(out, "  %10" PRIu64 " %6.2f%% %10.1f  ", r->count, pct(r->count, p->br.total), avg_cycles(r));
		fput_escaped(out, r->from);
		fputs("..", out);
		fput_escaped(out, r->to);
		if (r->line) {
			fputc(' ', out);
			fput_escaped(out, r->line);
		}
		fputc('\n', out);
	}
}

void prof_print_branches_text(const struct profile *p, FILE *out)
{
	size_t n;
	bool mispredict = p->opts.sort == PROFILE_BY_MISPREDICT;

	sort_rows(p);
	n = shown_rows(p);
	print_header_text(p, out);
	if (p->opts.sort == PROFILE_BY_BLOCK) {
		print_block_rows(p, n, out);
		return;
	}
	fprintf(out, "# %10s %7s %10s %8s %10s%s  %s\n", "count", "%total", "mispred", "%mispred", "avg cycles",
		mispredict ? "       cost" : "", "from -> to");
	for (size_t i = 0; i < n; i++) {
		const struct prof_branch_row *r = &p->br.rows[i];

		fprintf(out, "  %10" PRIu64 " %6.2f%% %10" PRIu64 " %7.2f%% %10.1f", r->count,
			pct(r->count, p->br.total), r->mispred, pct(r->mispred, r->count), avg_cycles(r));
		if (mispredict)
			fprintf(out, " %10.1f", cost(r));
		fputs("  ", out);
		fput_escaped(out, r->from);
		fputs(" -> ", out);
		fput_escaped(out, r->to);
		fputc('\n', out);
	}
}

void prof_print_branches_json(const struct profile *p, FILE *out)
{
	static const char *const views[] = { "pairs", "pairs", "paths", "mispredicted" };
	const struct prof_branches *br = &p->br;
	bool blocks = p->opts.sort == PROFILE_BY_BLOCK;
	struct json_writer w;
	size_t n;

	sort_rows(p);
	n = shown_rows(p);
	json_init(&w, out, false);
	json_begin_object(&w);
	json_key_string(&w, "sort", prof_sort_name(p->opts.sort));
	json_key_uint(&w, "samples", br->samples);
	json_key_uint(&w, "branches", br->branches);
	json_key_uint(&w, "branches_with_cycles", br->timed);
	json_key_uint(&w, "blocks", br->blocks_run);
	json_key_uint(&w, "broken_ranges", br->broken);
	json_key_uint(&w, "reserved_flag_branches", br->reserved_entries);
	json_key(&w, "reserved_flag_bits");
	json_hex(&w, br->reserved_bits);
	json_key(&w, views[p->opts.sort - PROFILE_BY_BRANCH]);
	json_begin_array(&w);
	for (size_t i = 0; i < n; i++) {
		const struct prof_branch_row *r = &br->rows[i];

		json_begin_object(&w);
		json_key_string(&w, blocks ? "first" : "from", r->from);
		json_key_string(&w, blocks ? "last" : "to", r->to);
		if (blocks) {
			json_key(&w, "line");
			if (r->line)
				json_string(&w, r->line);
			else
				json_null(&w);
		}
		json_key_uint(&w, "count", r->count);
		if (!blocks) {
			json_key_uint(&w, "mispredicted", r->mispred);
			json_key(&w, "mispredict_rate");
			json_double(&w, r->count ? (double)r->mispred / (double)r->count : 0.0, 4);
		}
		json_key_uint(&w, "with_cycles", r->timed);
		json_key(&w, "avg_cycles");
		json_double(&w, avg_cycles(r), 2);
		if (p->opts.sort == PROFILE_BY_MISPREDICT) {
			json_key(&w, "cost");
			json_double(&w, cost(r), 2);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_newline(&w);
}

/* "from;to count": a pair (or a block) as a two-frame stack */
void prof_print_branches_folded(const struct profile *p, FILE *out)
{
	sort_rows(p);
	for (size_t i = 0, n = shown_rows(p); i < n; i++) {
		const struct prof_branch_row *r = &p->br.rows[i];

		fput_escaped(out, r->from);
		fputc(';', out);
		fput_escaped(out, r->to);
		fprintf(out, " %" PRIu64 "\n", r->count);
	}
}

/* a name BOLT can read as one field: no blank */
static bool fdata_name(const char *s)
{
	return s && *s && !strpbrk(s, " \t\n");
}

/*
 * BOLT's fdata as perf2bolt writes it from LBR samples: one line per taken
 * branch pair, "1 FROM_FUNC FROM_OFF 1 TO_FUNC TO_OFF MISPREDS COUNT",
 * offsets in hex from the function's start; an end no symbol covers is
 * "0 [unknown] 0".  BOLT derives the fall-throughs itself from its CFG.
 */
void prof_print_fdata(const struct profile *p, FILE *out)
{
	sort_rows(p);
	for (size_t i = 0; i < p->br.n_rows; i++) {
		const struct prof_branch_row *r = &p->br.rows[i];
		bool f = fdata_name(r->from_func), t = fdata_name(r->to_func);

		if (!f && !t)
			continue; /* nothing of it is in a binary BOLT could read */
		if (f)
			fprintf(out, "1 %s %" PRIx64 " ", r->from_func, r->from_off);
		else
			fputs("0 [unknown] 0 ", out);
		if (t)
			fprintf(out, "1 %s %" PRIx64 " ", r->to_func, r->to_off);
		else
			fputs("0 [unknown] 0 ", out);
		fprintf(out, "%" PRIu64 " %" PRIu64 "\n", r->mispred, r->count);
	}
}

/* a flame graph of the pairs: each branch's source, its target above it */
void prof_print_branches_svg(const struct profile *p, FILE *out)
{
	struct flame *f = flame_new();
	struct flame_svg_opts o = { .title = "Taken branches", .subtitle = "source, its target above" };

	sort_rows(p);
	for (size_t i = 0, n = shown_rows(p); i < n; i++) {
		const struct prof_branch_row *r = &p->br.rows[i];
		struct flame_frame fr[2] = { { r->from, NULL, FLAME_USER }, { r->to, NULL, FLAME_USER } };

		flame_add(f, fr, 2, r->count);
	}
	flame_write_svg(f, &o, out);
	flame_free(f);
}
