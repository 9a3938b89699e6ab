/* SPDX-License-Identifier: Apache-2.0 */
/* harness/child.h: work done in a child process with a time limit, its output read through a
 * pipe: a tool the harness runs (cuobjdump) and a plugin tried before it is loaded (a shared
 * object whose constructors could end, crash or hang the process). Pure: no CUDA header. */
#ifndef OCC_CHILD_H
#define OCC_CHILD_H

#include <stddef.h>

/* What became of the child. */
typedef struct OccChildResult {
    char *output;        /* heap, NUL-terminated: what it wrote into the pipe, at most the
                            max_output_bytes asked for (free it); NULL after a failed run */
    size_t output_bytes; /* strlen of output when the child wrote no NUL byte */
    int status;          /* its wait status (waitpid: WIFEXITED, WIFSIGNALED, ...) */
    int timed_out;       /* 1: still running at the time limit, killed (SIGKILL) */
    int overflowed;      /* 1: it wrote more than max_output_bytes, killed (SIGKILL) */
} OccChildResult;

/* Forks a child in a process group of its own, which ends with the caller (Linux: a parent
 * death signal), runs fn(arg, fd) and _exits with what fn returns (fd: the write end of a pipe;
 * atexit handlers and stdio buffers are not run or flushed in the child). The caller reads the
 * pipe until the child has ended and the pipe holds nothing more (a grandchild keeping the pipe
 * open is not waited for), or until timeout_s seconds have passed or the child wrote more than
 * max_output_bytes: then the child's process group is killed and reaped. Returns 0 with *r
 * filled, or -1 with errno when the pipe, fork or memory failed (nothing to free). */
int occ_child_run(int (*fn)(void *arg, int fd), void *arg, double timeout_s,
                  size_t max_output_bytes, OccChildResult *r);

#endif
