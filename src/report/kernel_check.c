/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Deciding whether kernel symbols apply (kernel_check.h). */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "report/kernel_check.h"

/* sample_kernel and sym_kernel_id are the same facts in two layers */
_Static_assert(SAMPLE_KERNEL_BUILD_ID_MAX == SYM_KERNEL_BUILD_ID_MAX &&
		       SAMPLE_KERNEL_BOOT_ID_MAX == SYM_KERNEL_BOOT_ID_MAX &&
		       SAMPLE_KERNEL_RELEASE_MAX == SYM_KERNEL_RELEASE_MAX,
	       "kernel record and kernel id sizes differ");

void kernel_record_running(struct sample_kernel *out)
{
	struct sym_kernel_id id;

	sym_kernel_id_running(&id);
	memset(out, 0, sizeof(*out));
	out->build_id_size = (uint8_t)id.build_id_len;
	memcpy(out->build_id, id.build_id, id.build_id_len);
	snprintf(out->boot_id, sizeof(out->boot_id), "%s", id.boot_id);
	snprintf(out->release, sizeof(out->release), "%s", id.release);
	out->text_addr = sym_kernel_text_address();
}

static void id_from_record(struct sym_kernel_id *id, const struct sample_kernel *k)
{
	memset(id, 0, sizeof(*id));
	id->build_id_len = k->build_id_size <= sizeof(id->build_id) ? k->build_id_size : 0;
	memcpy(id->build_id, k->build_id, id->build_id_len);
	snprintf(id->boot_id, sizeof(id->boot_id), "%s", k->boot_id);
	snprintf(id->release, sizeof(id->release), "%s", k->release);
}

void kernel_check_record(struct kernel_check *kc, const struct sample_kernel *k)
{
	id_from_record(&kc->then, k);
	sym_kernel_id_running(&kc->now);
	kc->match = sym_kernel_id_match(&kc->then, &kc->now);
	/* perf.data has no boot id: the same build relocated elsewhere (KASLR)
	 * is another boot, whose addresses are not this one's */
	if (k->text_addr && kc->match == SYM_KERNEL_SAME && !k->boot_id[0] &&
	    sym_kernel_text_address() != k->text_addr)
		kc->match = SYM_KERNEL_OTHER_BOOT;
	/* perf record -z and pipe mode write no build-ids: the same release
	 * with _text where the running kernel has it (the KASLR offset of this
	 * boot) is this kernel in this boot */
	if (kc->match == SYM_KERNEL_UNKNOWN && k->text_addr && k->release[0] &&
	    !strcmp(k->release, kc->now.release) && sym_kernel_text_address() == k->text_addr)
		kc->match = SYM_KERNEL_SAME;
	kc->recorded = true;
}

bool kernel_check_same(const struct kernel_check *kc)
{
	return kc->recorded && kc->match == SYM_KERNEL_SAME;
}

/* "6.1.102 (build-id 48dc...)", or what is known of it */
static void describe(struct strbuf *sb, const struct sym_kernel_id *id)
{
	strbuf_addstr(sb, id->release[0] ? id->release : "unknown release");
	strbuf_addstr(sb, " (build-id ");
	strbuf_addhex(sb, id->build_id, id->build_id_len);
	if (!id->build_id_len)
		strbuf_addstr(sb, "unknown");
	strbuf_addch(sb, ')');
}

bool kernel_check_why_not(const struct kernel_check *kc, struct strbuf *sb)
{
	if (kernel_check_same(kc))
		return false;
	strbuf_addstr(sb, "kernel samples not symbolized: ");
	if (!kc->recorded) {
		strbuf_addstr(sb, "the sample file does not say which kernel took them "
				  "(written by an older pfmon)");
		return true;
	}
	switch (kc->match) {
	case SYM_KERNEL_OTHER_BUILD:
		strbuf_addstr(sb, "they were taken under kernel ");
		describe(sb, &kc->then);
		strbuf_addstr(sb, ", not the running ");
		describe(sb, &kc->now);
		break;
	case SYM_KERNEL_OTHER_BOOT:
		strbuf_addstr(sb, "they were taken during another boot of this kernel, "
				  "and kernel addresses change at every boot");
		break;
	default:
		strbuf_addstr(sb, "nothing identifies the kernel that took them (no build-id, no boot id)");
	}
	return true;
}
