/* SPDX-License-Identifier: Apache-2.0 */
/* harness/exitcodes.h: the process exit codes of every occsweep program (documented in README). */
#ifndef OCC_EXITCODES_H
#define OCC_EXITCODES_H

enum {
    OCC_EXIT_OK = 0,     /* every point measured (or skipped with a reason) and verified */
    OCC_EXIT_FAIL = 1,   /* a point failed verification, or a runtime error after the start */
    OCC_EXIT_USAGE = 2,  /* bad command line or unusable input file; nothing was written */
    OCC_EXIT_NO_GPU = 3, /* no usable CUDA device (driver, device index, arch not in binary) */
    OCC_EXIT_SKIP = 77,  /* tests only: the test cannot run here (no GPU); meson counts a skip */
    OCC_EXIT_HARD = 99,  /* tests only: the test harness itself broke */
};

#endif
