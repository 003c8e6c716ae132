package cg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

// ChildProcess computes the SPAC schedule in a child process (normally the
// running binary itself): the partitioner allocates gigabytes and runs on
// every core, and in the solver's process its garbage collection and
// goroutines compete with the solver's host thread, which launches the
// kernels of every iteration and waits for them; a process of its own at a
// low priority leaves that thread alone. The child writes the schedule to
// a file, which the source reads once the child exits successfully.
type ChildProcess struct {
	Path string // the executable
	// Args is the child's command line (without the executable) given the
	// file it must write the schedule to (schedule.WriteFile's format).
	Args func(out string) []string
	// Nice is the child's nice value (19: the lowest priority); 0 leaves it
	// at the parent's.
	Nice int
	// Stderr receives the child's standard error (its progress); nil
	// discards it. Its last lines also go into the error of a failed child.
	Stderr io.Writer
	// Matrix is the matrix the schedule must be for (schedule.ReadFile
	// refuses one made for another); nil checks nothing.
	Matrix *matrices.COO
}

// stderrTail is how much of the child's standard error a failure quotes.
const stderrTail = 2048

// Source returns the schedule source that runs the child. Cancelling its
// context kills the child.
func (c ChildProcess) Source() ScheduleSource {
	return func(ctx context.Context) (*schedule.Schedule, error) {
		dir, err := os.MkdirTemp("", "spac-cg-schedule-")
		if err != nil {
			return nil, fmt.Errorf("cg: a directory for the child's schedule: %w", err)
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "schedule")
		cmd := exec.CommandContext(ctx, c.Path, c.Args(out)...)
		tail := &tailWriter{max: stderrTail}
		cmd.Stderr = tail
		if c.Stderr != nil {
			cmd.Stderr = io.MultiWriter(c.Stderr, tail)
		}
		if err := runLowered(cmd, c.Nice); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			msg := strings.TrimSpace(string(tail.buf))
			if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
				msg = msg[i+1:]
			}
			if msg != "" {
				return nil, fmt.Errorf("cg: the partitioner's process (%s): %w: %s", filepath.Base(c.Path), err, msg)
			}
			return nil, fmt.Errorf("cg: the partitioner's process (%s): %w", filepath.Base(c.Path), err)
		}
		s, err := schedule.ReadFile(out, c.Matrix)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("cg: the partitioner's process (%s) exited without writing its schedule", filepath.Base(c.Path))
		}
		if err != nil {
			return nil, fmt.Errorf("cg: the partitioner's schedule: %w", err)
		}
		return s, nil
	}
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if over := len(w.buf) - w.max; over > 0 {
		w.buf = append(w.buf[:0], w.buf[over:]...)
	}
	return len(p), nil
}
