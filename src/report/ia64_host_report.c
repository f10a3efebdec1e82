/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon's own sample files (live host samples) through the sampling
 * modules that need no EAR or BTB: detailed, compact and inst-hist.
 */
#include <config.h>

#include <inttypes.h>

#include "report/ia64_report_int.h"
#include "sample/smpl_file.h"

static void host_detailed(struct ia64_report *r, const struct sample *s, const char *event)
{
	FILE *out = r->out;

	put_str(out, "entry ");
	put_uint(out, r->entry, 10);
	put_id(out, "PID", s->fields & SAMPLE_F_TID, s->pid, 10);
	put_id(out, "TID", s->fields & SAMPLE_F_TID, s->tid, 10);
	put_id(out, "CPU", s->fields & SAMPLE_F_CPU, s->cpu, 10);
	put_id(out, "STAMP", s->fields & SAMPLE_F_TIME, s->time, 16);
	put_id(out, "OVFL", true, s->evidx, 10);
	put_id(out, "LAST_VAL", s->fields & SAMPLE_F_PERIOD, s->period, 10);
	put_str(out, " SET:0 IIP:");
	put_hex16(out, s->ip);
	ia64_put_sym(r, s->ip, false);
	fprintf(out, "\n\tEVENT : %s\n", event);
	if (s->fields & SAMPLE_F_ADDR) {
		put_str(out, "\tADDR  : ");
		put_hex16(out, s->addr);
		ia64_put_sym(r, s->addr, true);
		putc_unlocked('\n', out);
	}
	if (s->fields & SAMPLE_F_WEIGHT)
		fprintf(out, "\tWEIGHT: %" PRIu64 "\n", s->weight);
	if (s->fields & SAMPLE_F_DATA_SRC)
		fprintf(out, "\tDATA_SRC: 0x%" PRIx64 "\n", s->data_src);
	for (uint32_t i = 0; i < s->read_nr; i++)
		fprintf(out, "\tREAD%-2u: %" PRIu64 "\n", i, s->read[i]);
	/* the branch stack oldest first, a chronological trace like the BTB's */
	for (uint32_t i = s->branch_nr; i-- > 0;) {
		const struct sample_branch *b = &s->branches[i];

		put_str(out, "\tBRANCH: source addr=");
		put_hex16(out, b->from);
		ia64_put_sym(r, b->from, false);
		put_str(out, " target addr=");
		put_hex16(out, b->to);
		ia64_put_sym(r, b->to, false);
		put_str(out, b->flags & SAMPLE_BR_MISPRED ? " prediction=failure\n" : " prediction=success\n");
	}
	for (uint32_t i = 0; i < s->callchain_nr; i++)
		fprintf(out, "\tCALLCHAIN%-2u: 0x%016" PRIx64 "\n", i, s->callchain[i]);
}

static void host_compact(struct ia64_report *r, const struct sample *s)
{
	FILE *out = r->out;

	if (r->entry == 0)
		ia64_compact_header(out);
	ia64_compact_entry(out, r->entry);
	ia64_compact_field(out, s->fields & SAMPLE_F_TID, s->pid, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_TID, s->tid, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_CPU, s->cpu, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_TIME, s->time, 16);
	ia64_compact_field(out, true, s->evidx, 10);
	ia64_compact_field(out, s->fields & SAMPLE_F_PERIOD, s->period, 10);
	put_str(out, " 0 ");
	put_hex16(out, s->ip);
	for (uint32_t i = 0; i < s->read_nr; i++)
		fprintf(out, " %" PRIu64, s->read[i]);
	fputc('\n', out);
}

int ia64_report_host_record(struct ia64_report *r, const struct smpl_header *h,
			    const struct sample_record *rec, struct pf_error *err)
{
	struct sym_maps *maps = sym_resolver_maps(r->res);
	const struct sample *s = &rec->sample;

	switch (rec->type) {
	case SREC_MMAP:
		ia64_names_clear(r);
		sym_maps_add(maps, rec->mmap.pid, rec->mmap.start, rec->mmap.len, rec->mmap.pgoff,
			     rec->mmap.filename);
		return 0;
	case SREC_FORK:
		if (rec->task.pid != rec->task.ppid) {
			ia64_names_clear(r);
			sym_maps_fork(maps, rec->task.ppid, rec->task.pid);
		}
		return 0;
	case SREC_COMM:
		if (rec->comm.exec) {
			ia64_names_clear(r);
			sym_maps_clear(maps, rec->comm.pid);
		}
		return 0;
	case SREC_SAMPLE:
		break;
	default:
		return 0;
	}
	r->pid = s->pid;
	switch (r->opts.module) {
	case IA64_MOD_DETAILED:
		host_detailed(r, s, s->evidx < h->nr_events ? h->events[s->evidx].name : "?");
		break;
	case IA64_MOD_COMPACT:
		host_compact(r, s);
		break;
	case IA64_MOD_INST_HIST:
		/* one row per (process, address): the same address names another
		 * binary in another process */
		ia64_hist_count(&r->hist, s->ip, s->pid);
		break;
	default:
		return pf_error_set(err, PF_E_MODULE_NEEDS, ia64_smpl_module_name(r->opts.module),
				    "an Itanium 2 dump (--pmu=itanium2)", "sample files hold no EAR or BTB registers");
	}
	r->period_sum += s->period;
	r->entry++;
	return 0;
}
