/* SPDX-License-Identifier: Apache-2.0 */
/* bench/fleet_run.c: the fleet supervisor (contract in bench/fleet_run.h). POSIX processes; no CUDA
 * context: the devices are only listed here. */
#include "fleet_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csv.h"
#include "device.h"
#include "exitcodes.h"
#include "fake_device.h"
#include "fleet.h"
#include "run_policy.h"

enum { MAX_WORKERS = 64 };

/* One worker: its GPU, its files and its process. */
typedef struct Worker {
    OccDeviceId id;  /* the GPU */
    char path[1024]; /* its CSV */
    char log[1040];  /* its stdout + stderr */
    char label[160]; /* "gpuN <pci>" */
    pid_t pid;       /* 0 once reaped */
    int exit_status; /* as a single run's; a signal counts as 1 */
    int killed_by;   /* the signal that ended it, or 0 */
} Worker;

/* The last SIGINT/SIGTERM/SIGHUP received, and how many have arrived. File-scope because a signal
 * handler can reach nothing else; supervise() reads them between its polls. */
static volatile sig_atomic_t fleet_signal = 0, fleet_signals = 0;
static void on_signal(int sig)
{
    fleet_signal = sig;
    fleet_signals++;
}

/* Every device present: the fake list (a dry run with OCC_FAKE_DEVICES) or CUDA's. */
static int present(const OccOptions *opt, OccDeviceId *ids, int *n, char *err, size_t err_len)
{
    const char *fake = occ_fake_list();
    if (!(fake && opt->dry_run)) return occ_device_list(ids, MAX_WORKERS, n, err, err_len);
    OccFakeDevice f[OCC_FAKE_MAX_DEVICES];
    if (occ_fake_parse(fake, f, OCC_FAKE_MAX_DEVICES, n, err, err_len) != 0) return OCC_EXIT_USAGE;
    for (int i = 0; i < *n; i++) {
        ids[i] = (OccDeviceId){.index = i};
        snprintf(ids[i].name, sizeof ids[i].name, "%s", f[i].name);
        snprintf(ids[i].slug, sizeof ids[i].slug, "%s", f[i].slug);
        snprintf(ids[i].uuid, sizeof ids[i].uuid, "%s", f[i].uuid);
        snprintf(ids[i].pci_bus_id, sizeof ids[i].pci_bus_id, "%s", f[i].pci_bus_id);
    }
    return 0;
}

/* The workers' devices: --device all, or each listed index (which must be present). */
static int select_workers(const OccOptions *opt, Worker *w, int *n, char *err, size_t err_len)
{
    OccDeviceId ids[MAX_WORKERS];
    int n_present = 0;
    const int rc = present(opt, ids, &n_present, err, err_len);
    if (rc != 0) return rc;
    *n = opt->n_devices == OCC_DEVICES_ALL ? n_present : opt->n_devices;
    if (*n == 0) {
        snprintf(err, err_len, "--device all: no CUDA device present");
        return OCC_EXIT_NO_GPU;
    }
    for (int k = 0; k < *n; k++) {
        const int index = opt->n_devices == OCC_DEVICES_ALL ? k : opt->devices[k];
        if (index >= n_present) {
            snprintf(err, err_len, "--device %d: only %d device(s) present", index, n_present);
            return OCC_EXIT_NO_GPU;
        }
        w[k] = (Worker){.id = ids[index]};
    }
    return 0;
}

/* Worker paths: <stem>-gpuN-<pci, ':' as '.'>-<first 8 hex of the UUID>.csv and .log, stem from
 * --out (less ".csv"; a --out ending in '/' is a directory for the default name) or the default
 * path on the worker's GPU slug; one time stamp for all. 0, or -1 with a one-line err when a name
 * would not fit its buffer (cut names could give two workers one file). */
static int name_workers(const OccOptions *opt, Worker *w, int n, char *err, size_t err_len)
{
    char pattern[1024], stem[1024];
    occ_run_default_path(pattern, sizeof pattern, "\001", opt->families);
    for (int k = 0; k < n; k++) {
        const char *at = strchr(pattern, '\001');
        const size_t out_len = opt->out_path ? strlen(opt->out_path) : 0;
        int len;
        if (out_len && opt->out_path[out_len - 1] == '/') /* a directory: the default name in it */
            len = snprintf(stem, sizeof stem, "%s%s", opt->out_path, strrchr(pattern, '/') + 1);
        else if (opt->out_path)
            len = snprintf(stem, sizeof stem, "%s", opt->out_path);
        else
            len = snprintf(stem, sizeof stem, "%.*s%s%s", (int)(at - pattern), pattern,
                           w[k].id.slug, at + 1);
        if (len > 4 && (size_t)len < sizeof stem && strcmp(stem + len - 4, ".csv") == 0)
            stem[len - 4] = '\0';
        char pci[32];
        snprintf(pci, sizeof pci, "%s", w[k].id.pci_bus_id);
        for (char *c = pci; *c; c++)
            *c = *c == ':' ? '.' : *c;
        const char *hex = strncmp(w[k].id.uuid, "GPU-", 4) == 0 ? w[k].id.uuid + 4 : w[k].id.uuid;
        const int path_len = snprintf(w[k].path, sizeof w[k].path, "%s-gpu%d-%s-%.8s.csv", stem,
                                      w[k].id.index, pci, hex);
        if (len < 0 || (size_t)len >= sizeof stem || path_len < 0 ||
            (size_t)path_len >= sizeof w[k].path) {
            snprintf(err, err_len, "--out: the worker file names would pass %zu bytes; name a "
                                   "shorter path (see --help)", sizeof w[k].path - 1);
            return -1;
        }
        snprintf(w[k].log, sizeof w[k].log, "%.*s.log", path_len - 4, w[k].path);
        snprintf(w[k].label, sizeof w[k].label, "gpu%d %s", w[k].id.index, w[k].id.pci_bus_id);
    }
    return 0;
}

/* Starts worker w: this program with argv plus --device and --out, output into its log (created
 * new, or replaced with force; never written through a symbolic link). */
static int spawn(Worker *w, int force, int argc, char **argv, char *err, size_t err_len)
{
    char self[4096], index[16];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0)
        self[len] = '\0';
    else
        snprintf(self, sizeof self, "%s", argv[0]);
    snprintf(index, sizeof index, "%d", w->id.index);
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (!args) return snprintf(err, err_len, "out of host memory"), -1;
    memcpy(args, argv, (size_t)argc * sizeof *args);
    args[argc] = "--device";
    args[argc + 1] = index;
    args[argc + 2] = "--out";
    args[argc + 3] = w->path;
    const int fd = open(w->log, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
                                    (force ? O_TRUNC : O_EXCL), 0666);
    if (fd < 0) {
        free(args);
        return snprintf(err, err_len, "cannot create %s: %s", w->log, strerror(errno)), -1;
    }
    fflush(NULL);
    w->pid = fork();
    if (w->pid == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        execv(self, args);
        fprintf(stderr, "occsweep: cannot run %s: %s\n", self, strerror(errno));
        _exit(OCC_EXIT_HARD);
    }
    close(fd);
    free(args);
    if (w->pid < 0) return snprintf(err, err_len, "fork: %s", strerror(errno)), -1;
    return 0;
}

/* Waits for every worker, passing each SIGINT/SIGTERM/SIGHUP on to the workers still running (polled
 * every 50 ms: no signal is lost between a check and a blocking wait). */
static void supervise(Worker *w, int n)
{
    int alive = n;
    sig_atomic_t passed = 0;
    while (alive > 0) {
        int st;
        const pid_t pid = waitpid(-1, &st, WNOHANG);
        if (fleet_signals != passed) {
            passed = fleet_signals;
            for (int k = 0; k < n; k++)
                if (w[k].pid > 0) kill(w[k].pid, fleet_signal);
        }
        if (pid <= 0) {
            if (pid < 0 && errno == ECHILD) break;
            nanosleep(&(struct timespec){0, 50000000L}, NULL);
            continue;
        }
        for (int k = 0; k < n; k++) {
            if (w[k].pid != pid) continue;
            w[k].pid = 0;
            w[k].killed_by = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
            w[k].exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : OCC_EXIT_FAIL;
            alive--;
        }
    }
}

/* A killed worker's FILE.partial (its finished rows) closed and renamed to FILE. */
static void keep_partial(const Worker *w)
{
    char partial[1100];
    snprintf(partial, sizeof partial, "%s.partial", w->path);
    if (!w->killed_by || access(w->path, F_OK) == 0 || access(partial, F_OK) != 0) return;
    FILE *f = fopen(partial, "a");
    if (f) {
        fprintf(f, "# end_status=killed by signal %d (the rows above finished before it)\n",
                w->killed_by);
        fclose(f);
    }
    rename(partial, w->path);
}

/* The per-worker lines and the fleet summary over the CSVs the workers left. */
static void print_fleet(const Worker *w, int n)
{
    OccCsvTable t[MAX_WORKERS] = {0};
    OccFleetMember m[MAX_WORKERS];
    char err[512];
    int n_m = 0;
    printf("fleet: %d worker(s)\n", n);
    for (int k = 0; k < n; k++) {
        const int have = occ_csv_read(w[k].path, &t[k], err, sizeof err) == 0;
        printf("  %s %s %s: exit %d%s%s, %d rows in %s (log %s)\n", w[k].label, w[k].id.name,
               w[k].id.uuid, w[k].exit_status, w[k].killed_by ? ", killed by signal " : "",
               w[k].killed_by ? strsignal(w[k].killed_by) : "", have ? t[k].n_rows : 0,
               have ? w[k].path : "no CSV", w[k].log);
        if (have)
            m[n_m++] = (OccFleetMember){.label = w[k].label,
                                        .device = w[k].id.uuid,
                                        .gpu_name = w[k].id.name,
                                        .rows = t[k].rows,
                                        .n_rows = t[k].n_rows};
    }
    if (n_m > 0) occ_fleet_print(stdout, m, n_m);
    for (int k = 0; k < n; k++)
        occ_csv_table_free(&t[k]);
}

/* The fleet of opt in w[0..MAX_WORKERS) (zeroed): occ_fleet_run's exit status. */
static int run_fleet(const OccOptions *opt, Worker *w, int argc, char **argv)
{
    char err[512];
    int n = 0, rc, worst = OCC_EXIT_OK;
    if ((rc = select_workers(opt, w, &n, err, sizeof err)) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return rc;
    }
    if (name_workers(opt, w, n, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: %s\n", err);
        return OCC_EXIT_USAGE;
    }
    for (int k = 0; k < n; k++)
        if (occ_csv_check_target(w[k].path, opt->force, err, sizeof err) != 0 ||
            occ_csv_check_target(w[k].log, opt->force, err, sizeof err) != 0 ||
            occ_csv_make_parent_dirs(w[k].path, err, sizeof err) != 0) {
            fprintf(stderr, "occsweep: --out %s (see --help)\n", err);
            return OCC_EXIT_USAGE;
        }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    for (int k = 0; k < n; k++) {
        if (spawn(&w[k], opt->force, argc, argv, err, sizeof err) != 0) {
            fprintf(stderr, "occsweep: worker for gpu%d: %s\n", w[k].id.index, err);
            w[k].exit_status = OCC_EXIT_FAIL;
            continue;
        }
        if (!opt->quiet)
            fprintf(stderr, "occsweep: worker %s (%s) pid %d -> %s\n", w[k].label, w[k].id.uuid,
                    (int)w[k].pid, w[k].path);
    }
    supervise(w, n);
    for (int k = 0; k < n; k++) {
        keep_partial(&w[k]);
        worst = w[k].exit_status > worst ? w[k].exit_status : worst;
    }
    print_fleet(w, n);
    return worst;
}

int occ_fleet_run(const OccOptions *opt, int argc, char **argv)
{
    if (opt->resume_path) {
        fprintf(stderr, "occsweep: --resume takes one GPU's CSV: resume each with --device N "
                        "--resume FILE (see --help)\n");
        return OCC_EXIT_USAGE;
    }
    Worker *w = calloc(MAX_WORKERS, sizeof *w);
    if (!w) {
        fprintf(stderr, "occsweep: out of host memory for the fleet\n");
        return OCC_EXIT_FAIL;
    }
    const int rc = run_fleet(opt, w, argc, argv);
    free(w);
    return rc;
}
