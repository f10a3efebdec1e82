/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Number formats of pfmon's counts: plain, US (1,024), EU (1.024), hex. */
#ifndef PFMON_RESULTS_FORMAT_H
#define PFMON_RESULTS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/config.h"

/* write v into buf (at least 32 bytes) in format fmt; returns buf */
char *format_count(uint64_t v, enum pf_counter_format fmt, char *buf, size_t size);

/* CSV field: quoted when it contains sep, a quote or a line break (RFC 4180) */
void csv_field(FILE *out, const char *s, const char *sep);

#endif
