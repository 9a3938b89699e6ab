/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plugin_res.c: cuobjdump's resource report of a plugin, read and parsed. */
#include "plugin_res.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs `cuobjdump -res-usage so_path` with its stdout and stderr into one pipe, read into *out
 * (heap, NUL-terminated) with its wait status in *status: 0, or -1 when the pipe, fork or memory
 * failed (nothing to free). */
static int run_cuobjdump(const char *cuobjdump, const char *so_path, char **out, int *status)
{
    int fd[2];
    *out = NULL;
    *status = 0;
    if (pipe(fd) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        dup2(fd[1], STDERR_FILENO); /* its complaint is read here, not left on the terminal */
        close(fd[0]);
        close(fd[1]);
        execlp(cuobjdump, cuobjdump, "-res-usage", so_path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0, cap = 1 << 16;
    char *buf = pid > 0 ? malloc(cap) : NULL;
    for (ssize_t got = 1; buf && got > 0;) {
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) { free(buf); buf = NULL; break; }
            buf = grown;
        }
        got = read(fd[0], buf + len, cap - 1 - len);
        if (got > 0) len += (size_t)got;
    }
    close(fd[0]);
    if (pid > 0) waitpid(pid, status, 0);
    if (!buf) return -1;
    buf[len] = '\0';
    *out = buf;
    return 0;
}

int occ_plugin_res_read(const char *cuobjdump, const char *so_path, char **report, char *err,
                        size_t err_len)
{
    char *text = NULL;
    int status = 0;
    *report = NULL;
    if (run_cuobjdump(cuobjdump, so_path, &text, &status) != 0)
        return snprintf(err, err_len, "%s -res-usage %s: %s", cuobjdump, so_path,
                        strerror(errno)), -1;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
    else
        snprintf(err, err_len, "%s -res-usage %s failed (exit status %d): %.*s", cuobjdump,
                 so_path, code, (int)strcspn(text, "\n"), text);
    free(text);
    return no_device_code ? -2 : -1;
}

/* Value of `KEY:` in a resource line ("  REG:16 STACK:0 SHARED:0 ..."), 0 when absent. */
static int field(const char *line, const char *key)
{
    char pat[16];
    snprintf(pat, sizeof pat, " %s:", key);
    const char *at = strstr(line, pat);
    return at ? atoi(at + strlen(pat)) : 0;
}

int occ_plugin_res_parse(const char *report, const char *function, const char *arch,
                         OccKernelResources *out)
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
            snprintf(copy, sizeof copy, " %.*s", (int)(n < 500 ? n : 500), line);
            *out = (OccKernelResources){.variant = function, .arch = arch,
                                        .regs_per_thread = field(copy, "REG"),
                                        .stack_bytes_per_thread = field(copy, "STACK"),
                                        .static_smem_bytes = field(copy, "SHARED")};
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
