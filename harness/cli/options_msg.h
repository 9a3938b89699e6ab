/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_msg.h: how the option modules build their texts: appending to a fixed
 * buffer, quoting a value the user typed, and writing the one-line usage error that
 * occ_options_parse returns (harness/cli/options.h). Private to harness/cli. */
#ifndef OCC_OPTIONS_MSG_H
#define OCC_OPTIONS_MSG_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/* Appends printf-formatted text to buf[0..len) at *at, truncating; *at ends at most at len, so
 * appending to a full buffer writes nothing. For building messages and the --help texts. */
void occ_msg_append(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Maximum bytes of a value a message quotes (occ_msg_quote). */
enum { OCC_MSG_QUOTE_MAX = 60 };

/* A quote of a value for a message: at most its first OCC_MSG_QUOTE_MAX bytes, then "..." when
 * it is longer, so that a message about a 100 KB value still ends with its reason; a leading
 * UTF-8 byte order mark is named ("<U+FEFF BOM>"), not shown. */
typedef struct OccQuote {
    char s[OCC_MSG_QUOTE_MAX + 16]; /* NUL-terminated */
} OccQuote;

/* The quote of s[0..len). */
OccQuote occ_msg_quote(const char *s, size_t len);

/* The quote of the string value, as a char * valid to the end of the full expression. */
#define OCC_QUOTE(value) (occ_msg_quote((value), strlen(value)).s)

/* Writes the printf-formatted message into err[0..err_len) (truncated; nothing when err is NULL
 * or err_len 0), each control byte shown as '?' so that a quoted value cannot break the
 * one-line promise. Returns OCC_EXIT_USAGE (harness/core/exitcodes.h). */
int occ_msg_usage(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* occ_msg_usage with the arguments in ap (for a module's own usage wrapper). */
int occ_msg_vusage(char *err, size_t err_len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
