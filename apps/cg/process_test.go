package cg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spac-gpu/spac/schedule"
)

// childEnv makes the test binary act as the partitioner's child process
// (ChildProcess runs it with the arguments of childArgs) before any test
// or TestMain runs.
const childEnv = "SPAC_CG_TEST_CHILD"

func init() {
	if os.Getenv(childEnv) == "" {
		return
	}
	if err := runChild(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// runChild is the child: args are the mode, a schedule file, a file for
// the child's nice value or pid, and the output file.
func runChild(args []string) error {
	mode, src, info, out := args[0], args[1], args[2], args[3]
	// The parent waits for info to exist and may kill the child right
	// after: it must appear whole, so it is written aside and renamed.
	writeInfo := func(v int) error {
		if err := os.WriteFile(info+".tmp", []byte(strconv.Itoa(v)), 0o644); err != nil {
			return err
		}
		return os.Rename(info+".tmp", info)
	}
	switch mode {
	case "copy":
		prio, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
		if err != nil {
			return err
		}
		if err := writeInfo(20 - prio); err != nil {
			return err
		}
		s, err := schedule.ReadFile(src, nil)
		if err != nil {
			return err
		}
		return schedule.WriteFile(out, s)
	case "fail":
		return errors.New("partitioner exploded")
	case "hang":
		if err := writeInfo(os.Getpid()); err != nil {
			return err
		}
		time.Sleep(time.Hour)
	case "silent":
	}
	return nil
}

func TestChildProcessPaths(t *testing.T) {
	t.Setenv(childEnv, "1")
	coo, m := laplacian(t, 24)
	b := Ones(m)
	dir := t.TempDir()
	src := filepath.Join(dir, "laplacian.sched")
	if err := schedule.WriteFile(src, buildSchedule(t, coo, 64)); err != nil {
		t.Fatal(err)
	}
	fast, slow := 5*time.Microsecond, 10*time.Microsecond
	for _, mode := range []string{"copy", "fail", "hang", "silent"} {
		t.Run(mode, func(t *testing.T) {
			info := filepath.Join(t.TempDir(), "info")
			e := newTestEngine(m, slow, fast)
			e.onStep = func(k int) {
				if k != 1 {
					return
				}
				if mode == "hang" {
					// Wait until the child runs, so that the solve's end must kill it.
					waitFor(t, func() bool { _, err := os.Stat(info); return err == nil })
					return
				}
				waitDelivered()
			}
			o := opts(CSROp{})
			o.Schedule = ChildProcess{
				Path:   os.Args[0],
				Args:   func(out string) []string { return []string{mode, src, info, out} },
				Nice:   19,
				Stderr: io.Discard,
				Matrix: coo,
			}.Source()
			res, err := Solve(context.Background(), e, b, o)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, m, b, res, o.Tol)
			bg := res.Background
			switch mode {
			case "copy":
				if res.SwitchIter != 2 || !res.SPACKept || bg.State != "ready" {
					t.Errorf("switch %d (kept %v), background %s %q: want the child's schedule from iteration 2", res.SwitchIter, res.SPACKept, bg.State, bg.Err)
				}
				if nice, err := os.ReadFile(info); err != nil || string(nice) != "19" {
					t.Errorf("the child ran at nice %q (%v), want 19", nice, err)
				}
			case "fail":
				if bg.State != "error" || !strings.Contains(bg.Err, "exit status 3: partitioner exploded") {
					t.Errorf("background %s %q: want the child's exit status and its last line of standard error", bg.State, bg.Err)
				}
			case "hang":
				if bg.State != "cancelled" {
					t.Errorf("background %s %q, want cancelled", bg.State, bg.Err)
				}
				data, err := os.ReadFile(info)
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(string(data))
				if err != nil {
					t.Fatal(err)
				}
				// Killed, and reaped by the source's wait.
				waitFor(t, func() bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) })
			case "silent":
				if bg.State != "error" || !strings.Contains(bg.Err, "exited without writing its schedule") {
					t.Errorf("background %s %q: want the missing schedule reported", bg.State, bg.Err)
				}
			}
			if mode != "copy" && res.SwitchIter != 0 {
				t.Errorf("switch at %d without a schedule", res.SwitchIter)
			}
		})
	}
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}
