package output

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func anyName(string) bool { return true }

func files(kv ...string) []File {
	var fs []File
	for i := 0; i < len(kv); i += 2 {
		fs = append(fs, File{Name: kv[i], Fill: text(kv[i+1])})
	}
	return fs
}

// wantSet fails unless dir holds exactly the files of kv with their content.
func wantSet(t *testing.T, dir string, kv ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(kv)/2 {
		t.Errorf("%s holds %d files, want %d", dir, len(entries), len(kv)/2)
	}
	for i := 0; i < len(kv); i += 2 {
		if got := content(t, filepath.Join(dir, kv[i])); got != kv[i+1] {
			t.Errorf("%s: %q, want %q", kv[i], got, kv[i+1])
		}
	}
}

func TestWriteDir(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	dir := filepath.Join(parent, "set")
	if err := WriteDir(ctx, dir, anyName, files("a", "1", "b", "1")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "a", "1", "b", "1")
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	// The new set replaces the old one whole: b, not in it, goes.
	if err := WriteDir(ctx, dir, anyName, files("a", "2", "c", "2")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "a", "2", "c", "2")
	wantMode(t, dir, 0o750)
	noTemps(t, parent)

	// Through a symbolic link, the link stays.
	link := filepath.Join(parent, "link")
	os.Symlink("set", link)
	if err := WriteDir(ctx, link, anyName, files("a", "3")); err != nil {
		t.Fatal(err)
	}
	wantLink(t, link, "set")
	wantSet(t, dir, "a", "3")

	// A failing file leaves the old set.
	boom := errors.New("boom")
	err := WriteDir(ctx, dir, anyName, []File{{Name: "a", Fill: text("4")}, {Name: "b", Fill: func(io.Writer) error { return boom }}})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	wantSet(t, dir, "a", "3")
	noTemps(t, parent)
}

func TestWriteDirRefuses(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "set")
	os.Mkdir(dir, 0o755)
	mustWrite(t, filepath.Join(dir, "thesis.tex"), "years of work", 0o644)
	owned := func(name string) bool { return name == "a" }
	err := WriteDir(context.Background(), dir, owned, files("a", "1"))
	if err == nil || !strings.Contains(err.Error(), "thesis.tex") {
		t.Fatalf("a directory holding other files was replaced (err %v)", err)
	}
	wantSet(t, dir, "thesis.tex", "years of work")
	for path, want := range map[string]string{
		filepath.Join(parent, "no", "set"): "mkdir -p",
		"-":                                "not standard output",
		filepath.Join(dir, "thesis.tex"):   "not a directory",
		dir:                                "holds thesis.tex",
	} {
		if err := CheckDir(path, owned); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckDir(%s) = %v, want %q", path, err, want)
		}
	}
}

// TestKilledDirSwap kills a child in the middle of writing the new set:
// the old set is whole, and the next write removes the child's directory.
func TestKilledDirSwap(t *testing.T) {
	if inChild() {
		return
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "set.dir")
	if err := WriteDir(context.Background(), dir, anyName, files("a", "old a", "b", "old b")); err != nil {
		t.Fatal(err)
	}
	tmp := killChildMidWrite(t, "TestKilledDirSwap", dir, parent)
	wantSet(t, dir, "a", "old a", "b", "old b")
	if err := WriteDir(context.Background(), dir, anyName, files("a", "new a")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "a", "new a")
	if _, err := os.Lstat(tmp); err == nil {
		t.Fatalf("the killed child's directory %s survived the next write", tmp)
	}
	noTemps(t, parent)
}

// TestAsideRestored: a process killed between the two renames of the
// fallback swap left the old set aside and none in place; the next write
// puts the old set back before it starts, and then replaces it.
func TestAsideRestored(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "set")
	aside := filepath.Join(parent, ".set"+asideTag+strconv.Itoa(deadPID(t))+"-abc")
	os.Mkdir(aside, 0o755)
	mustWrite(t, filepath.Join(aside, "a"), "old a", 0o644)
	removeStale(parent, "set")
	wantSet(t, dir, "a", "old a")
	if err := WriteDir(context.Background(), dir, anyName, files("a", "new a")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "a", "new a")
	noTemps(t, parent)
}

func TestSwapAside(t *testing.T) {
	parent := t.TempDir()
	dir, tmp := filepath.Join(parent, "set"), filepath.Join(parent, "new")
	for d, v := range map[string]string{dir: "old", tmp: "new"} {
		os.Mkdir(d, 0o755)
		mustWrite(t, filepath.Join(d, "a"), v, 0o644)
	}
	if err := swapAside(tmp, dir, parent, "set"); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "a", "new")
	noTemps(t, parent)
}

func TestWriteFiles(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "report")
	if err := WriteFiles(ctx, dir, files("report.md", "1", "plot.svg", "1")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "input.csv"), "kept", 0o644)
	boom := errors.New("boom")
	err := WriteFiles(ctx, dir, []File{{Name: "report.md", Fill: text("2")}, {Name: "plot.svg", Fill: func(io.Writer) error { return boom }}})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	wantSet(t, dir, "report.md", "1", "plot.svg", "1", "input.csv", "kept")
	if err := WriteFiles(ctx, dir, files("report.md", "3", "plot.svg", "3")); err != nil {
		t.Fatal(err)
	}
	wantSet(t, dir, "report.md", "3", "plot.svg", "3", "input.csv", "kept")
	if err := WriteFiles(ctx, filepath.Join(dir, "a", "b"), files("x", "1")); err == nil || !strings.Contains(err.Error(), "mkdir -p") {
		t.Fatalf("a missing parent: %v", err)
	}
}
