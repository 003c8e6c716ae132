package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScheduleCommand(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	dir := t.TempDir()
	in := writeFile(t, "a.mtx", small)
	other := writeFile(t, "b.mtx", strings.Replace(small, "6 6 12\n", "6 6 11\n", 1)[:len(small)-7])
	sched := filepath.Join(dir, "a.sched")
	npy := filepath.Join(dir, "npy")
	text := filepath.Join(dir, "a.txt")

	out, code, err := execute(t, "schedule", in, "--method", "greedy", "-b", "4", "-o", sched, "--npy", npy, "--text", text, "--quiet")
	if code != 0 {
		t.Fatalf("schedule: exit %d, %v\n%s", code, err, out)
	}
	for _, want := range []string{"blocks           3 of 4 tasks", "traffic fp64", "partition time", "schedule file", "local addresses  uint16"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(npy, "newSchedule.npy")); err != nil {
		t.Error(err)
	}
	if b, err := os.ReadFile(text); err != nil || !strings.HasPrefix(string(b), "spac-schedule-text 1\n") {
		t.Errorf("text listing: %v", err)
	}
	// The second run comes from the cache.
	out, code, _ = execute(t, "schedule", in, "--method", "greedy", "-b", "4", "--quiet")
	if code != 0 || !strings.Contains(out, "partition time   cached") {
		t.Errorf("second run not cached (exit %d):\n%s", code, out)
	}
	out, code, _ = execute(t, "schedule", in, "--method", "greedy", "-b", "4", "--quiet", "--no-cache")
	if code != 0 || strings.Contains(out, "cached") {
		t.Errorf("--no-cache used the cache (exit %d):\n%s", code, out)
	}
	out, code, _ = execute(t, "schedule", "--clear-cache")
	if code != 0 || !strings.Contains(out, "removed 1 cached schedules") {
		t.Errorf("--clear-cache (exit %d): %s", code, out)
	}

	out, code, _ = execute(t, "inspect", sched, "--matrix", in, "--quiet")
	if code != 0 || !strings.Contains(out, "matches the fingerprint") || !strings.Contains(out, "demand histogram") {
		t.Errorf("inspect (exit %d):\n%s", code, out)
	}
	t.Logf("inspect output:\n%s", out)
	out, code, _ = execute(t, "inspect", sched, "--matrix", other, "--quiet")
	if code != 1 || !strings.Contains(out, "another matrix") {
		t.Errorf("inspect against another matrix: exit %d\n%s", code, out)
	}

	data, _ := os.ReadFile(sched)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"header byte", flip(data, 20), "damaged"},
		{"payload byte", flip(data, len(data)-5), "damaged"},
		{"truncated", data[:len(data)-16], "truncated"},
		{"truncated header", data[:50], "truncated"},
		{"not a schedule", []byte(small), "not a spac schedule"},
	} {
		bad := filepath.Join(dir, "bad.sched")
		os.WriteFile(bad, c.data, 0o644)
		out, code, _ := execute(t, "inspect", bad)
		if code != 1 || !strings.Contains(out, c.want) || !strings.Contains(out, bad) {
			t.Errorf("%s: exit %d, want 1 and %q naming the file:\n%s", c.name, code, c.want, out)
		}
	}
	if _, code, _ := execute(t, "inspect", filepath.Join(dir, "none.sched")); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

func flip(data []byte, i int) []byte {
	b := bytes.Clone(data)
	b[i] ^= 0x10
	return b
}

func TestScheduleUsage(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", t.TempDir())
	in := writeFile(t, "a.mtx", small)
	// 256 nonzeros in distinct rows and columns: a block of 256 needs 2 KiB
	// for y alone in fp64.
	var diag strings.Builder
	diag.WriteString("%%MatrixMarket matrix coordinate real general\n256 256 256\n")
	for i := 1; i <= 256; i++ {
		fmt.Fprintf(&diag, "%d %d 1\n", i, i)
	}
	wide := writeFile(t, "diag.mtx", diag.String())
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"no input", []string{"schedule"}, 2},
		{"parts", []string{"schedule", in, "--parts", "2"}, 2},
		{"bad budget", []string{"schedule", in, "--smem-budget", "lots"}, 2},
		{"budget above Hopper", []string{"schedule", in, "--smem-budget", "228KiB"}, 2},
		{"bad policy", []string{"schedule", in, "--overflow", "pray"}, 2},
		{"bad precision", []string{"schedule", in, "--precision", "fp16"}, 2},
		{"unknown method", []string{"schedule", in, "--method", "magic"}, 2},
		{"bad order", []string{"schedule", filepath.Join(t.TempDir(), "none.mtx"), "--order", "zigzag"}, 2},
		{"readonly cannot fit", []string{"schedule", wide, "-b", "256", "--smem-budget", "1KiB", "--overflow", "readonly", "--quiet", "--no-cache"}, 1},
		{"split to fit", []string{"schedule", wide, "-b", "256", "--smem-budget", "1KiB", "--overflow", "split", "--quiet", "--no-cache", "--method", "default"}, 0},
		{"inspect no file", []string{"inspect"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code, _ := execute(t, tc.args...)
			if code != tc.want {
				t.Errorf("exit %d, want %d:\n%s", code, tc.want, out)
			}
		})
	}
}

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"49152", 49152, true}, {"48KiB", 48 << 10, true}, {"48K", 48 << 10, true}, {"48 KB", 48 << 10, true},
		{"227kib", 227 << 10, true}, {"1MiB", 1 << 20, true}, {"64B", 64, true},
		{"12GiB", 12 << 30, true}, {"2TiB", 2 << 40, true},
		{"", 0, false}, {"KiB", 0, false}, {"9000000TiB", 0, false}, {"1PiB", 0, false}, {"1.5KiB", 0, false}, {"-4", 0, false},
	} {
		got, err := parseBytes(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v", c.in, got, err)
		}
	}
}
