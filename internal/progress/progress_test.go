package progress

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestOffDrawsNothing: a writer that is not a terminal gets nothing, and
// every method works on the nil Reporter and what it returns.
func TestOffDrawsNothing(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, false)
	if r.On() || r.Writer() != nil {
		t.Fatal("a Reporter on a non-terminal is on")
	}
	r.Printf("hello")
	b := r.Count("sweep", 3)
	b.Add(1)
	b.Describe("x")
	b.Finish()
	s := r.Stages("spac")
	s.Begin("metis")
	s.End(true, time.Second)
	if buf.Len() != 0 {
		t.Fatalf("off Reporter wrote %q", buf.String())
	}
}

// TestStagesLeaveDurations: on a (fake) terminal, each stage leaves its
// duration line and the total comes last; Begin after End is ignored.
func TestStagesLeaveDurations(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, true)
	s := r.Stages("spac")
	s.Begin("transform")
	s.Begin("metis")
	s.End(true, 1500*time.Millisecond)
	s.Begin("late")
	// What stays on the screen: each line after its last carriage return.
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		lines = append(lines, l[strings.LastIndex(l, "\r")+1:])
	}
	out := strings.Join(lines, "\n")
	for _, want := range []string{
		`(?m)^  spac       transform +\d+\.\d\d s$`,
		`(?m)^  spac       metis +\d+\.\d\d s$`,
		`(?m)^  spac       total         1\.50 s$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%q", want, out)
		}
	}
	if strings.Contains(out, "late") {
		t.Errorf("a stage after End was drawn: %q", out)
	}
	if strings.Index(out, "total") < strings.Index(out, "metis    ") {
		t.Errorf("total before the last stage: %q", out)
	}
}

func TestCountDraws(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, true)
	b := r.Count("runs", 2)
	b.Add(1)
	b.Add(1)
	b.Finish()
	r.Printf("done")
	if !strings.Contains(buf.String(), "runs") || !strings.HasSuffix(buf.String(), "done\n") {
		t.Errorf("output %q", buf.String())
	}
}
