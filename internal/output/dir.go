package output

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// A File is one file of a set that WriteDir or WriteFiles writes.
type File struct {
	Name string                  // in the directory; no separators
	Fill func(w io.Writer) error // writes its content
}

// CheckDir reports, before any work, whether a directory output could be
// written at dir. The directory may exist or not; its parent must exist
// (it is not created: mkdir -p is the user's to run) and be writable. With
// owned (WriteDir), an existing directory must hold nothing but files that
// owned accepts, since it is replaced as a whole; without (WriteFiles), an
// existing directory must be writable.
func CheckDir(dir string, owned func(name string) bool) error {
	if dir == Stdout {
		return fmt.Errorf("%s: a directory is needed here, not standard output", dir)
	}
	if dir == "" {
		return errors.New("empty path; give a directory")
	}
	real, fi, err := resolveDir(dir)
	if err != nil {
		return err
	}
	if fi != nil && owned != nil {
		if err := checkOwned(dir, real, owned); err != nil {
			return err
		}
	}
	if fi == nil || owned != nil {
		return checkParent(dir, filepath.Dir(real), "spac creates the directory there")
	}
	if err := unix.Access(real, unix.W_OK); err != nil {
		return fmt.Errorf("%s: directory is not writable: %w", dir, err)
	}
	return nil
}

// resolveDir follows dir's symbolic links; fi is nil when nothing is
// there. An existing path must be a directory.
func resolveDir(dir string) (string, fs.FileInfo, error) {
	real := dir
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(real)
		if errors.Is(err, fs.ErrNotExist) {
			return real, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.IsDir() {
				return "", nil, fmt.Errorf("%s exists and is not a directory; give a directory", dir)
			}
			return real, fi, nil
		}
		if hops == maxLinks {
			return "", nil, fmt.Errorf("%s: too many levels of symbolic links", dir)
		}
		dest, err := os.Readlink(real)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Dir(real) + string(filepath.Separator) + dest
		}
		real = dest
	}
}

// checkOwned refuses to replace a directory that holds files not of the set.
func checkOwned(dir, real string, owned func(string) bool) error {
	entries, err := os.ReadDir(real)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !owned(e.Name()) {
			return fmt.Errorf("%s holds %s, which is not one of the files spac writes there; the directory is replaced as a whole, so give a new or empty directory", dir, e.Name())
		}
	}
	return nil
}

// WriteDir writes files as the directory dir, replacing what was there as
// a whole (see the package doc): a reader, or a run killed at any point,
// sees the old set or the new one. An existing dir must hold only files
// owned accepts, and keeps its mode; a new one gets 0777 less the umask.
func WriteDir(ctx context.Context, dir string, owned func(name string) bool, files []File) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("writing %s: %w", dir, err)
		}
	}()
	if err := CheckDir(dir, owned); err != nil {
		return err
	}
	real, _, err := resolveDir(dir)
	if err != nil {
		return err
	}
	parent, base := filepath.Split(real)
	if parent == "" {
		parent = "."
	}
	removeStale(parent, base) // may put back a set left aside
	old, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return err
	default:
		if err := checkOwned(dir, real, owned); err != nil { // again: CheckDir may have run long ago
			return err
		}
	}
	tmp := tempName(parent, base, tmpTag)
	if err := os.Mkdir(tmp, 0o777); err != nil {
		return err
	}
	defer func() {
		if tmp != "" {
			os.RemoveAll(tmp)
		}
	}()
	if old != nil {
		if err := os.Chmod(tmp, old.Mode().Perm()); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := writeNew(ctx, filepath.Join(tmp, f.Name), f.Fill); err != nil {
			return err
		}
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if old == nil {
		if err := renameNoReplace(tmp, real); err != nil {
			return err
		}
		tmp = ""
		return syncDir(parent)
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, real, unix.RENAME_EXCHANGE)
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS) {
		return swapAside(tmp, real, parent, base)
	}
	if err != nil {
		return err
	}
	// tmp now holds the old set; the deferred RemoveAll removes it.
	return syncDir(parent)
}

// swapAside swaps where renameat2 cannot exchange: the old directory is
// renamed aside, the new one in, and the old one removed.
func swapAside(tmp, real, parent, base string) error {
	aside := tempName(parent, base, asideTag)
	if err := os.Rename(real, aside); err != nil {
		return err
	}
	if err := os.Rename(tmp, real); err != nil {
		os.Rename(aside, real)
		return err
	}
	if err := syncDir(parent); err != nil {
		return err
	}
	return os.RemoveAll(aside)
}

// renameNoReplace renames, failing if something appeared at newpath.
func renameNoReplace(oldpath, newpath string) error {
	err := unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS) {
		return os.Rename(oldpath, newpath)
	}
	return err
}

// writeNew writes a new file in a directory no one else sees yet.
func writeNew(ctx context.Context, path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	p := &pending{t: target{path: path, kind: missing}, f: f, out: f}
	defer p.abort()
	if err := p.fill(ctx, fill); err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	p.f = nil
	return f.Close()
}

// WriteFiles writes files into the directory dir, creating dir (not its
// parent) if needed, and leaves other files there alone. Each file follows
// Write's rules; all are written in full before the first is put in place,
// so a failure or cancellation while writing changes nothing.
func WriteFiles(ctx context.Context, dir string, files []File) error {
	if err := CheckDir(dir, nil); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	ps := make([]*pending, 0, len(files))
	defer func() {
		for _, p := range ps {
			p.abort()
		}
	}()
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		p, err := begin(path, nil)
		if err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		ps = append(ps, p)
		if err := p.fill(ctx, f.Fill); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	for i, p := range ps {
		if err := p.commit(); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, files[i].Name), err)
		}
	}
	return nil
}
