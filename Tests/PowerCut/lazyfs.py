#!/usr/bin/python3
"""lazyfs: a pass-through FUSE file system that forgets, on command, everything not synced.

In the spirit of Jepsen's LazyFS, written for hotcold's power-cut test (Tests/PowerCut).
It mounts BACKING at MOUNTPOINT. Programs on the mount see an ordinary file system; a
`drop` on the control socket then puts the files back as a disk would hold them after a
power cut at that instant.

How durability is modelled
--------------------------
Data (file contents and sizes), per file (per inode: every handle and every name of a file
share it):
  * A write or truncate is applied to the backing file at once, so every read (and mmap)
    sees it, and the bytes it overwrote (within the size the file had when last synced) are
    remembered in memory the first time they are touched: an undo image of the synced state.
    This is the same observable behaviour as a page cache that holds the writes: what the
    processes see is the newest state; what the "disk" holds is the synced one.
  * `fsync` or `fdatasync` on ANY handle of the file makes all its pending writes and its
    size durable (the undo image is forgotten). Both count as one sync in `stats`.
  * `drop` (the power cut) rolls every file with pending writes back to its last synced
    state: the size it had then, and the bytes it had then. Unsynced writes are lost whole;
    no torn pages are modelled (a real disk may also keep any subset of the unsynced pages).
  * Files whose name ends in `-shm` (SQLite's WAL index: memory-mapped, never synced by
    SQLite, rebuilt by the first connection after a crash) are passed through: their writes
    are neither tracked nor dropped.

Names (create, mknod, mkdir, unlink, rmdir, rename, link, symlink) form one ordered
metadata journal, as in a journalling file system (ext4, XFS):
  * each operation is applied to the backing directory at once (the processes see it);
    an unlinked or replaced file is moved to a hidden trash directory, not deleted, so it
    can be put back;
  * `fsync` on a DIRECTORY (fsyncdir) commits the journal up to and including the latest
    operation that touched that directory (a rename touches both parents): that operation
    and every earlier one become durable, in order, as a journal commit would;
  * an `fsync` on a FILE does not commit names (POSIX: a new or renamed file needs an
    fsync of its directory), unless lazyfs runs with `--meta-on-fsync` (ext4's behaviour:
    fsync commits the running journal transaction);
  * `drop` undoes every uncommitted operation, newest first: created files and
    directories disappear, unlinked ones come back, renames go back (and the file a rename
    replaced comes back under its name).
chmod, chown, utimens and xattrs pass through and are not rolled back.

Control channel
---------------
A Unix stream socket (`--control PATH`); send one command per line, get one JSON line back:
  drop    the power cut: discard every unsynced write and uncommitted name change
          ({"cmd":"drop","fence":[tid, ...]} also fences those threads: from then on every
          change they ask for fails with EIO and touches nothing. A killed program's
          request can still sit in the kernel's FUSE queue and reach lazyfs after the drop;
          a real power cut leaves no such straggler, so the fence refuses it.)
  stats   {"syncs": {path: n}, "dir_syncs": {...}, "bytes_written": {path: n},
           "bytes_synced": {path: n}, totals, "pending": {...}, "drops": n}
          (bytes_synced: the bytes each sync made durable, i.e. the union of the ranges
          written since that file's previous sync)
  flush   make everything durable now (as if the box had stood long enough for the
          kernel's write-back; used to take a durable baseline)
  reset   zero the statistics

`--ignore-syncs REGEX` makes the syncs of matching paths (and directories) lie: counted, but
nothing becomes durable. It emulates a program that never syncs those files, to check that a
power-cut test notices.

Usage: lazyfs.py BACKING MOUNTPOINT --control SOCK [--meta-on-fsync] [--debug]
       lazyfs.py --self-test      (mounts itself in a temporary directory and checks the model
                                   with SQLite in WAL mode, renames and plain files)
Run as root; unmount with `umount MOUNTPOINT` (lazyfs then exits).
"""

import argparse
import errno
import json
import os
import posixpath
import re
import socket
import sys
import threading



class FuseOSError(OSError):
    """An errno for the kernel (fusepy turns any OSError into -errno). Our own, so that the
    driver can import this module (Mount, control_request) without fusepy installed."""

    def __init__(self, code):
        super().__init__(code, os.strerror(code))

TRASH = ".lazyfs-trash"


def caller_tid():
    """The thread id of the program whose request this is (the kernel puts the calling
    thread's id, not its process id, in each FUSE request)."""
    try:
        from fusepy import fuse_get_context
    except ImportError:
        from fuse import fuse_get_context
    return fuse_get_context()[2]


class Intervals:
    """Sorted, disjoint half-open byte ranges, with their union length."""

    def __init__(self):
        self.spans = []

    def add(self, a, b):
        if a >= b:
            return
        out, placed = [], False
        for s, e in self.spans:
            if e < a or s > b:
                if s > b and not placed:
                    out.append((a, b))
                    placed = True
                out.append((s, e))
            else:
                a, b = min(a, s), max(b, e)
        if not placed:
            out.append((a, b))
        out.sort()
        self.spans = out

    def missing(self, a, b):
        """The parts of [a, b) not covered."""
        gaps, cur = [], a
        for s, e in self.spans:
            if e <= cur:
                continue
            if s >= b:
                break
            if s > cur:
                gaps.append((cur, min(s, b)))
            cur = max(cur, e)
            if cur >= b:
                break
        if cur < b:
            gaps.append((cur, b))
        return gaps

    def total(self):
        return sum(e - s for s, e in self.spans)


class PendingFile:
    """One file's writes since its last sync: enough to put the synced state back."""

    def __init__(self, fd, path):
        self.fd = os.dup(fd)               # stays valid whatever happens to the file's names
        self.path = path
        self.synced_size = os.fstat(fd).st_size
        self.saved = []                    # [(offset, old bytes)] within synced_size
        self.saved_spans = Intervals()
        self.written = Intervals()         # what the writes touched (for bytes_synced)

    def remember(self, a, b):
        """Keep the synced bytes of [a, b) before they are overwritten or cut off."""
        b = min(b, self.synced_size)
        for x, y in self.saved_spans.missing(a, b):
            old = os.pread(self.fd, y - x, x)
            self.saved.append((x, old))
            self.saved_spans.add(x, y)

    def roll_back(self):
        os.ftruncate(self.fd, self.synced_size)
        for off, data in self.saved:
            os.pwrite(self.fd, data, off)

    def close(self):
        os.close(self.fd)


class LazyFS:
    use_ns = True

    def __init__(self, backing, meta_on_fsync=False, ignore_syncs=None):
        self.ignore_syncs = re.compile(ignore_syncs) if ignore_syncs else None
        self.root = os.path.realpath(backing)
        self.trash = os.path.join(self.root, TRASH)
        os.makedirs(self.trash, exist_ok=True)
        self.meta_on_fsync = meta_on_fsync
        self.mutex = threading.RLock()
        self.pending = {}                  # inode -> PendingFile
        self.fd_ino = {}                   # open handle -> inode
        self.journal = []                  # uncommitted name changes, oldest first
        self.trash_seq = 0
        self.fenced = frozenset()          # thread ids cut off by the last fenced drop
        self.fenced_refusals = 0
        self.reset_stats()

    # -- plumbing ------------------------------------------------------------------------

    # What changes the disk: the operations a fenced (powered-off) thread may not do.
    CHANGES = frozenset({"write", "truncate", "fsync", "fsyncdir", "create", "mknod", "mkdir",
                         "unlink", "rmdir", "rename", "link", "symlink", "chmod", "chown",
                         "utimens", "setxattr", "removexattr"})

    def __call__(self, op, *args):
        fn = getattr(self, op, None)
        if fn is None:
            raise FuseOSError(errno.ENOSYS)
        if op in self.CHANGES and self.fenced:
            # Checked under the mutex: a request already past this point when the drop began
            # holds the mutex first and lands before the drop (which then undoes it).
            with self.mutex:
                if caller_tid() in self.fenced:
                    self.fenced_refusals += 1
                    raise FuseOSError(errno.EIO)
                return fn(*args)
        return fn(*args)

    def full(self, path):
        if path is None:
            raise FuseOSError(errno.EBADF)
        rel = path.lstrip("/")
        if rel == TRASH or rel.startswith(TRASH + "/"):
            raise FuseOSError(errno.ENOENT)
        return os.path.join(self.root, rel)

    @staticmethod
    def passthrough(path):
        return path is not None and path.endswith("-shm")

    def reset_stats(self):
        self.syncs = {}
        self.dir_syncs = {}
        self.bytes_written = {}
        self.bytes_synced = {}
        self.drops = 0

    @staticmethod
    def bump(table, key, n=1):
        table[key] = table.get(key, 0) + n

    def new_trash(self):
        self.trash_seq += 1
        return os.path.join(self.trash, str(self.trash_seq))

    def log_name_change(self, kind, dirs, **fields):
        self.journal.append(dict(kind=kind, dirs=set(dirs), **fields))

    # -- attributes and directories ------------------------------------------------------

    def getattr(self, path, fh=None):
        with self.mutex:
            try:
                st = os.lstat(self.full(path))
            except FileNotFoundError:
                if fh:
                    st = os.fstat(fh)
                else:
                    raise FuseOSError(errno.ENOENT)
        keys = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_blocks",
                "st_atime_ns", "st_mtime_ns", "st_ctime_ns")
        d = {k: getattr(st, k) for k in keys}
        for k in ("atime", "mtime", "ctime"):
            d["st_" + k] = d.pop("st_%s_ns" % k)
        return d

    def access(self, path, mode):
        if not os.access(self.full(path), mode):
            raise FuseOSError(errno.EACCES)

    def readdir(self, path, fh):
        names = os.listdir(self.full(path))
        if path == "/":
            names = [n for n in names if n != TRASH]
        return [".", ".."] + names

    def readlink(self, path):
        return os.readlink(self.full(path))

    def statfs(self, path):
        s = os.statvfs(self.full(path))
        return {k: getattr(s, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                           "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def chmod(self, path, mode):
        os.chmod(self.full(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self.full(path), uid, gid)

    def utimens(self, path, times=None):
        with self.mutex:
            if times is None:
                os.utime(self.full(path), follow_symlinks=False)
            else:
                os.utime(self.full(path), ns=times, follow_symlinks=False)

    # -- name changes (journalled) -------------------------------------------------------

    def mkdir(self, path, mode):
        with self.mutex:
            os.mkdir(self.full(path), mode)
            self.log_name_change("create", [posixpath.dirname(path)], path=path, isdir=True)

    def mknod(self, path, mode, dev):
        with self.mutex:
            os.mknod(self.full(path), mode, dev)
            self.log_name_change("create", [posixpath.dirname(path)], path=path, isdir=False)

    def symlink(self, target, source):
        # fusepy passes (link name, what it points to)
        with self.mutex:
            os.symlink(source, self.full(target))
            self.log_name_change("create", [posixpath.dirname(target)], path=target, isdir=False)

    def link(self, target, source):
        with self.mutex:
            os.link(self.full(source), self.full(target))
            self.log_name_change("create", [posixpath.dirname(target)], path=target, isdir=False)

    def unlink(self, path):
        with self.mutex:
            t = self.new_trash()
            os.rename(self.full(path), t)
            self.log_name_change("remove", [posixpath.dirname(path)], path=path, trash=t)

    def rmdir(self, path):
        with self.mutex:
            full = self.full(path)
            if os.listdir(full):
                raise FuseOSError(errno.ENOTEMPTY)
            t = self.new_trash()
            os.rename(full, t)
            self.log_name_change("remove", [posixpath.dirname(path)], path=path, trash=t)

    def rename(self, old, new):
        with self.mutex:
            src, dst = self.full(old), self.full(new)
            os.lstat(src)
            replaced = None
            if os.path.lexists(dst):
                if os.path.isdir(dst) and not os.path.islink(dst):
                    if os.listdir(dst):
                        raise FuseOSError(errno.ENOTEMPTY)
                replaced = self.new_trash()
                os.rename(dst, replaced)
            try:
                os.rename(src, dst)
            except OSError:
                if replaced:
                    os.rename(replaced, dst)
                raise
            self.log_name_change("rename", [posixpath.dirname(old), posixpath.dirname(new)],
                                 old=old, new=new, replaced=replaced)

    def commit_names(self, upto):
        """Make journal entries [0, upto) durable."""
        done, self.journal = self.journal[:upto], self.journal[upto:]
        for e in done:
            t = e.get("trash") or e.get("replaced")
            if t and os.path.lexists(t):
                if os.path.isdir(t) and not os.path.islink(t):
                    os.rmdir(t)
                else:
                    os.unlink(t)

    def undo_names(self):
        undone = 0
        for e in reversed(self.journal):
            try:
                if e["kind"] == "create":
                    full = self.full(e["path"])
                    if e["isdir"]:
                        os.rmdir(full)
                    else:
                        os.unlink(full)
                elif e["kind"] == "remove":
                    os.rename(e["trash"], self.full(e["path"]))
                elif e["kind"] == "rename":
                    os.rename(self.full(e["new"]), self.full(e["old"]))
                    if e["replaced"]:
                        os.rename(e["replaced"], self.full(e["new"]))
                undone += 1
            except OSError as err:
                print("lazyfs: cannot undo %s: %s" % (e, err), file=sys.stderr)
        self.journal = []
        return undone

    # -- files ---------------------------------------------------------------------------

    def _opened(self, fd):
        self.fd_ino[fd] = os.fstat(fd).st_ino
        return fd

    def open(self, path, flags):
        with self.mutex:
            acc = flags & os.O_ACCMODE
            # Always open read-write where allowed (writes come with their offset; O_APPEND
            # is resolved by the kernel before the write reaches us).
            try:
                fd = os.open(self.full(path), os.O_RDWR if acc != os.O_RDONLY else os.O_RDONLY)
            except IsADirectoryError:
                fd = os.open(self.full(path), os.O_RDONLY)
            return self._opened(fd)

    def create(self, path, mode, fi=None):
        with self.mutex:
            full = self.full(path)
            existed = os.path.lexists(full)
            fd = os.open(full, os.O_RDWR | os.O_CREAT, mode)
            if not existed:
                self.log_name_change("create", [posixpath.dirname(path)], path=path, isdir=False)
            return self._opened(fd)

    def read(self, path, size, offset, fh):
        with self.mutex:
            return os.pread(fh, size, offset)

    def _pending(self, fh, path):
        ino = self.fd_ino.get(fh)
        if ino is None:
            ino = self.fd_ino[fh] = os.fstat(fh).st_ino
        p = self.pending.get(ino)
        if p is None:
            p = self.pending[ino] = PendingFile(fh, path)
        return p

    def write(self, path, data, offset, fh):
        with self.mutex:
            if not self.passthrough(path):
                p = self._pending(fh, path)
                p.remember(offset, offset + len(data))
                p.written.add(offset, offset + len(data))
                self.bump(self.bytes_written, path or p.path, len(data))
            return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        with self.mutex:
            own = None
            if not fh:
                own = fh = os.open(self.full(path), os.O_RDWR)
            try:
                if not self.passthrough(path):
                    p = self._pending(fh, path)
                    size = os.fstat(fh).st_size
                    if length < size:
                        p.remember(length, size)
                    p.written.add(min(length, size), max(length, size))
                os.ftruncate(fh, length)
            finally:
                if own is not None:
                    self.fd_ino.pop(own, None)
                    os.close(own)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        with self.mutex:
            self.fd_ino.pop(fh, None)
            os.close(fh)

    def fsync(self, path, datasync, fh):
        with self.mutex:
            ino = self.fd_ino.get(fh) or os.fstat(fh).st_ino
            key = path or (self.pending[ino].path if ino in self.pending else "?")
            self.bump(self.syncs, key)
            if self.ignore_syncs and self.ignore_syncs.search(key):
                return   # a sync that lies (to check that a test notices)
            p = self.pending.pop(ino, None)
            if p is not None:
                self.bump(self.bytes_synced, key, p.written.total())
                p.close()
            if self.meta_on_fsync:
                self.commit_names(len(self.journal))

    def opendir(self, path):
        os.lstat(self.full(path))
        return 0

    def releasedir(self, path, fh):
        return 0

    def fsyncdir(self, path, datasync, fh):
        with self.mutex:
            self.bump(self.dir_syncs, path or "?")
            if self.ignore_syncs and self.ignore_syncs.search(path or "?"):
                return
            last = -1
            for i, e in enumerate(self.journal):
                if path in e["dirs"]:
                    last = i
            self.commit_names(last + 1)

    # -- control -------------------------------------------------------------------------

    def drop(self, fence=()):
        with self.mutex:
            if fence:
                self.fenced = frozenset(int(t) for t in fence)
            files = len(self.pending)
            lost = sum(p.written.total() for p in self.pending.values())
            for p in self.pending.values():
                try:
                    p.roll_back()
                except OSError as err:
                    print("lazyfs: cannot roll back %s: %s" % (p.path, err), file=sys.stderr)
                p.close()
            self.pending = {}
            names = self.undo_names()
            self.drops += 1
            return {"ok": True, "files_rolled_back": files, "bytes_lost": lost, "names_undone": names,
                    "fenced_refusals": self.fenced_refusals}

    def flush_all(self):
        with self.mutex:
            for p in self.pending.values():
                p.close()
            n = len(self.pending)
            self.pending = {}
            self.commit_names(len(self.journal))
            return {"ok": True, "files": n}

    def stats(self):
        with self.mutex:
            return {
                "syncs": dict(self.syncs),
                "dir_syncs": dict(self.dir_syncs),
                "bytes_written": dict(self.bytes_written),
                "bytes_synced": dict(self.bytes_synced),
                "total_syncs": sum(self.syncs.values()),
                "total_dir_syncs": sum(self.dir_syncs.values()),
                "total_bytes_written": sum(self.bytes_written.values()),
                "total_bytes_synced": sum(self.bytes_synced.values()),
                "pending": {"files": len(self.pending),
                            "bytes": sum(p.written.total() for p in self.pending.values()),
                            "names": len(self.journal)},
                "drops": self.drops,
            }

    def control(self, line):
        cmd, args = line.strip().lower(), {}
        if cmd.startswith("{"):
            args = json.loads(cmd)
            cmd = args.get("cmd", "")
        if cmd == "drop":
            return self.drop(args.get("fence") or ())
        if cmd == "stats":
            return self.stats()
        if cmd == "flush":
            return self.flush_all()
        if cmd == "reset":
            with self.mutex:
                self.reset_stats()
            return {"ok": True}
        return {"ok": False, "error": "unknown command %r (drop, stats, flush, reset)" % cmd}


def serve_control(fs, path):
    if os.path.exists(path):
        os.unlink(path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(8)

    def client(conn):
        with conn:
            f = conn.makefile("rwb")
            for line in f:
                try:
                    reply = fs.control(line.decode())
                except Exception as err:   # report, never kill the file system
                    reply = {"ok": False, "error": str(err)}
                f.write((json.dumps(reply, sort_keys=True) + "\n").encode())
                f.flush()

    def loop():
        while True:
            conn, _ = srv.accept()
            threading.Thread(target=client, args=(conn,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


def control_request(path, cmd):
    """One command to a running lazyfs; its JSON reply."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(60)
    s.connect(path)
    s.sendall((cmd + "\n").encode())
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return json.loads(data)


class Mount:
    """lazyfs.py run as a child process over BACKING at MOUNTPOINT; `close()` unmounts."""

    def __init__(self, backing, mountpoint, control, meta_on_fsync=False, ignore_syncs=None, stderr=None):
        import subprocess
        import time
        self.mountpoint, self.control = mountpoint, control
        argv = ["/usr/bin/python3", os.path.abspath(__file__), backing, mountpoint, "--control", control]
        if meta_on_fsync:
            argv.append("--meta-on-fsync")
        if ignore_syncs:
            argv += ["--ignore-syncs", ignore_syncs]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=stderr)
        end = time.time() + 20
        while not (os.path.ismount(mountpoint) and os.path.exists(control)):
            if self.proc.poll() is not None or time.time() > end:
                raise RuntimeError("lazyfs did not mount %s (exit %s)" % (mountpoint, self.proc.poll()))
            time.sleep(0.05)

    def request(self, cmd):
        return control_request(self.control, cmd)

    def close(self):
        import subprocess
        subprocess.run(["umount", self.mountpoint], stderr=subprocess.DEVNULL)
        if os.path.ismount(self.mountpoint):
            subprocess.run(["umount", "-l", self.mountpoint], stderr=subprocess.DEVNULL)
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def self_test():
    """Checks the model end to end; prints one line per check, exits 1 on a failure."""
    import signal
    import sqlite3
    import tempfile
    import time
    base = tempfile.mkdtemp(prefix="lazyfs-selftest-")
    backing, mnt = os.path.join(base, "backing"), os.path.join(base, "mnt")
    os.mkdir(backing)
    os.mkdir(mnt)
    m = Mount(backing, mnt, os.path.join(base, "ctl"))
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    def crash_after(work):
        """Run work() in a child that is then frozen, dropped under and killed (a power cut)."""
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                work()
                os.write(w, b"x")
            finally:
                time.sleep(3600)
        os.read(r, 1)
        os.kill(pid, signal.SIGSTOP)
        m.request("drop")
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        m.request("drop")

    try:
        for mode, survives in (("NORMAL", False), ("FULL", True)):
            path = os.path.join(mnt, "t-%s.db" % mode)
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE t(x)")
            db.close()
            m.request("flush")

            def inserts():
                c = sqlite3.connect(path, isolation_level=None)
                c.execute("PRAGMA synchronous=%s" % mode)
                for i in range(200):
                    c.execute("INSERT INTO t VALUES (?)", (i,))

            crash_after(inserts)
            db = sqlite3.connect(path)
            n = db.execute("SELECT count(*) FROM t").fetchone()[0]
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            db.close()
            check(n == (200 if survives else 0), "WAL synchronous=%s: %d of 200 commits after drop (want %d)"
                  % (mode, n, 200 if survives else 0))
            check(integrity == "ok", "WAL synchronous=%s: integrity_check %s" % (mode, integrity))

        # Plain files: synced bytes stay, later bytes go, any handle's fsync counts.
        f = os.path.join(mnt, "plain")
        with open(f, "wb") as h:
            h.write(b"synced\n")
        m.request("flush")
        a = os.open(f, os.O_WRONLY | os.O_APPEND)
        os.write(a, b"second\n")
        b = os.open(f, os.O_RDONLY)
        os.fsync(b)
        os.write(a, b"third\n")
        with open(f, "rb") as h:
            check(h.read() == b"synced\nsecond\nthird\n", "reads see unsynced writes")
        m.request("drop")
        os.close(a)
        os.close(b)
        with open(f, "rb") as h:
            got = h.read()
        check(got == b"synced\nsecond\n", "fsync on another handle keeps its writes, drop loses the rest: %r" % got)

        # Truncate then rewrite inside the old size: the synced bytes come back.
        with open(f, "r+b") as h:
            h.truncate(3)
            h.seek(0)
            h.write(b"XY")
        m.request("drop")
        with open(f, "rb") as h:
            got = h.read()
        check(got == b"synced\nsecond\n", "truncate and overwrite rolled back: %r" % got)

        # rename over a file: lost without a directory fsync, kept with one.
        def atomic_write(name, data, dirsync):
            tmp = os.path.join(mnt, name + ".tmp")
            with open(tmp, "wb") as h:
                h.write(data)
                h.flush()
                os.fsync(h.fileno())
            os.rename(tmp, os.path.join(mnt, name))
            if dirsync:
                d = os.open(mnt, os.O_RDONLY | os.O_DIRECTORY)
                os.fsync(d)
                os.close(d)

        atomic_write("state", b"v1", True)
        atomic_write("state", b"v2", False)
        m.request("drop")
        with open(os.path.join(mnt, "state"), "rb") as h:
            got = h.read()
        check(got == b"v1" and not os.path.exists(os.path.join(mnt, "state.tmp")),
              "rename without a directory fsync is undone: %r" % got)
        atomic_write("state", b"v3", True)
        m.request("drop")
        with open(os.path.join(mnt, "state"), "rb") as h:
            got = h.read()
        check(got == b"v3", "rename followed by a directory fsync survives: %r" % got)

        # A new file whose creation was not committed disappears; unlink comes back.
        with open(os.path.join(mnt, "new"), "wb") as h:
            h.write(b"x")
            os.fsync(h.fileno())
        os.unlink(os.path.join(mnt, "plain"))
        m.request("drop")
        check(not os.path.exists(os.path.join(mnt, "new")), "an uncommitted create is undone")
        check(os.path.exists(os.path.join(mnt, "plain")), "an uncommitted unlink is undone")
        st = m.request("stats")
        check(st["syncs"].get("/plain", 0) >= 1 and st["drops"] >= 6, "stats count syncs and drops")

        # A fenced drop: the cut-off program's later write and fsync change nothing (as a
        # request still queued in the kernel when the power went must not).
        late = os.path.join(mnt, "late")
        with open(late, "wb") as h:
            h.write(b"before\n")
            h.flush()
            os.fsync(h.fileno())
        d = os.open(mnt, os.O_RDONLY | os.O_DIRECTORY)
        os.fsync(d)
        os.close(d)
        go_r, go_w = os.pipe()
        res_r, res_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.read(go_r, 1)
            try:
                fd = os.open(late, os.O_WRONLY | os.O_APPEND)
                os.write(fd, b"after the cut\n")
                os.fsync(fd)
                os.write(res_w, b"written")
            except OSError as err:
                os.write(res_w, errno.errorcode.get(err.errno, "?").encode())
            os._exit(0)
        reply = m.request(json.dumps({"cmd": "drop", "fence": [pid]}))
        os.write(go_w, b"x")
        said = os.read(res_r, 64).decode()
        os.waitpid(pid, 0)
        m.request("drop")
        with open(late, "rb") as h:
            got = h.read()
        check(got == b"before\n" and said == "EIO",
              "a fenced program's write after the drop fails (%s) and leaves nothing: %r" % (said, got))
        st = m.request("drop")
        check(st["fenced_refusals"] >= 1 and reply["ok"], "fenced refusals are counted: %s" % st)
    finally:
        m.close()
        import shutil
        shutil.rmtree(base, ignore_errors=True)
    return 1 if failures else 0


def main():
    if "--self-test" in sys.argv[1:]:
        sys.exit(self_test())
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("backing")
    ap.add_argument("mountpoint")
    ap.add_argument("--control", required=True, help="Unix socket for drop/stats/flush/reset")
    ap.add_argument("--meta-on-fsync", action="store_true",
                    help="an fsync of any file also commits name changes (ext4); default: only a directory's fsync")
    ap.add_argument("--ignore-syncs", metavar="REGEX",
                    help="fsyncs of paths matching REGEX are counted but keep nothing (checks that a test notices)")
    ap.add_argument("--debug", action="store_true")
    a = ap.parse_args()
    try:
        from fusepy import FUSE            # Debian's python3-fusepy
    except ImportError:                    # upstream's module name
        from fuse import FUSE
    fs = LazyFS(a.backing, meta_on_fsync=a.meta_on_fsync, ignore_syncs=a.ignore_syncs)
    serve_control(fs, a.control)
    # attr/entry caching off: after a drop the kernel must not answer from what it cached.
    FUSE(fs, a.mountpoint, foreground=True, nothreads=False, debug=a.debug, fsname="lazyfs",
         attr_timeout=0, entry_timeout=0, negative_timeout=0)


if __name__ == "__main__":
    main()
