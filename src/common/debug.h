/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfmon 3.x's --debug: lines on standard error that say what pfmon does
 * with the kernel (each counter opened, switched, read).  One process-wide
 * level, as perf's "verbose": the layers that print them take no option
 * struct for it, and a level of 0 costs one comparison.
 */
#ifndef PFMON_COMMON_DEBUG_H
#define PFMON_COMMON_DEBUG_H

/* 1: counters opened and event sets switched; 2: also every ioctl and
 * read; 3: also the library's own debug output (libpfm4) */
#define PF_DEBUG_MAX 3

void pf_debug_set(unsigned level);
/* "debug: ..." on stderr when level <= the level set */
void pf_debug(unsigned level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
