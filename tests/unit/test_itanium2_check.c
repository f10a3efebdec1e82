/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --check formatting of an Itanium 2 set (cli/check_print.c). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "event/pmu_model.h"
#include "pmu/itanium2.h"
#include "cli/check_print.h"
#include "tap.h"

extern const struct pmu_model pmu_itanium2;

static char *render(const char *const *events, size_t n, const char *btb_option, bool verbose)
{
	void *opts = pmu_itanium2.options_new(1);
	struct encode_opts o = { .live = true, .model_opts = opts };
	char **ev = calloc(n + 1, sizeof(char *));
	struct set_prog p;
	struct pf_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < n; i++)
		ev[i] = strdup(events[i]);
	for (size_t r = 0; btb_option && r < pmu_itanium2.n_options; r++)
		if (!strcmp(pmu_itanium2.options[r].long_name, btb_option))
			pmu_itanium2.options[r].apply(opts, 0, NULL, &err);
	if (pmu_encode_events(&pmu_itanium2, &o, ev, n, &p, &err) == 0) {
		check_print_set(f, &pmu_itanium2, 0, 1, &p, verbose);
		set_prog_release(&p);
	} else {
		fprintf(f, "error: %s\n", err.msg);
	}
	fclose(f);
	for (size_t i = 0; i < n; i++)
		free(ev[i]);
	free(ev);
	pmu_itanium2.options_free(opts);
	return buf;
}

int main(void)
{
	const char *ev1[] = { "cpu_cycles", "L2_REFERENCES" };
	const char *ev2[] = { "BRANCH_EVENT" };
	char *out, *row = NULL;
	size_t len = 0;
	FILE *f;

	out = render(ev1, 2, NULL, false);
	ok(strstr(out, "CPU_CYCLES") && strstr(out, "PMC5/PMD5  0x001228\n"), "CPU_CYCLES line");
	ok(strstr(out, "L2_REFERENCES") && strstr(out, "PMC4/PMD4  0x00b128\n"), "L2_REFERENCES line");
	ok(strstr(out, "note: PMC4 is written with bit 23") != NULL, "C-REG-1 note");
	ok(strstr(out, "CPU_CYCLES") < strstr(out, "L2_REFERENCES"), "command-line order");
	free(out);
	out = render(ev2, 1, "btb-tm-tk", true);
	ok(strstr(out, "PMC12") && strstr(out, "0x0000000000003e08") != NULL, "PMC12 listed");
	ok(strstr(out, "tm=0x2 ptm=0x3 ppm=0x3 brt=0x0") != NULL, "-v decodes PMC12");
	ok(strstr(out, "plm=0x8 ev=0x0 oi=0x1 pm=0x0 es=0x11") != NULL, "-v decodes the counter");
	free(out);
	f = open_memstream(&row, &len);
	ok(check_print_table(f, &pmu_itanium2, NULL) == 0, "the table dumps");
	fclose(f);
	ok(!strncmp(row, "name\tcode\tumask\tgroup\tset\tear\tbtb\tiar\tdar\topc\tmaxincr\tcounters\n", 63),
	   "TSV header");
	ok(strstr(row, "\nL2_L3ACCESS_CANCEL.ANY\t0xb0\t0x9\tL2\t1\tnone\tN\tY\tY\tY\t1\t4\n") != NULL,
	   "TSV row");
	free(row);
	return tap_done();
}
