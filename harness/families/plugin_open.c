/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/plugin_open.c: a plugin's shared object tried in a child, opened, and its
 * descriptor copied with faults caught. */
#define _GNU_SOURCE /* dladdr1 */
#include "plugin_open.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h> /* ElfW: the symbol dladdr1 gives */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* The fault guard: SIGSEGV and SIGBUS while guarded() runs jump back into it. */
static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_signal;
static void *volatile guard_addr;

static void on_fault(int sig, siginfo_t *info, void *context)
{
    (void)context;
    guard_signal = sig;
    guard_addr = info ? info->si_addr : NULL;
    siglongjmp(guard_env, 1);
}

/* Runs fn(arg) with SIGSEGV and SIGBUS turned into a return: 0 when fn returned, else the signal
 * (guard_addr: the address that faulted). The previous handlers are restored either way, and the
 * signal mask with them (sigsetjmp saves it). After a fault the plugin's code may have been left
 * anywhere (a lock held): the caller only reports it and the process exits. A stack overflow is
 * not caught (the handler would need its own stack). */
static int guarded(void (*fn)(void *), void *arg)
{
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    guard_signal = 0;
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    if (sigsetjmp(guard_env, 1) == 0) fn(arg);
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    return guard_signal;
}

/* What read_plugin reads, and how far it got (volatile: read after a fault's jump). */
typedef struct Reading {
    const OccPlugin *(*entry)(void);
    OccPluginCopy *copy;            /* where it is copied */
    const OccPlugin *volatile from; /* what occ_plugin() returned */
    volatile int stage; /* 0 calling occ_plugin(), reading 1 its descriptor, 2 its name, 3 its
                           variant table, 4 the variants' names */
} Reading;

/* Copies at most OCC_PLUGIN_MAX_NAME + 1 characters of s into buf (OCC_PLUGIN_MAX_NAME + 2
 * bytes), so that a longer name reads as longer; NULL stays NULL. */
static const char *copy_name(char *buf, const char *s)
{
    if (!s) return NULL;
    size_t n = 0;
    while (n <= OCC_PLUGIN_MAX_NAME && s[n]) buf[n] = s[n], n++;
    buf[n] = '\0';
    return buf;
}

/* Calls occ_plugin() and copies what it returned into r->copy: its ABI version, then (when it is
 * this header's layout) the descriptor, its name, its variant table (when n_variants is in range)
 * and their names, each copy replacing the plugin's pointer in the copied descriptor. */
static void read_plugin(void *arg)
{
    Reading *r = arg;
    r->stage = 0;
    r->from = r->entry();
    r->stage = 1;
    const OccPlugin *from = r->from;
    if (!from) return;
    OccPluginCopy *c = r->copy;
    c->abi_version = from->abi_version;
    if (c->abi_version != OCC_PLUGIN_ABI_VERSION) return;
    memcpy(&c->desc, from, sizeof c->desc);
    OccPlugin *p = &c->desc;
    r->stage = 2;
    p->name = copy_name(c->name, p->name);
    r->stage = 3;
    if (!p->variants || p->n_variants < 1 || p->n_variants > OCC_MAX_ADDED_VARIANTS) return;
    memcpy(c->variants, p->variants, (size_t)p->n_variants * sizeof *p->variants);
    p->variants = c->variants;
    r->stage = 4;
    for (int i = 0; i < p->n_variants; i++)
        c->variants[i].name = copy_name(c->variant_names[i], c->variants[i].name);
}


/* 1 when the dynamic symbol table says sym is data (an object, common or TLS symbol), not code;
 * 0 when it is a function or that cannot be told (glibc's dladdr1 alone gives the symbol). */
static int is_data_symbol(void *sym)
{
#if defined(__GLIBC__)
    Dl_info info;
    void *extra = NULL;
    if (!dladdr1(sym, &info, &extra, RTLD_DL_SYMENT) || !extra) return 0;
    const ElfW(Sym) *s = extra;
    const int type = ELF64_ST_TYPE(s->st_info); /* ELF32_ST_TYPE is the same low 4 bits */
    return type == STT_OBJECT || type == STT_COMMON || type == STT_TLS;
#else
    (void)sym;
    return 0;
#endif
}

int occ_plugin_timeout_s(double *timeout_s, char *err, size_t err_len)
{
    const char *env = getenv("OCC_PLUGIN_TIMEOUT_S");
    *timeout_s = OCC_PLUGIN_TIMEOUT_DEFAULT_S;
    if (!env || !*env) return 0;
    char *end = NULL;
    errno = 0;
    const double s = strtod(env, &end);
    if (*end || errno || !(s > 0) || s > OCC_PLUGIN_TIMEOUT_MAX_S)
        return snprintf(err, err_len, "OCC_PLUGIN_TIMEOUT_S '%.40s': want seconds, a number "
                        "above 0 and at most %g", env, OCC_PLUGIN_TIMEOUT_MAX_S), -1;
    *timeout_s = s;
    return 0;
}

/* Calls occ_plugin() and copies its descriptor into copy (read_plugin) under the fault guard. 0, or -1
 * with err: the symbol is data, occ_plugin() crashed or returned NULL or memory that cannot be
 * read. */
static int read_descriptor(const char *path, void *sym, OccPluginCopy *copy, char *err,
                           size_t err_len)
{
    if (is_data_symbol(sym))
        return snprintf(err, err_len, "--plugin %s: %s is data, not a function (define const "
                        "OccPlugin *%s(void))", path, OCC_PLUGIN_ENTRY_SYMBOL,
                        OCC_PLUGIN_ENTRY_SYMBOL), -1;
    /* POSIX dlsym returns functions as void *; copied, not cast (ISO C has no such cast). */
    Reading r = {.copy = copy};
    memcpy(&r.entry, &sym, sizeof r.entry);
    const int sig = guarded(read_plugin, &r);
    static const char *const what[] = {
        "occ_plugin() crashed", "occ_plugin() returned an unreadable descriptor",
        "occ_plugin()'s descriptor has an unreadable name",
        "occ_plugin()'s descriptor has an unreadable variants table",
        "occ_plugin()'s descriptor has an unreadable variant name"};
    if (sig)
        return snprintf(err, err_len, "--plugin %s: %s (%s at %p)", path, what[r.stage],
                        sig == SIGBUS ? "SIGBUS" : "SIGSEGV", guard_addr), -1;
    if (!r.from) return snprintf(err, err_len, "--plugin %s: occ_plugin() returned NULL", path), -1;
    return 0;
}

/* The trial load's child (occ_child_run): its own stdout and stderr to /dev/null (what the
 * plugin prints, it prints once, in the load that follows), then dlopen, 'L' into the pipe once
 * the plugin's constructors have returned, its descriptor read as the load reads it, 'R' once
 * occ_plugin() has returned (or when there is nothing to call: the load then says why). */
static int trial_child(void *arg, int fd)
{
    const char *path = arg;
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 || dup2(null_fd, STDERR_FILENO) < 0)
        return 127;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        if (write(fd, "L", 1) != 1) return 127;
        void *sym = dlsym(h, OCC_PLUGIN_ENTRY_SYMBOL);
        OccPluginCopy copy;
        char ignored[512];
        if (sym) read_descriptor(path, sym, &copy, ignored, sizeof ignored);
    }
    return write(fd, "R", 1) == 1 ? 0 : 127;
}

/* Loads the plugin in a child process first: its constructors and occ_plugin() run there, so
 * one that ends the process (exit), crashes or hangs is refused instead of ending, crashing or
 * hanging occsweep. 0 when the child got through (the load in this process does the same), or -1
 * with err naming what ended it: the constructors (run by dlopen) or occ_plugin(). */
static int trial_load(const char *path, char *err, size_t err_len)
{
    double timeout_s;
    if (occ_plugin_timeout_s(&timeout_s, err, err_len) != 0) return -1;
    OccChildResult run;
    if (occ_child_run(trial_child, (void *)path, timeout_s, 16, &run) != 0)
        return snprintf(err, err_len, "--plugin %s: cannot start the trial load: %s", path,
                        strerror(errno)), -1;
    const int loaded = strchr(run.output, 'L') != NULL, done = strchr(run.output, 'R') != NULL;
    free(run.output);
    if (done && !run.timed_out) return 0;
    const char *who = loaded ? "occ_plugin()" : "its constructors (run when it is loaded)";
    if (run.timed_out)
        return snprintf(err, err_len, "--plugin %s: %s did not return within %g s in a trial "
                        "load (stopped; OCC_PLUGIN_TIMEOUT_S sets the limit); not loaded", path,
                        who, timeout_s), -1;
    if (WIFSIGNALED(run.status))
        return snprintf(err, err_len, "--plugin %s: %s crashed in a trial load (signal %d, %s); "
                        "not loaded", path, who, WTERMSIG(run.status),
                        strsignal(WTERMSIG(run.status))), -1;
    return snprintf(err, err_len, "--plugin %s: %s ended the process in a trial load (exit "
                    "status %d); not loaded", path, who,
                    WIFEXITED(run.status) ? WEXITSTATUS(run.status) : -1), -1;
}

/* dlopen of path, or NULL with err: an empty path (dlopen would give the program itself), a path
 * that exists but is not a regular file (dlopen of a FIFO blocks, of a device reads without end),
 * a plugin that ends, crashes or hangs its trial load (trial_load), or dlopen's error, with a
 * hint when a name without '/' (looked up on the library path alone) names a file in the current
 * directory. */
static void *open_plugin(const char *path, char *err, size_t err_len)
{
    if (!*path)
        return snprintf(err, err_len, "--plugin: empty file name (give the shared object's path, "
                        "e.g. ./libmykernel.so)"), NULL;
    struct stat st;
    if (strchr(path, '/') && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return snprintf(err, err_len, "--plugin %.200s: not a regular file (give the shared "
                        "object's path)", path), NULL;
    if (trial_load(path, err, err_len) != 0) return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    const char *why = dlerror();
    if (!strchr(path, '/') && access(path, F_OK) == 0)
        return snprintf(err, err_len, "--plugin %s: %s; did you mean ./%s? (a name without '/' "
                        "is looked for on the library path, not in the current directory)", path,
                        why ? why : "cannot open", path), NULL;
    return snprintf(err, err_len, "--plugin: %s", why ? why : path), NULL;
}

int occ_plugin_open(const char *path, OccPluginCopy *copy, char *err, size_t err_len)
{
    void *h = open_plugin(path, err, err_len);
    if (!h) return -1;
    void *sym = dlsym(h, OCC_PLUGIN_ENTRY_SYMBOL);
    if (!sym)
        return snprintf(err, err_len, "--plugin %s: no symbol %s (not an occsweep plugin: see "
                        "occsweep/plugin.h)", path, OCC_PLUGIN_ENTRY_SYMBOL), -1;
    return read_descriptor(path, sym, copy, err, err_len);
}
