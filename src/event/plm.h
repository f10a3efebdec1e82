/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Privilege-level masks, Itanium numbering (bit k = privilege level k).
 * On Linux hosts PL3 is user space and PL0 the kernel; PL1/PL2 do not exist.
 */
#ifndef PFMON_EVENT_PLM_H
#define PFMON_EVENT_PLM_H

#define PF_PLM0 0x1u
#define PF_PLM1 0x2u
#define PF_PLM2 0x4u
#define PF_PLM3 0x8u
#define PF_PLM_USER PF_PLM3
#define PF_PLM_KERNEL PF_PLM0

#endif
