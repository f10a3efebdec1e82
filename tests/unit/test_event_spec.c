/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event-string front end: grammar, lists, and the host encoder's
 * perf generic table checked against libpfm4's own encoding. */
#include <config.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "event/event_spec.h"
#include "pmu/host.h"
#include "pmu/libpfm.h"
#include "pmu/perf_generic.h"
#include "tap.h"

static void test_grammar(void)
{
	struct event_spec s;
	struct pf_error err;

	ok(event_spec_parse("icx::INST_RETIRED:ANY_P:u=1:c=2", &s, &err) == 0, "libpfm4 string parses");
	is_str(s.pmu, "icx", "PMU prefix");
	is_str(s.name, "INST_RETIRED", "event name");
	ok(s.n_quals == 3, "three qualifiers");
	is_str(s.quals[0].key, "ANY_P", "unit mask");
	ok(s.quals[0].value == NULL, "unit mask has no value");
	is_str(s.quals[2].key, "c", "modifier key");
	is_str(s.quals[2].value, "2", "modifier value");
	event_spec_release(&s);

	ok(event_spec_parse("L2_OZQ_CANCELS0.RECIRC", &s, &err) == 0, "manual's EVENT.UMASK parses");
	is_str(s.name, "L2_OZQ_CANCELS0", "name before the dot");
	is_str(s.dot_umask, "RECIRC", "umask after the dot");
	event_spec_release(&s);

	ok(event_spec_parse("cycles:u", &s, &err) == 0 && s.n_quals == 1, "perf modifier suffix");
	event_spec_release(&s);

	ok(event_spec_parse("", &s, &err) < 0 && err.code == PF_E_EVENT_SYNTAX, "empty string refused");
	event_spec_release(&s);
	ok(event_spec_parse("::CYCLES", &s, &err) < 0, "empty PMU refused");
	is_str(err.msg, "invalid event '::CYCLES': missing PMU name before '::'", "message names the problem");
	event_spec_release(&s);
	ok(event_spec_parse("A::", &s, &err) < 0, "missing name refused");
	event_spec_release(&s);
	ok(event_spec_parse("X:", &s, &err) < 0, "empty qualifier refused");
	event_spec_release(&s);
	ok(event_spec_parse("X:c=", &s, &err) < 0, "modifier without value refused");
	event_spec_release(&s);
	ok(event_spec_parse("X:c=1=2", &s, &err) < 0, "modifier with two values refused");
	event_spec_release(&s);
	ok(event_spec_parse("X Y", &s, &err) < 0, "space refused");
	event_spec_release(&s);
	/* the Itanium 2 manual's BR_MISPRED_DETAIL.ALL.ALL_PRED: the unit mask holds a dot */
	ok(event_spec_parse("A.B.C", &s, &err) == 0 && !strcmp(s.name, "A") && !strcmp(s.dot_umask, "B.C"),
	   "a unit mask after the first dot may hold dots");
	event_spec_release(&s);
	ok(event_spec_parse("A..B", &s, &err) < 0, "an empty part between dots refused");
	event_spec_release(&s);
	ok(event_spec_parse("A.B.", &s, &err) < 0, "a trailing dot refused");
	event_spec_release(&s);
}

static void test_lists(void)
{
	struct pf_error err;
	size_t n = 0;
	char **v = event_list_split("cycles,instructions,task-clock", &n, &err);

	ok(v && n == 3, "three events in the list");
	is_str(v ? v[2] : NULL, "task-clock", "third event");
	str_vec_free(v);
	ok(event_list_split("cycles,,task-clock", &n, &err) == NULL, "empty entry refused");
	ok(event_list_split("cycles,", &n, &err) == NULL, "trailing comma refused");

	/* perf's PMU form: the commas between its slashes are its terms' */
	v = event_list_split("cpu/event=0x3c,umask=0/u,task-clock,msr/tsc/,mem:0x10/8:rw,cycles", &n, &err);
	ok(v && n == 5, "five events beside PMU forms and a breakpoint");
	is_str(v ? v[0] : NULL, "cpu/event=0x3c,umask=0/u", "a PMU form with terms and modifiers");
	is_str(v ? v[2] : NULL, "msr/tsc/", "a PMU form with one term");
	is_str(v ? v[3] : NULL, "mem:0x10/8:rw", "a breakpoint's slash is not a PMU's");
	str_vec_free(v);
	v = event_list_split("cpu/event=1,umask=2", &n, &err);
	ok(v && n == 1, "an unterminated PMU form is one event, for its model to refuse");
	str_vec_free(v);
	ok(event_list_split("msr/tsc/,", &n, &err) == NULL, "trailing comma after a PMU form refused");
	ok(event_spec_pmu_form("msr/tsc/") && !event_spec_pmu_form("mem:0x10/8") && !event_spec_pmu_form("/x/"),
	   "the PMU form is a name, then '/' before any ':'");
}

/* every row of our generic table must agree with libpfm4's perf:: encoding */
static void test_generic_vs_libpfm(void)
{
	const struct perf_generic_event *ev;
	const struct libpfm *pfm = libpfm(NULL);

	ok(pfm != NULL, "libpfm4 loads and initialises");
	if (!pfm)
		return;
	for (size_t i = 0; (ev = perf_generic_at(i)); i++) {
		struct perf_event_attr attr = { .size = sizeof(attr) };
		pfm_perf_encode_arg_t arg = { .size = sizeof(arg), .attr = &attr };
		char *name;
		int rc;

		if (!ev->libpfm_name) {
			ok(1, "# SKIP %s: libpfm4 has no name for it", ev->name);
			continue;
		}
		name = xasprintf("perf::%s", ev->libpfm_name);
		rc = pfm->get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);

		ok(rc == PFM_SUCCESS && attr.type == ev->type && attr.config == ev->config,
		   "%s matches libpfm4's %s (type %u config %llu)", ev->name, name, attr.type,
		   (unsigned long long)attr.config);
		free(name);
	}
}

static void test_host_encoding(void)
{
	struct counter_prog c;
	struct pf_error err;

	ok(host_encode_event("cycles", 0, &c, &err) == 0, "cycles encodes");
	ok(c.attr.type == PERF_TYPE_HARDWARE && c.attr.config == PERF_COUNT_HW_CPU_CYCLES, "cycles attr");
	ok(c.attr.exclude_kernel && !c.attr.exclude_user, "hardware default: user level only (pfmon)");
	counter_prog_release(&c);

	ok(host_encode_event("context-switches", 0, &c, &err) == 0, "context-switches encodes");
	ok(!c.attr.exclude_kernel && !c.attr.exclude_user && c.is_software,
	   "software default: every level (perf)");
	counter_prog_release(&c);

	ok(host_encode_event("cs:k", 0, &c, &err) == 0 && c.attr.exclude_user && !c.attr.exclude_kernel,
	   "perf alias with :k");
	counter_prog_release(&c);

	ok(host_encode_event("cycles", PF_PLM0 | PF_PLM3, &c, &err) == 0 && !c.attr.exclude_kernel,
	   "-k -u counts both levels");
	counter_prog_release(&c);

	ok(host_encode_event("mem:0x1000/4:w", 0, &c, &err) == 0, "breakpoint encodes");
	ok(c.attr.type == PERF_TYPE_BREAKPOINT && c.attr.bp_addr == 0x1000 && c.attr.bp_len == 4 &&
		   c.attr.bp_type == 2 /* HW_BREAKPOINT_W */,
	   "breakpoint attr");
	counter_prog_release(&c);
	ok(host_encode_event("mem:0x1000/3", 0, &c, &err) < 0, "breakpoint length 3 refused");
	ok(host_encode_event("mem:0x1000:q", 0, &c, &err) < 0, "breakpoint access q refused");
	ok(host_encode_event("mem:zz", 0, &c, &err) < 0, "breakpoint without address refused");

	ok(host_encode_event("task-clok", 0, &c, &err) < 0 && err.code == PF_E_UNKNOWN_EVENT,
	   "misspelt event is unknown");
	ok(strstr(err.msg, "did you mean 'task-clock'") != NULL, "with a suggestion: %s", err.msg);
	ok(host_encode_event("cycles:x", 0, &c, &err) < 0 && err.code == PF_E_BAD_MODIFIER,
	   "bad perf modifier refused");
}

int main(void)
{
	test_grammar();
	test_lists();
	test_generic_vs_libpfm();
	test_host_encoding();
	return tap_done();
}
