/* SPDX-License-Identifier: Apache-2.0 */
/* bench/ncu_pass.c: --ncu: the Nsight Compute child run and the parent that reads it back
 * (contract in bench/ncu_pass.h). */
#include "ncu_pass.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ncu_csv.h"
#include "walltime.h"

enum { MAX_LAUNCHES = 4096 };

static void no_meta(void *user, const char *key, const char *fmt, ...)
{
    (void)user, (void)key, (void)fmt;
}

int occ_ncu_pass_child(const OccOptions *opt, const OccDevice *dev, const OccPlan *plan)
{
    char err[512];
    const char *manifest_path = getenv(OCC_NCU_PASS_ENV), *bytes = getenv(OCC_NCU_BYTES_ENV);
    /* The parent made the file (occ_ncu_pass_is_live): never created here, never through a
     * link. */
    const int fd = open(manifest_path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    FILE *manifest = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!manifest) {
        if (fd >= 0) close(fd);
        fprintf(stderr, "occsweep: ncu child: cannot write %s: %s\n", manifest_path,
                strerror(errno));
        return 1;
    }
    OccRun run = {.dev = dev, .opt = opt, .meta = no_meta};
    int n = -1;
    if (occ_run_init(&run, bytes ? atoll(bytes) : 0, plan->points, plan->n, err, sizeof err) == 0 &&
        occ_run_setup_families(&run, plan->points, plan->n, err, sizeof err) == 0)
        n = occ_run_replay_points(&run, plan->points, plan->n, manifest, err, sizeof err);
    occ_run_free(&run);
    if (fclose(manifest) != 0 && n >= 0) snprintf(err, sizeof err, "writing the manifest failed");
    if (n < 0) fprintf(stderr, "occsweep: ncu child: %s\n", err);
    return n < 0 ? 1 : 0;
}

int occ_ncu_pass_is_live(const char *manifest_path)
{
    struct stat st;
    return manifest_path != NULL && lstat(manifest_path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size == 0 && st.st_uid == geteuid();
}

/* The ncu binary: $NCU, else ncu on PATH, else the toolkit's; NULL when none is executable. */
static const char *find_ncu(char *buf, size_t len)
{
    const char *env = getenv("NCU");
    if (env && *env) return access(env, X_OK) == 0 ? env : NULL;
    const char *path = getenv("PATH");
    for (const char *d = path ? path : ""; *d;) {
        size_t n = strcspn(d, ":");
        snprintf(buf, len, "%.*s/ncu", (int)n, d);
        if (n && access(buf, X_OK) == 0) return buf;
        d += n + (d[n] == ':');
    }
    snprintf(buf, len, "/usr/local/cuda/bin/ncu");
    return access(buf, X_OK) == 0 ? buf : NULL;
}

/* Runs argv with stdout to out_path and stderr to err_path (each NULL: /dev/null), within
 * timeout_s seconds (then its process group is killed). Returns its exit status, 124 on time
 * out, -1 when it could not be started. */
static int run_child(char *const argv[], const char *out_path, const char *err_path,
                     double timeout_s)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int o = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0) _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    const double start = occ_walltime_s();
    int status = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) break;
        if (got < 0 && errno != EINTR) return -1;
        if (occ_walltime_s() - start > timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return 124;
        }
        nanosleep(&(struct timespec){.tv_nsec = 100 * 1000 * 1000}, NULL);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The file at path (NUL-terminated, heap), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *grown = realloc(text, cap *= 2);
        if (!grown) free(text);
        text = grown;
    }
    fclose(f);
    if (text) text[n] = '\0';
    return text;
}

/* Why ncu failed, for a message: the child's own "occsweep: " line, else ncu's last "==ERROR=="
 * line, else the log's first line. */
static void log_reason(const char *text, char *buf, size_t len)
{
    const char *at = strstr(text, "occsweep: "), *e;
    if (!at) {
        at = text;
        for (const char *s = text; (e = strstr(s, "==ERROR==")) != NULL; s = e + 1)
            at = e;
    }
    snprintf(buf, len, "%.*s", (int)strcspn(at, "\r\n"), at);
}

/* One --ncu pass: its temporary directory and the files in it (the child's manifest, ncu's report
 * stem, the raw page, the log), the ncu binary and its version, the metric list, and why it
 * failed. */
typedef struct Pass {
    char dir[64], manifest[96], report[96], raw[96], log[96], ncu[512], version[32];
    char metrics[1024], err[512];
} Pass;

/* Profiles and reads back; 0 with launches/keys set, or -1 with p->err. */
static int profile(Pass *p, int argc, char **argv, long long buffer_bytes, int n_points,
                   OccNcuLaunch *launches, int *n_launches, OccNcuKey *keys, int *n_keys)
{
    char self[1024], bytes[32], timeout_env[32];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) return snprintf(p->err, sizeof p->err, "cannot find this program's path"), -1;
    self[k] = '\0';
    const char *t = getenv("OCC_NCU_TIMEOUT_S");
    const double timeout_s = t && atof(t) > 0 ? atof(t) : 60.0 + 3.0 * n_points;
    snprintf(timeout_env, sizeof timeout_env, "%.0f s", timeout_s);
    snprintf(bytes, sizeof bytes, "%lld", buffer_bytes);
    setenv(OCC_NCU_PASS_ENV, p->manifest, 1);
    setenv(OCC_NCU_BYTES_ENV, bytes, 1);
    char **args = malloc((size_t)(argc + 16) * sizeof *args);
    if (!args) return snprintf(p->err, sizeof p->err, "out of host memory"), -1;
    int a = 0;
    const char *fixed[] = {p->ncu,      "--clock-control",   "none",
                           "--nvtx",    "--nvtx-include",    OCC_NCU_RANGE "/",
                           "--metrics", p->metrics,          "--export",
                           p->report,   "--force-overwrite", self};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        args[a++] = (char *)fixed[i];
    for (int i = 1; i < argc; i++)
        args[a++] = argv[i];
    args[a] = NULL;
    int rc = run_child(args, p->log, p->log, timeout_s);
    free(args);
    unsetenv(OCC_NCU_PASS_ENV);
    unsetenv(OCC_NCU_BYTES_ENV);
    char *log = slurp(p->log), *text = NULL;
    if (rc == 124) {
        snprintf(p->err, sizeof p->err,
                 "ncu took longer than %s (OCC_NCU_TIMEOUT_S) and was stopped", timeout_env);
    } else if (log && occ_ncu_no_counter_access(log)) {
        snprintf(p->err, sizeof p->err,
                 "ncu cannot read this GPU's performance counters (ERR_NVGPUCTRPERM: needs root "
                 "or NVreg_RestrictProfilingToAdminUsers=0)");
        rc = -2;
    } else if (log && strstr(log, "No kernels were profiled")) {
        snprintf(p->err, sizeof p->err,
                 "ncu profiled no kernel (its NVTX filter '%s/' matched no launch)",
                 OCC_NCU_RANGE);
        rc = -3;
    } else if (rc != 0) {
        char why[200] = "";
        if (log) log_reason(log, why, sizeof why);
        snprintf(p->err, sizeof p->err, "ncu exited with status %d: %s", rc, why);
    }
    if (rc == 0) {
        char report_file[128],
            *imp[] = {p->ncu,          "--import", report_file, "--csv",    "--page", "raw",
                      "--print-units", "base",     "--metrics", p->metrics, NULL};
        snprintf(report_file, sizeof report_file, "%s.ncu-rep", p->report);
        if ((rc = run_child(imp, p->raw, NULL, 120)) != 0)
            snprintf(p->err, sizeof p->err, "ncu --import of the report failed (status %d)", rc);
    }
    char *manifest = rc == 0 ? slurp(p->manifest) : NULL;
    if (rc == 0 && (!(text = slurp(p->raw)) || !manifest))
        snprintf(p->err, sizeof p->err, "the ncu output or the child's manifest is missing"),
            rc = 1;
    if (rc == 0 &&
        ((*n_launches = occ_ncu_parse_raw(text, launches, MAX_LAUNCHES, p->err, sizeof p->err)) <
             0 ||
         (*n_keys = occ_ncu_parse_manifest(manifest, keys, MAX_LAUNCHES, p->err, sizeof p->err)) <
             0))
        rc = 1;
    if (rc == 0 && (*n_launches > MAX_LAUNCHES || *n_keys > MAX_LAUNCHES))
        snprintf(p->err, sizeof p->err, "more than %d points", MAX_LAUNCHES), rc = 1;
    free(log);
    free(text);
    free(manifest);
    return rc == 0 ? 0 : -1;
}

/* <csv without .csv>-ncu-raw.csv into buf. */
static void raw_path(const char *csv, char *buf, size_t len)
{
    occ_csv_sibling_path(csv, "-ncu-raw.csv", buf, len);
}

static void remove_pass_files(const Pass *p)
{
    char report_file[128];
    snprintf(report_file, sizeof report_file, "%s.ncu-rep", p->report);
    const char *files[] = {p->manifest, report_file, p->raw, p->log};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        unlink(files[i]);
    rmdir(p->dir);
}

void occ_ncu_pass_run(int argc, char **argv, long long buffer_bytes, int n_points, OccSink *sink,
                      OccMeta *meta, const char *path, int quiet)
{
    Pass p = {0};
    if (!find_ncu(p.ncu, sizeof p.ncu)) {
        fprintf(stderr, "occsweep: --ncu: ncu (Nsight Compute) not found (NCU, PATH, "
                        "/usr/local/cuda/bin); the CSV has no ncu values\n");
        return;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(p.dir, sizeof p.dir, "%.40s/occncu.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p.dir)) {
        fprintf(stderr, "occsweep: --ncu: cannot create a temporary directory; no ncu values\n");
        return;
    }
    snprintf(p.manifest, sizeof p.manifest, "%s/manifest.tsv", p.dir);
    /* The child's manifest, made empty here: what tells the child it is one (a leftover
     * OCC_NCU_PASS names no such file). */
    const int mfd = open(p.manifest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (mfd < 0 || close(mfd) != 0) {
        fprintf(stderr, "occsweep: --ncu: cannot create %s; no ncu values\n", p.manifest);
        rmdir(p.dir);
        return;
    }
    snprintf(p.report, sizeof p.report, "%s/report", p.dir);
    snprintf(p.raw, sizeof p.raw, "%s/raw.csv", p.dir);
    snprintf(p.log, sizeof p.log, "%s/ncu.log", p.dir);
    occ_ncu_metric_list(p.metrics, sizeof p.metrics);
    char *ver_args[] = {p.ncu, "--version", NULL};
    run_child(ver_args, p.log, NULL, 60);
    char *ver = slurp(p.log);
    occ_ncu_version(ver ? ver : "", p.version, sizeof p.version);
    free(ver);
    if (!quiet)
        fprintf(stderr, "occsweep: --ncu: profiling each point once with ncu %s\n", p.version);
    const double start = occ_walltime_s();
    int n_launches = 0, n_keys = 0, filled = -1;
    char err[512], keep[1100];
    OccRow *rows = malloc((size_t)(sink->n_rows ? sink->n_rows : 1) * sizeof *rows);
    OccNcuLaunch *launches = malloc(MAX_LAUNCHES * sizeof *launches);
    OccNcuKey *keys = malloc(MAX_LAUNCHES * sizeof *keys);
    if (!rows || !launches || !keys) snprintf(p.err, sizeof p.err, "out of host memory");
    if (rows && launches && keys &&
        profile(&p, argc, argv, buffer_bytes, n_points, launches, &n_launches, keys, &n_keys) == 0) {
        for (int i = 0; i < sink->n_rows; i++)
            rows[i] = sink->rows[i].row;
        filled = occ_ncu_apply(launches, n_launches, keys, n_keys, rows, sink->n_rows, p.err,
                               sizeof p.err);
    }
    if (filled >= 0) {
        for (int i = 0; i < sink->n_rows; i++)
            sink->rows[i].row = rows[i];
        occ_meta_add(meta, "ncu_version", "%s", p.version);
        occ_meta_add(meta, "ncu_metrics", "%s", p.metrics);
        occ_meta_add(meta, "ncu_command",
                     "%s --clock-control none --nvtx --nvtx-include '%s/' "
                     "--metrics <ncu_metrics> (child run of this command, one launch per point)",
                     p.ncu, OCC_NCU_RANGE);
        occ_meta_add(meta, "ncu_wall_s", "%.1f", occ_walltime_s() - start);
        raw_path(path, keep, sizeof keep);
        char *raw = slurp(p.raw);
        FILE *f = raw ? fopen(keep, "w") : NULL;
        if (f) fputs(raw, f);
        if (f) fclose(f);
        free(raw);
        if (occ_sink_rewrite(sink, path, meta, err, sizeof err) != 0)
            fprintf(stderr, "occsweep: --ncu: %s\n", err);
        else if (!quiet)
            fprintf(stderr,
                    "occsweep: --ncu: %d of %d rows profiled in %.0f s; ncu's raw page "
                    "in %s\n",
                    filled, sink->n_rows, occ_walltime_s() - start, keep);
    } else {
        fprintf(stderr, "occsweep: --ncu: %s; the CSV has no ncu values\n", p.err);
    }
    free(rows);
    free(launches);
    free(keys);
    remove_pass_files(&p);
}
