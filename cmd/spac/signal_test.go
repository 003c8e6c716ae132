package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM and SIGINT at any moment of a partition, METIS's calls included,
// end the run the same clean way: exit 130, one line naming the signal, no
// crash dump. (Before METIS's signal handling was contained, about one
// SIGTERM in four crashed the process in longjmp.)
func TestSignalsCancelCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a dozen partitions in child processes")
	}
	graph := filepath.Join(t.TempDir(), "ba.mtx")
	if _, code, err := execute(t, "gen", "ba:n=25000,m=8", "--seed", "1", "-o", graph); code != 0 {
		t.Fatalf("gen: %v", err)
	}
	sent := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}
	finished := 0
	for i := range 12 {
		sig := syscall.SIGTERM
		if i%4 == 3 {
			sig = syscall.SIGINT
		}
		delay := time.Duration(50+i*100) * time.Millisecond
		cmd := exec.Command(os.Args[0], "partition", graph, "--model", "graph", "--as-stored", "-b", "1024")
		cmd.Env = append(os.Environ(), asSpacEnv+"=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code == 0 && err == nil {
			finished++ // the partition beat the signal
			continue
		}
		msg := stderr.String()
		want := "spac: interrupted by " + sent[sig] + "\n"
		if code != 130 || !strings.HasSuffix(msg, want) || strings.Contains(msg, "goroutine ") {
			t.Errorf("%s after %v: exit %d, stderr %q; want exit 130 and %q", sent[sig], delay, code, tail(msg, 400), want)
		}
	}
	if finished > 3 {
		t.Errorf("%d of 12 partitions finished before their signal: the test no longer interrupts METIS", finished)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
