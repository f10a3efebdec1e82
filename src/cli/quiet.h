/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf's -q/--quiet (cli/quiet.c) */
#ifndef PFMON_CLI_QUIET_H
#define PFMON_CLI_QUIET_H

/*
 * From now on, the lines pfmon writes to standard error that begin with
 * "note: " or "warning: " are dropped; error lines and everything else
 * (--perf-style's counts) pass.  What the counts say stays in the output:
 * <not supported>, <not counted>, "# lost samples".
 */
void quiet_stderr(void);

#endif
