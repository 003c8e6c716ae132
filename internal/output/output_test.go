package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func text(s string) func(w io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func write(path string, s string) error {
	return Write(context.Background(), path, nil, text(s))
}

func mustWrite(t *testing.T, path, content string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // past the umask
		t.Fatal(err)
	}
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails when a temporary is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), tmpTag) || strings.Contains(e.Name(), asideTag) {
			t.Errorf("temporary left behind: %s", e.Name())
		}
	}
}

// deadPID is the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	return cmd.Process.Pid
}

// TestWriteTargets writes through every kind of target and checks what is
// at the path afterwards.
func TestWriteTargets(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to write
		check func(t *testing.T, dir, path string)
	}{
		{"new file gets 0666 less the umask", func(t *testing.T, dir string) string {
			syscall.Umask(0o027)
			return filepath.Join(dir, "new")
		}, func(t *testing.T, dir, path string) {
			syscall.Umask(0o022)
			wantMode(t, path, 0o640)
		}},
		{"existing 0600 kept", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "f")
			mustWrite(t, p, "old", 0o600)
			return p
		}, func(t *testing.T, dir, path string) { wantMode(t, path, 0o600) }},
		{"existing 0755 kept", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "f")
			mustWrite(t, p, "old", 0o755)
			return p
		}, func(t *testing.T, dir, path string) { wantMode(t, path, 0o755) }},
		{"symlink to a regular file: link kept, target replaced", func(t *testing.T, dir string) string {
			os.Mkdir(filepath.Join(dir, "real"), 0o755)
			mustWrite(t, filepath.Join(dir, "real", "f"), "old", 0o640)
			p := filepath.Join(dir, "link")
			if err := os.Symlink("real/f", p); err != nil {
				t.Fatal(err)
			}
			return p
		}, func(t *testing.T, dir, path string) {
			wantLink(t, path, "real/f")
			wantMode(t, filepath.Join(dir, "real", "f"), 0o640)
			if got := content(t, filepath.Join(dir, "real", "f")); got != "new" {
				t.Errorf("target holds %q", got)
			}
			noTemps(t, filepath.Join(dir, "real"))
		}},
		{"dangling symlink creates its target", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "link")
			if err := os.Symlink("made", p); err != nil {
				t.Fatal(err)
			}
			return p
		}, func(t *testing.T, dir, path string) {
			wantLink(t, path, "made")
			if got := content(t, filepath.Join(dir, "made")); got != "new" {
				t.Errorf("target holds %q", got)
			}
		}},
		{"hard link written in place, both names see it", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "f")
			mustWrite(t, p, "old content, longer than the new", 0o644)
			if err := os.Link(p, filepath.Join(dir, "g")); err != nil {
				t.Fatal(err)
			}
			return p
		}, func(t *testing.T, dir, path string) {
			a, _ := os.Stat(path)
			b, _ := os.Stat(filepath.Join(dir, "g"))
			if !os.SameFile(a, b) {
				t.Errorf("the hard link was split into two files")
			}
			if got := content(t, filepath.Join(dir, "g")); got != "new" {
				t.Errorf("the other name holds %q", got)
			}
		}},
		{"/dev/null written through", func(t *testing.T, dir string) string { return os.DevNull },
			func(t *testing.T, dir, path string) {
				fi, err := os.Lstat(os.DevNull)
				if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
					t.Fatalf("/dev/null is no longer a character device: %v %v", fi.Mode(), err)
				}
			}},
		{"symlink to /dev/null", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "null")
			os.Symlink(os.DevNull, p)
			return p
		}, func(t *testing.T, dir, path string) { wantLink(t, path, os.DevNull) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tc.setup(t, dir)
			if err := write(path, "new"); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
				if got := content(t, path); got != "new" {
					t.Errorf("content %q, want new", got)
				}
			}
			tc.check(t, dir, path)
			noTemps(t, dir)
		})
	}
}

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != want {
		t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
	}
}

func wantLink(t *testing.T, path, dest string) {
	t.Helper()
	got, err := os.Readlink(path)
	if err != nil || got != dest {
		t.Errorf("%s is no longer a link to %s: %q %v", path, dest, got, err)
	}
}

func TestWriteStdout(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(context.Background(), "-", &buf, text("to stdout")); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "to stdout" {
		t.Fatalf("stdout got %q", buf.String())
	}
	if _, err := os.Lstat("-"); err == nil {
		t.Fatal(`a file named "-" was created`)
	}
}

func TestWriteFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := write(path, "through the pipe"); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("reader got %q", s)
	}
	if fi, _ := os.Lstat(path); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v", fi.Mode())
	}
	noTemps(t, dir)
}

func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	path := filepath.Join(t.TempDir(), "f")
	mustWrite(t, path, "old", 0o640)
	if err := os.Chown(path, 1234, 2345); err != nil {
		t.Fatal(err)
	}
	if err := write(path, "new"); err != nil {
		t.Fatal(err)
	}
	st := statT(t, path)
	if st.Uid != 1234 || st.Gid != 2345 {
		t.Fatalf("owner %d:%d, want 1234:2345", st.Uid, st.Gid)
	}
}

func statT(t *testing.T, path string) *syscall.Stat_t {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t)
}

// TestRefused: paths that cannot be written are refused by Check, with a
// message that says how to fix it, and by Write the same way.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		path, want string
	}{
		{dir, "is a directory; give a file name inside it"},
		{filepath.Join(dir, "no", "such", "f"), "mkdir -p " + filepath.Join(dir, "no", "such")},
		{"", "empty path"},
	}
	for _, tc := range cases {
		err := Check(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%q) = %v, want %q", tc.path, err, tc.want)
		}
		if tc.path == "" {
			continue
		}
		err = write(tc.path, "x")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tmpTag) {
			t.Errorf("Write(%q) = %v, want %q and no temporary's name", tc.path, err, tc.want)
		}
	}
	if err := Check("-"); err != nil {
		t.Errorf("Check(-) = %v", err)
	}
	if err := Check(os.DevNull); err != nil {
		t.Errorf("Check(/dev/null) = %v", err)
	}
}

// TestFailedWriteKeepsOldFile: a fill that fails, or a context cancelled
// mid-write (as SIGINT does), leaves the old file and no temporary.
func TestFailedWriteKeepsOldFile(t *testing.T) {
	boom := errors.New("boom")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for name, tc := range map[string]struct {
		fill func(w io.Writer) error
		want error
	}{
		"fill fails": {func(w io.Writer) error {
			io.WriteString(w, "half of a new")
			return boom
		}, boom},
		"cancelled": {func(w io.Writer) error {
			chunk := make([]byte, 1<<16)
			for i := 0; ; i++ {
				if i == 40 {
					cancel()
				}
				if _, err := w.Write(chunk); err != nil {
					return err
				}
			}
		}, context.Canceled},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		mustWrite(t, path, "old", 0o644)
		if err := Write(ctx, path, nil, tc.fill); !errors.Is(err, tc.want) {
			t.Fatalf("%s: error %v, want it to wrap %v", name, err, tc.want)
		}
		if got := content(t, path); got != "old" {
			t.Fatalf("%s: content %q, want the old file kept", name, got)
		}
		noTemps(t, dir)
	}
}

func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	dead := filepath.Join(dir, ".out"+tmpTag+strconv.Itoa(deadPID(t))+"-abc")
	live := filepath.Join(dir, ".out"+tmpTag+strconv.Itoa(os.Getppid())+"-abc")
	other := filepath.Join(dir, ".other"+tmpTag+strconv.Itoa(deadPID(t))+"-abc")
	for _, p := range []string{dead, live, other} {
		mustWrite(t, p, "partial", 0o600)
	}
	if err := write(path, "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dead); err == nil {
		t.Error("a dead process's temporary was kept")
	}
	if _, err := os.Lstat(live); err != nil {
		t.Error("a live process's temporary was removed")
	}
	if _, err := os.Lstat(other); err != nil {
		t.Error("another target's temporary was removed")
	}
}

const childEnv = "SPAC_OUTPUT_TEST_CHILD"

// TestKilledWriter re-runs this test binary as a child that writes a big
// output slowly, SIGKILLs it mid-write, and checks that the old file is
// whole and that the next write removes the child's temporary.
func TestKilledWriter(t *testing.T) {
	if inChild() {
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.out")
	mustWrite(t, path, "the old content", 0o644)
	tmp := killChildMidWrite(t, "TestKilledWriter", path, dir)
	if got := content(t, path); got != "the old content" {
		t.Fatalf("after SIGKILL the target holds %q", got[:min(len(got), 40)])
	}
	if err := write(path, "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(tmp); err == nil {
		t.Fatalf("the killed child's temporary %s survived the next write", tmp)
	}
	noTemps(t, dir)
}

// killChildMidWrite starts the test named test as a child writing path,
// waits until its temporary in dir has grown, SIGKILLs it, and returns the
// temporary's path.
func killChildMidWrite(t *testing.T, test, path, dir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	prefix := "." + filepath.Base(path) + tmpTag + strconv.Itoa(cmd.Process.Pid) + "-"
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), prefix) {
				continue
			}
			tmp := filepath.Join(dir, e.Name())
			if size := dirSize(tmp); size >= 4<<20 {
				cmd.Process.Kill()
				cmd.Wait()
				return tmp
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	t.Fatal("the child never got its temporary to 4 MiB")
	return ""
}

// dirSize is the size of a file, or of the files in a directory.
func dirSize(path string) int64 {
	var n int64
	filepath.WalkDir(path, func(_ string, d fs.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// slowFill writes 1 MiB every 10 ms for a minute: long enough to be killed.
func slowFill(w io.Writer) error {
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for range 6000 {
		if _, err := w.Write(chunk); err != nil {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// inChild reports whether this process is killChildMidWrite's child, and
// if so writes its target slowly, to be killed.
func inChild() bool {
	target := os.Getenv(childEnv)
	if target == "" {
		return false
	}
	if strings.HasSuffix(target, ".dir") {
		WriteDir(context.Background(), target, func(string) bool { return true },
			[]File{{Name: "a", Fill: text("new a")}, {Name: "b", Fill: slowFill}})
		return true
	}
	Write(context.Background(), target, nil, slowFill)
	return true
}
