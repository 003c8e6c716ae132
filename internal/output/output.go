// Package output writes what a command produces the way careful Unix tools
// do: a regular file is replaced atomically, anything else at the path is
// written through, and nothing the user did not ask to change is destroyed.
// Check and CheckDir let a command refuse a bad output path before it
// starts work that may take minutes.
//
// # What happens at the path
//
//   - "-" is standard output (the writer the caller passes).
//   - A path that does not exist yet, or a regular file with one link, is
//     replaced atomically: the content goes to a temporary file in the same
//     directory, which is written, fsynced and renamed over the path, and
//     then the directory is fsynced. After a crash the path holds the old
//     file or the whole new one, never neither and never half. An existing
//     file keeps its mode and, where permitted (as root), its owner and
//     group; a new file gets 0666 less the umask, as os.Create gives.
//   - A regular file with more than one link (a hard link) is written in
//     place, so that every name keeps seeing the same file: replacing it
//     would silently split the names into two files, and refusing would
//     break a setup made on purpose. The content is first written in full
//     to a temporary file beside it, so a fill that fails or is cancelled
//     leaves the file untouched; only then is it copied in (truncate, copy,
//     fsync). A crash during that copy leaves the file damaged: the price of
//     keeping the link, which vim's backupcopy=auto pays too.
//   - A symbolic link is followed (up to 40 links) and these rules apply to
//     what it points at: the link itself stays. A regular target is
//     replaced in its own directory; a dangling link gets its target
//     created. Links under /proc and /dev/fd (/dev/stdout) are opened, not
//     resolved, as a shell's redirection does.
//   - A character device (/dev/null, a terminal) or a FIFO is opened and
//     written, never replaced.
//   - A directory, a socket or a block device is refused.
//
// # Temporary files
//
// A temporary is named .NAME.spac-tmp-PID-RANDOM beside its target NAME.
// It is removed on every return the process sees: success, an error, a fill
// that fails, a cancelled context (spac cancels on SIGINT and SIGTERM). A
// process killed outright (SIGKILL, a crash) cannot remove it; the next
// write of the same target removes every temporary of that target whose PID
// is no longer a live process. A live PID keeps its temporary, even when the
// PID has been reused: a stale file may linger, a running writer's is never
// deleted. (PIDs of another host sharing the directory look dead.)
//
// # Directories
//
// WriteDir writes a set of files that belongs together (spac schedule's
// --npy export) into a temporary sibling directory and swaps it in as a
// whole with renameat2(RENAME_EXCHANGE): a reader sees the old set or the
// new one. Where the file system cannot exchange, the old directory is
// renamed aside (.NAME.spac-old-PID-RANDOM), the new one in, and the old one
// removed; a crash between the two renames leaves the old set aside, and the
// next write puts it back before it starts. WriteDir only replaces a
// directory that holds nothing but files of the set.
//
// WriteFiles writes several files into a directory that may hold other
// files too (a report beside its inputs): every file is written in full to
// its temporary first, and only when all are complete are they renamed in,
// one after the other.
package output

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Stdout is the path that means standard output.
const Stdout = "-"

const (
	tmpTag   = ".spac-tmp-"
	asideTag = ".spac-old-"
	maxLinks = 40
	bufSize  = 1 << 20
)

// kind is what a path resolves to.
type kind int

const (
	missing kind = iota // nothing there yet: created
	regular             // a regular file with one link: replaced
	linked              // a regular file with more links: written in place
	stream              // a character device, FIFO or /proc link: written through
)

// target is an output path after its symbolic links.
type target struct {
	path string // the path written (after symbolic links)
	kind kind
	info fs.FileInfo // nil when missing
}

// resolve follows path's symbolic links and says what is at the end.
func resolve(path string) (target, error) {
	p := path
	for hops := 0; ; hops++ {
		if isProcLink(p) {
			fi, err := os.Stat(p)
			if err != nil {
				return target{}, err
			}
			if fi.IsDir() {
				return target{}, errIsDir(path)
			}
			return target{path: p, kind: stream, info: fi}, nil
		}
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return target{path: p, kind: missing}, nil
		}
		if err != nil {
			return target{}, err
		}
		m := fi.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			if hops == maxLinks {
				return target{}, fmt.Errorf("%s: too many levels of symbolic links", path)
			}
			dest, err := os.Readlink(p)
			if err != nil {
				return target{}, err
			}
			if !filepath.IsAbs(dest) {
				// Not filepath.Join: cleaning "dir/../x" lexically is wrong
				// where dir is itself a link.
				dest = filepath.Dir(p) + string(filepath.Separator) + dest
			}
			p = dest
		case m.IsRegular():
			k := regular
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
				k = linked
			}
			return target{path: p, kind: k, info: fi}, nil
		case m.IsDir():
			return target{}, errIsDir(path)
		case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
			return target{path: p, kind: stream, info: fi}, nil
		default:
			return target{}, fmt.Errorf("%s is a %s, not a file spac writes to; give a file name", path, describeMode(m))
		}
	}
}

// isProcLink reports whether p names a descriptor through /proc or
// /dev/fd, whose link text ("pipe:[123]", a deleted file) is no path.
func isProcLink(p string) bool {
	c := filepath.Clean(p)
	return strings.HasPrefix(c, "/proc/") || strings.HasPrefix(c, "/dev/fd/")
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file (" + m.String() + ")"
}

func errIsDir(path string) error {
	return fmt.Errorf("%s is a directory; give a file name inside it, e.g. %s", path, filepath.Join(path, "out"))
}

// Check reports, before any work, whether Write could write path: "-" is
// always fine; otherwise the path must not be a directory, a file or device
// there must be writable, and a file to be created or replaced needs an
// existing, writable directory. The error names the path and how to fix it.
func Check(path string) error {
	if path == Stdout {
		return nil
	}
	if path == "" {
		return errors.New("empty path; give a file name, or - for standard output")
	}
	t, err := resolve(path)
	if err != nil {
		return err
	}
	return checkTarget(path, t)
}

func checkTarget(path string, t target) error {
	if t.kind == stream || t.kind == linked {
		if err := unix.Access(t.path, unix.W_OK); err != nil {
			return fmt.Errorf("%s is not writable: %w", path, err)
		}
		if t.kind == stream {
			return nil
		}
	}
	return checkParent(path, filepath.Dir(t.path), "spac writes a temporary file there and renames it over the file")
}

// checkParent checks that dir, where path's temporary goes, is an existing
// writable directory; why says what it is needed for.
func checkParent(path, dir, why string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: directory %s does not exist; create it first: mkdir -p %s", path, dir, shellQuote(dir))
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	if err := unix.Access(dir, unix.W_OK); err != nil {
		return fmt.Errorf("%s: directory %s is not writable (%v); %s", path, dir, err, why)
	}
	return nil
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Write writes path with what fill writes, following the rules of the
// package doc; "-" writes stdout (nil: os.Stdout). The writer fill gets is
// buffered, and fails once ctx is done. On any error the path is as it was
// (except a hard-linked file whose copy failed) and no temporary is left.
func Write(ctx context.Context, path string, stdout io.Writer, fill func(w io.Writer) error) error {
	p, err := begin(path, stdout)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer p.abort()
	if err := p.fill(ctx, fill); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := p.commit(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// pending is a write begun: its temporary or stream is open.
type pending struct {
	t   target
	f   *os.File // the temporary, or the stream; nil for stdout
	tmp string   // the temporary's path, "" when writing through
	out io.Writer
}

// begin resolves path, cleans its stale temporaries and opens what fill
// will write to.
func begin(path string, stdout io.Writer) (*pending, error) {
	if path == Stdout {
		if stdout == nil {
			stdout = os.Stdout
		}
		return &pending{t: target{path: path, kind: stream}, out: stdout}, nil
	}
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(path, t); err != nil {
		return nil, err
	}
	if t.kind == stream {
		f, err := os.OpenFile(t.path, os.O_WRONLY|streamFlags(t), 0)
		if err != nil {
			return nil, err
		}
		return &pending{t: t, f: f, out: f}, nil
	}
	dir, base := filepath.Split(t.path)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	// A new file is created as os.Create would (0666 less the umask); a
	// temporary for an existing file stays private until it gets that
	// file's mode at commit.
	perm := fs.FileMode(0o600)
	if t.kind == missing {
		perm = 0o666
	}
	for range 10 {
		tmp := tempName(dir, base, tmpTag)
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &pending{t: t, f: f, tmp: tmp, out: f}, nil
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}

// streamFlags: a regular file behind /dev/stdout and the like is truncated,
// as a shell's > does; devices and pipes are opened as they are.
func streamFlags(t target) int {
	if t.info != nil && t.info.Mode().IsRegular() {
		return os.O_TRUNC
	}
	return 0
}

// fill runs fill on a buffered, cancellable writer and flushes it.
func (p *pending) fill(ctx context.Context, fill func(w io.Writer) error) error {
	bw := bufio.NewWriterSize(ctxWriter{ctx, p.out}, bufSize)
	if err := fill(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// commit puts the written content in place.
func (p *pending) commit() error {
	f := p.f
	switch {
	case f == nil: // stdout: the caller's writer, not ours to close
		return nil
	case p.tmp == "": // a stream
		p.f = nil
		return f.Close()
	}
	if err := f.Sync(); err != nil {
		return err
	}
	switch p.t.kind {
	case linked:
		if err := copyInto(p.t.path, f); err != nil {
			return err
		}
		return p.abort() // the temporary has served
	case regular:
		keepOwnerAndMode(f, p.t.info)
	}
	p.f = nil
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(p.tmp, p.t.path); err != nil {
		return err
	}
	p.tmp = ""
	return syncDir(filepath.Dir(p.t.path))
}

// abort closes and removes what begin opened; after commit it does nothing.
func (p *pending) abort() error {
	var err error
	if p.f != nil {
		err = p.f.Close()
		p.f = nil
	}
	if p.tmp != "" {
		if rerr := os.Remove(p.tmp); rerr != nil && err == nil {
			err = rerr
		}
		p.tmp = ""
	}
	return err
}

// copyInto copies the temporary tmp into the file at path, in place.
func copyInto(path string, tmp *os.File) error {
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dst, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, tmp); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// keepOwnerAndMode gives f the owner (where permitted) and mode of the file
// it replaces. The owner comes first: chown clears set-id bits.
func keepOwnerAndMode(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		if f.Chown(int(st.Uid), int(st.Gid)) != nil {
			f.Chown(-1, int(st.Gid)) // a member of the group may keep it
		}
	}
	f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
}

// ctxWriter fails once its context is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(b)
}

// tempName is a fresh name beside dir/base: .BASE<tag>PID-RANDOM.
func tempName(dir, base, tag string) string {
	var r [6]byte
	rand.Read(r[:])
	return filepath.Join(dir, "."+base+tag+strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(r[:]))
}

// removeStale removes the temporaries of dir/base left by processes that
// are gone, and puts back a set a killed WriteDir had moved aside.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		for _, tag := range []string{tmpTag, asideTag} {
			rest, ok := strings.CutPrefix(name, "."+base+tag)
			if !ok {
				continue
			}
			pidText, _, ok := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(pidText)
			if !ok || err != nil || alive(pid) {
				continue
			}
			stale := filepath.Join(dir, name)
			if tag == asideTag {
				if _, err := os.Lstat(filepath.Join(dir, base)); errors.Is(err, fs.ErrNotExist) {
					os.Rename(stale, filepath.Join(dir, base))
					continue
				}
			}
			os.RemoveAll(stale)
		}
	}
}

// alive reports whether pid is a process that may still be writing.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// syncDir fsyncs a directory, so that a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
