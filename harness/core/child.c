/* SPDX-License-Identifier: Apache-2.0 */
/* harness/child.c: work done in a child process with a time limit, read through a pipe. */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include "walltime.h"

/* The child's side: its own process group (so that a tool's own children are killed with it),
 * killed when the caller ends, stdin from /dev/null (a read would stop a background process
 * group), the caller's signal handlers of the fatal signals taken off (a crash ends it by the
 * signal, not through a sanitizer's or occsweep's own handler), then fn. */
static _Noreturn void child_side(int (*fn)(void *, int), void *arg, int fd, pid_t parent)
{
    setpgid(0, 0);
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent) _exit(127); /* the caller ended before the death signal was set */
    /* The pipe above the standard streams, which the child and fn may point elsewhere. */
    if (fd <= STDERR_FILENO) fd = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
    if (fd < 0) _exit(127);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    if (null_fd > STDIN_FILENO) close(null_fd);
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction old;
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            signal(fatal[i], SIG_DFL); /* as exec does: a handler goes, an ignored signal stays */
    }
    _exit(fn(arg, fd));
}

/* Kills the child's process group (and the child, in case it had not made the group yet) and
 * reaps it. */
static void kill_child(pid_t pid, int *status)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
}

/* Appends what one read of fd gives to r->output (capacity *cap): 1 read something, 0 end of
 * file, -1 an error other than EINTR/EAGAIN, 2 more than max bytes. */
static int read_some(int fd, OccChildResult *r, size_t *cap, size_t max)
{
    if (r->output_bytes + 1 >= *cap) {
        const size_t grown_cap = *cap * 2 > max + 2 ? max + 2 : *cap * 2;
        char *grown = realloc(r->output, grown_cap);
        if (!grown) return -1;
        r->output = grown;
        *cap = grown_cap;
    }
    const ssize_t got = read(fd, r->output + r->output_bytes, *cap - 1 - r->output_bytes);
    if (got < 0) return errno == EINTR || errno == EAGAIN ? 1 : -1;
    if (got == 0) return 0;
    r->output_bytes += (size_t)got;
    return r->output_bytes > max ? 2 : 1;
}

int occ_child_run(int (*fn)(void *arg, int fd), void *arg, double timeout_s,
                  size_t max_output_bytes, OccChildResult *r)
{
    memset(r, 0, sizeof *r);
    size_t cap = max_output_bytes + 2 < 4096 ? max_output_bytes + 2 : 4096;
    r->output = malloc(cap);
    int fd[2];
    if (!r->output) return -1;
    if (pipe(fd) != 0) {
        free(r->output);
        r->output = NULL;
        return -1;
    }
    const pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(fd[0]);
        child_side(fn, arg, fd[1], parent);
    }
    const int fork_errno = errno;
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        free(r->output);
        r->output = NULL;
        errno = fork_errno;
        return -1;
    }
    setpgid(pid, pid); /* as the child does: the group exists whichever runs first */
    const double deadline = occ_walltime_s() + timeout_s;
    int ended = 0, eof = 0, failed = 0; /* failed: the errno of a failed poll, read or realloc */
    for (;;) {
        if (!ended) {
            const pid_t got = waitpid(pid, &r->status, WNOHANG);
            ended = got == pid || (got < 0 && errno != EINTR);
        }
        const double left_s = deadline - occ_walltime_s();
        if (!ended && left_s <= 0) {
            kill_child(pid, &r->status);
            r->timed_out = 1;
            break;
        }
        if (eof) {
            if (ended) break;
            /* It closed the pipe and runs on: wait for its end a while at a time. */
            nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
            continue;
        }
        struct pollfd p = {.fd = fd[0], .events = POLLIN};
        const int wait_ms = ended ? 0 : left_s > 0.05 ? 50 : (int)(left_s * 1000) + 1;
        const int ready = poll(&p, 1, wait_ms);
        if (ready < 0 && errno != EINTR) failed = errno;
        if (ready == 0 && ended) break; /* it has ended and everything it wrote is read */
        if (ready <= 0 && !failed) continue;
        const int got = failed ? -1 : read_some(fd[0], r, &cap, max_output_bytes);
        if (got == 0) eof = 1;
        if (got == 2) r->overflowed = 1;
        if (got == -1 && !failed) failed = errno ? errno : EIO;
        if (got == 2 || got == -1) {
            if (!ended) kill_child(pid, &r->status);
            break;
        }
    }
    close(fd[0]);
    if (failed) {
        free(r->output);
        r->output = NULL;
        errno = failed;
        return -1;
    }
    if (r->overflowed) r->output_bytes = max_output_bytes;
    r->output[r->output_bytes] = '\0';
    return 0;
}
