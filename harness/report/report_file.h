/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/report_file.h: a text report (the knee report's markdown) written whole or not at
 * all, by the rule the CSV writer follows: into a file of its own, created next to the target
 * with O_CREAT | O_EXCL (never through a link, never shared with another run), renamed over the
 * target once complete (a symlink at the target is replaced, not followed). Pure: POSIX only. */
#ifndef OCC_REPORT_FILE_H
#define OCC_REPORT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Opens "<path>.tmp-<pid>" for writing and stores that name in tmp (tmp_len bytes). The target
 * must be a regular file or a new path. NULL with a one-line message naming path in err. */
FILE *occ_report_create(const char *path, char *tmp, size_t tmp_len, char *err, size_t err_len);

/* Closes f and renames tmp over path. On a write, close or rename failure removes tmp, leaves
 * path as it was, and returns -1 with a one-line message naming path in err; else 0. */
int occ_report_commit(FILE *f, const char *tmp, const char *path, char *err, size_t err_len);

/* The end of a program's output: flushes stdout and, when that or any earlier write to it failed
 * (a full disk, a closed pipe, /dev/full), says so on stderr as "PROG: writing the output
 * failed: REASON". Returns rc, or 1 (OCC_EXIT_FAIL) in place of 0 after such a failure. */
int occ_report_stdout_status(const char *prog, int rc);

#endif
