/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoint payloads as perf script prints them: a perf.data file's
 * tracing data (HEADER_TRACING_DATA: the formats of its tracepoints, the
 * kernel's printk formats and symbols, the saved command names) is given
 * to libtraceevent, which prints a sample's raw record by its event's
 * "print fmt".  libtraceevent is loaded on first use (common/dynlib.h).
 */
#ifndef PFMON_REPORT_TRACE_FORMAT_H
#define PFMON_REPORT_TRACE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/util.h"

struct trace_format;

/* The formats in a file's tracing data, or NULL with err saying why (the
 * library, or the first thing in the data that is not as perf writes it). */
struct trace_format *trace_format_new(const void *data, size_t size, struct pf_error *err);

/* whether a format of the file is the raw record's event */
bool trace_format_knows(struct trace_format *tf, const void *raw, uint32_t raw_size);

/* The kernel function holding addr for the print formats' %pS: its name
 * (NULL when unknown), its start and its module (NULL: the kernel's). */
typedef const char *trace_kernel_name_fn(void *arg, uint64_t addr, uint64_t *start, const char **module);
void trace_format_kernel_names(struct trace_format *tf, trace_kernel_name_fn *fn, void *arg);

/* Append the payload of a tracepoint's raw record, as perf script prints
 * it, to sb; false when no format of the file is the record's event. */
bool trace_format_payload(struct trace_format *tf, const void *raw, uint32_t raw_size, uint32_t cpu,
			  struct strbuf *sb);

void trace_format_free(struct trace_format *tf);

#endif
