package cg

import (
	"slices"
	"time"
)

// tuner picks the kernel of every iteration: the current op runs until a
// queued op is due; a queued op runs 1 + probe iterations; then the op with
// the lowest median of its last probe product times becomes current. An
// op's first product is never scored: it pays one-time costs (the driver
// loads a kernel at its first launch, cuSPARSE sets itself up) that say
// nothing about the iterations to come. Ops come from Options.Ops at the
// start and from the background (offer) later. An op offered later is
// compared with the current op alone, timed again right after it (1 +
// probe products), not with the samples of the start: the machine's state
// drifts over a long run by more than the few percent a schedule may
// gain. Products are
// timed until the op running them has the samples its probe needs (a lone
// op too: the estimate of the untimed products' time needs them), or
// always with timeAll.
type tuner struct {
	probe   int
	timeAll bool
	cur     *candidate   // runs now
	probing bool         // cur is being probed
	queue   []*candidate // ops still to probe
	round   []*candidate // the ops the probe under way compares
	seen    []*candidate // every op that has run at least once
}

type candidate struct {
	op      Op
	samples []time.Duration // product times, most recent last
	due     int             // samples it must have before its probe ends
}

// score is the lower median of the last probe samples after the first
// (lower is better); an op with a single sample has only that one.
func (c *candidate) score(probe int) time.Duration {
	scored := c.samples
	if len(scored) > 1 {
		scored = scored[1:]
	}
	s := slices.Clone(scored[max(0, len(scored)-probe):])
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

func newTuner(ops []Op, probe int, timeAll bool) *tuner {
	t := &tuner{probe: probe, timeAll: timeAll, cur: &candidate{op: ops[0], due: 1 + probe}, probing: len(ops) > 1}
	t.round = []*candidate{t.cur}
	for _, op := range ops[1:] {
		c := &candidate{op: op, due: 1 + probe}
		t.queue = append(t.queue, c)
		t.round = append(t.round, c)
	}
	return t
}

func (t *tuner) op() Op { return t.cur.op }

// timed reports whether the next product must be timed and recorded.
func (t *tuner) timed() bool { return t.timeAll || len(t.cur.samples) < t.cur.due }

// median is the score of the op named name: what its untimed products are
// counted at (0 for an op never timed).
func (t *tuner) median(name string) time.Duration {
	for _, c := range t.seen {
		if c.op.Name() == name {
			return c.score(t.probe)
		}
	}
	return 0
}

// record adds the current op's product time (a timed product) and moves on
// when a probe is complete.
func (t *tuner) record(d time.Duration) {
	t.cur.samples = append(t.cur.samples, d)
	if len(t.cur.samples) == 1 {
		t.seen = append(t.seen, t.cur)
	}
	if !t.probing || len(t.cur.samples) < t.cur.due {
		return
	}
	if len(t.queue) > 0 {
		t.cur, t.queue = t.queue[0], t.queue[1:]
		return
	}
	t.probing = false
	best := t.round[0]
	for _, c := range t.round[1:] {
		// Ties keep the earlier op: no switch without a measured gain.
		if c.score(t.probe) < best.score(t.probe) {
			best = c
		}
	}
	t.cur = best
}

// offer queues op (a new schedule) to run from the next iteration on.
func (t *tuner) offer(op Op) {
	c := &candidate{op: op, due: 1 + t.probe}
	switch {
	case !t.probing:
		// The current op is timed again after the new one's probe, its
		// first product unscored as every op's first is, and the two are
		// compared on those samples alone.
		t.cur.due = len(t.cur.samples) + 1 + t.probe
		t.queue = append(t.queue, t.cur)
		t.round = []*candidate{t.cur, c}
		t.cur, t.probing = c, true
	case len(t.cur.samples) == 0:
		// The op due next has not run yet: the new one goes first.
		t.queue = append([]*candidate{t.cur}, t.queue...)
		t.cur = c
		t.round = append(t.round, c)
	default:
		// Let the op being probed finish; the new one comes next.
		t.queue = append([]*candidate{c}, t.queue...)
		t.round = append(t.round, c)
	}
}
