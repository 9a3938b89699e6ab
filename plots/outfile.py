# SPDX-License-Identifier: Apache-2.0
"""plots/outfile.py: the rules every file the plot scripts write follows, as the C tool's files do
(harness/report/report_file.c).

target_error(): a path written is never one of the inputs, never a directory and never
anything else that is not a regular file; a symbolic link there is replaced, never followed
(write_whole, and plots/plot's mv, rename over it). plots/plot checks every path it is about to
write by running this file:

    python3 plots/outfile.py [--input FILE]... [--] TARGET...
        exit 0 when every TARGET may be written; else one line "plots: why" on stderr, exit 2

write_whole(): whole or not at all, never through a link. The text (UTF-8; characters decoded
with surrogateescape are written back as the bytes they were read from) goes to a per-process
temporary file beside the target, created exclusively (O_EXCL, O_NOFOLLOW: an existing file or
link of that name is an error, not overwritten), then renamed over the target; a failure removes
the temporary file and leaves the target as it was.

run_printing(): a failed write to stdout (or to a file, on a full disk) is one line on stderr
and exit 1, never a traceback.
"""
import argparse
import os
import stat
import sys


def target_error(path, inputs):
    """Why path may not be written, or None: it is (or links to) a directory or something else
    that is not a regular file, or it is one of inputs (a link at path is replaced when written,
    never followed, so only path itself is compared)."""
    try:
        st = os.stat(path)
    except OSError:
        return None  # a new path, or a link to nothing
    if stat.S_ISDIR(st.st_mode):
        return "%s: is a directory" % path
    if not stat.S_ISREG(st.st_mode):
        return "%s: is not a regular file" % path
    own = os.lstat(path)
    for name in inputs:
        try:
            other = os.stat(name)
        except OSError:
            continue
        if (own.st_dev, own.st_ino) == (other.st_dev, other.st_ino):
            return "%s: is the input %s; not overwritten" % (path, name)
    return None


def prefix_error(prefix, exts, inputs):
    """Why the files PREFIX + each of exts may not be written (target_error; a PREFIX that names
    no file, "", DIR/, "." or "..", whose files would be hidden ones; a directory that does not
    exist), or None."""
    if os.path.basename(prefix) in ("", ".", ".."):
        return "--out '%s': names no file (its files would be hidden ones)" % prefix
    if not os.path.isdir(os.path.dirname(prefix) or "."):
        return "--out %s: directory %s does not exist" % (prefix, os.path.dirname(prefix))
    errors = [target_error(prefix + ext, inputs) for ext in exts]
    return next((e for e in errors if e), None)


def run_printing(prog, main):
    """sys.exit(main()), with stdout flushed first: an OSError (a write that failed) is one line
    "PROG: cannot write: why" on stderr and exit 1."""
    try:
        status = main()
        sys.stdout.flush()
    except OSError as e:
        # Later flushes of stdout would fail again at exit: point it at /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("%s: cannot write%s: %s" % (prog, " " + e.filename if e.filename else "",
                                          e.strerror or e), file=sys.stderr)
        sys.exit(1)
    sys.exit(status)


def write_whole(path, text):
    """Writes text (UTF-8) to path by the rule above; raises OSError when it cannot."""
    tmp = os.path.join(os.path.dirname(path) or ".",
                       ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main(argv):
    p = argparse.ArgumentParser(prog="plots/outfile.py", allow_abbrev=False,
                                description="Checks that each TARGET may be written.")
    p.add_argument("--input", metavar="FILE", action="append", default=[])
    p.add_argument("targets", metavar="TARGET", nargs="+")
    a = p.parse_args(argv)
    for t in a.targets:
        err = target_error(t, a.input)
        if err:
            print("plots: " + err, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.stderr.reconfigure(errors="surrogateescape")
    sys.exit(main(sys.argv[1:]))
