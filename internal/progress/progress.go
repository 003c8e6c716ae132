// Package progress is how every long step of the command shows that it is
// under way: reading an input (bytes), the stages of a partitioner (a
// spinner with the stage's name, which leaves the stage's duration on its
// line when it ends), building schedules and benchmark sweeps (counts).
//
// A Reporter draws on a terminal only: New takes whether its writer is
// one, and Stderr asks (golang.org/x/term) about standard error. When the
// writer is not a terminal, or the user asked for quiet, a Reporter draws
// nothing and its steps cost nothing, so logs and pipes carry the results
// and the warnings alone. A nil *Reporter is off, and every method may be
// called on it. The bars are github.com/schollz/progressbar/v3's.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Reporter draws progress on a terminal; the zero of its pointer is off.
type Reporter struct {
	w io.Writer
}

// New draws on w when terminal says w is a terminal; otherwise it is off
// (nil). Tests pass a buffer and terminal true to see what a user sees.
func New(w io.Writer, terminal bool) *Reporter {
	if !terminal || w == nil {
		return nil
	}
	return &Reporter{w: w}
}

// Stderr draws on standard error, unless quiet or standard error is not a
// terminal.
func Stderr(quiet bool) *Reporter {
	return New(os.Stderr, !quiet && term.IsTerminal(int(os.Stderr.Fd())))
}

// On reports whether r draws anything.
func (r *Reporter) On() bool { return r != nil }

// Writer is where r draws, or nil when it is off: for the readers of
// package matrices, which draw their own bar of the bytes read.
func (r *Reporter) Writer() io.Writer {
	if r == nil {
		return nil
	}
	return r.w
}

// Printf writes a line of progress (a newline is added when missing).
func (r *Reporter) Printf(format string, a ...any) {
	if r == nil {
		return
	}
	s := fmt.Sprintf(format, a...)
	if len(s) == 0 || s[len(s)-1] != '\n' {
		s += "\n"
	}
	io.WriteString(r.w, s)
}

// Bar counts the steps of a sweep.
type Bar struct {
	bar *progressbar.ProgressBar
}

// Count starts a bar of n steps, described by desc; n < 0 is unknown.
func (r *Reporter) Count(desc string, n int) *Bar {
	if r == nil {
		return nil
	}
	return &Bar{progressbar.NewOptions(n,
		progressbar.OptionSetWriter(r.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// Add counts n steps done.
func (b *Bar) Add(n int) {
	if b != nil {
		b.bar.Add(n)
	}
}

// Describe changes the bar's description (the step under way).
func (b *Bar) Describe(desc string) {
	if b != nil {
		b.bar.Describe(desc)
	}
}

// Finish removes the bar.
func (b *Bar) Finish() {
	if b != nil {
		b.bar.Finish()
	}
}

// Stages shows the stages of one long task (a partitioner: transform,
// metis, cap, polish): a spinner with the stage's name while it runs, and
// when it ends (where the next begins, or at End) a line with its duration,
// "  NAME  STAGE  1.23 s", so that the user sees what each stage cost.
// Begin may be called from any goroutine (an abandoned METIS run may still
// report after End: it is ignored).
type Stages struct {
	mu    sync.Mutex
	w     io.Writer
	name  string
	stage string
	at    time.Time
	bar   *progressbar.ProgressBar
	ended bool
}

// Stages starts the stages of the task called name.
func (r *Reporter) Stages(name string) *Stages {
	if r == nil {
		return nil
	}
	return &Stages{w: r.w, name: name}
}

// Begin ends the stage under way and starts the named one.
func (s *Stages) Begin(stage string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	now := time.Now()
	s.flush(now)
	s.stage, s.at = stage, now
	s.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(s.w),
		progressbar.OptionSetDescription(fmt.Sprintf("  %-10s %-10s", s.name, stage)),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
	)
	s.bar.RenderBlank()
}

// flush clears the spinner and leaves the ended stage's line.
func (s *Stages) flush(now time.Time) {
	if s.bar != nil {
		s.bar.Finish()
		s.bar = nil
	}
	if s.stage != "" {
		fmt.Fprintf(s.w, "  %-10s %-10s %7.2f s\n", s.name, s.stage, now.Sub(s.at).Seconds())
	}
	s.stage = ""
}

// End ends the last stage and, when the task succeeded, leaves a line with
// its total.
func (s *Stages) End(ok bool, total time.Duration) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flush(time.Now())
	s.ended = true
	if ok {
		fmt.Fprintf(s.w, "  %-10s %-10s %7.2f s\n", s.name, "total", total.Seconds())
	}
}
