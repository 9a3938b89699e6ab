/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plugin_res.c: cuobjdump's resource report of a plugin, read and parsed. */
#include "plugin_res.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"

/* The child's side: cuobjdump -res-usage so_path with its stdout and stderr into the pipe (its
 * complaint is read there, not left on the terminal); 127 when it cannot be run. */
static int exec_cuobjdump(void *arg, int fd)
{
    const char *const *argv = arg;
    if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) return 127;
    if (fd > STDERR_FILENO) close(fd);
    execlp(argv[0], argv[0], "-res-usage", argv[1], (char *)NULL);
    return 127;
}

int occ_plugin_res_read(const char *cuobjdump, const char *so_path, double timeout_s,
                        char **report, char *err, size_t err_len)
{
    const char *argv[] = {cuobjdump, so_path};
    OccChildResult run;
    *report = NULL;
    if (occ_child_run(exec_cuobjdump, (void *)argv, timeout_s, OCC_PLUGIN_RES_MAX_BYTES, &run))
        return snprintf(err, err_len, "%s -res-usage %s: %s", cuobjdump, so_path,
                        strerror(errno)), -1;
    char *text = run.output;
    if (run.timed_out || run.overflowed) {
        if (run.timed_out)
            snprintf(err, err_len, "%s -res-usage %s: no answer after %g s, stopped "
                     "(OCC_PLUGIN_TIMEOUT_S sets the limit)", cuobjdump, so_path, timeout_s);
        else
            snprintf(err, err_len, "%s -res-usage %s: more than %d MiB of output, stopped",
                     cuobjdump, so_path, OCC_PLUGIN_RES_MAX_BYTES >> 20);
        free(text);
        return -1;
    }
    const int code = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : -1;
    if (code == 0) {
        *report = text;
        return 0;
    }
    const int no_device_code = strstr(text, "does not contain device code") != NULL;
    if (code == 127)
        snprintf(err, err_len, "%s not found: without a GPU the plugin's registers come from its "
                 "cubin; put cuobjdump on PATH or name it in OCC_CUOBJDUMP", cuobjdump);
    else if (no_device_code)
        snprintf(err, err_len, "%s has no device code (cuobjdump -res-usage found none)", so_path);
    else if (code < 0)
        snprintf(err, err_len, "%s -res-usage %s: killed by signal %d", cuobjdump, so_path,
                 WIFSIGNALED(run.status) ? WTERMSIG(run.status) : 0);
    else
        snprintf(err, err_len, "%s -res-usage %s failed (exit status %d): %.*s", cuobjdump,
                 so_path, code, (int)strcspn(text, "\n"), text);
    free(text);
    return no_device_code ? -2 : -1;
}

/* The value of `KEY:` in a resource line (" REG:16 STACK:0 SHARED:0 ..."): 0 when the line has
 * no such field; 0 with *value, or -1 with *at at the field when its value is not a whole number
 * of 0..INT_MAX ending at a blank or the line's end ("REG:abc", "REG:-1", "REG:16x"). */
static int field(const char *line, const char *key, int *value, const char **at)
{
    char pat[16];
    snprintf(pat, sizeof pat, " %s:", key);
    const char *f = strstr(line, pat);
    *value = 0;
    if (!f) return 0;
    const char *digits = f + strlen(pat);
    char *end = NULL;
    errno = 0;
    const long v = isdigit((unsigned char)*digits) ? strtol(digits, &end, 10) : -1;
    if (v < 0 || errno || v > INT_MAX || (*end && *end != ' ' && *end != '\n')) {
        *at = f + 1;
        return -1;
    }
    *value = (int)v;
    return 0;
}

int occ_plugin_res_parse(const char *report, const char *function, const char *arch,
                         OccKernelResources *out, const char **bad)
{
    int in_arch = 0, in_function = 0;
    const size_t fn_len = strlen(function), arch_len = strlen(arch);
    for (const char *line = report; *line;) {
        const size_t n = strcspn(line, "\n");
        if (strncmp(line, "arch = ", 7) == 0)
            in_arch = n == 7 + arch_len && strncmp(line + 7, arch, arch_len) == 0;
        else if (strncmp(line, " Function ", 10) == 0)
            in_function = n == 10 + fn_len + 1 && strncmp(line + 10, function, fn_len) == 0 &&
                          line[10 + fn_len] == ':';
        else if (in_arch && in_function && strncmp(line, "  REG:", 6) == 0) {
            char copy[512];
            const char *at = NULL;
            snprintf(copy, sizeof copy, " %.*s", (int)(n < 500 ? n : 500), line);
            int regs, stack, smem;
            if (field(copy, "REG", &regs, &at) || field(copy, "STACK", &stack, &at) ||
                field(copy, "SHARED", &smem, &at)) {
                *bad = line + (at - copy) - 1; /* the field in report (copy has one more blank) */
                return -2;
            }
            *out = (OccKernelResources){.variant = function, .arch = arch,
                                        .regs_per_thread = regs, .stack_bytes_per_thread = stack,
                                        .static_smem_bytes = smem};
            return 0;
        }
        line += n + (line[n] == '\n');
    }
    return -1;
}

int occ_plugin_res_has_arch(const char *report, const char *arch)
{
    char pat[32];
    snprintf(pat, sizeof pat, "arch = %s\n", arch);
    return strstr(report, pat) != NULL;
}

/* The whole file at path (heap), or NULL. */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f) fclose(f);
    *len = buf ? (size_t)n : 0;
    return buf;
}

int occ_plugin_res_symbol(const char *so_path, unsigned long long offset, char *name, size_t len)
{
    size_t size = 0;
    unsigned char *elf = read_file(so_path, &size);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
    int found = -1;
    if (!elf || size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff + (unsigned long long)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
        free(elf);
        return -1;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum && found < 0; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > size || strtab->sh_offset + strtab->sh_size > size)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(elf + sh[i].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym && found < 0; k++)
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_value == offset &&
                sym[k].st_name < strtab->sh_size) {
                const char *s = (const char *)elf + strtab->sh_offset + sym[k].st_name;
                /* Bounded by the string table: a name running off it is no name. */
                if (memchr(s, '\0', strtab->sh_size - sym[k].st_name))
                    found = snprintf(name, len, "%s", s) < (int)len ? 0 : -1;
            }
    }
    free(elf);
    return found;
}
