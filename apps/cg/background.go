package cg

import (
	"context"
	"errors"
	"sync"
	"time"
)

// background computes the SPAC schedule while the solver iterates.
type background struct {
	cancel  context.CancelFunc
	results chan bgResult // buffered: the goroutine never blocks on it
	start   time.Time
	elapsed time.Duration // partitioner time, set when its result is taken or at stop

	mu       sync.Mutex
	stopped  bool
	onDevice sync.WaitGroup // an upload under way, which stop must wait for
	taken    bool
	adopted  Pending // the schedule whose op the solver took; stop releases it
}

type bgResult struct {
	pending Pending
	err     error
	elapsed time.Duration
}

// testHookBackground, when set (by tests), sees every background started,
// so that a test can wait until its result is there.
var testHookBackground func(*background)

func startBackground(ctx context.Context, eng Engine, src ScheduleSource) *background {
	ctx, cancel := context.WithCancel(ctx)
	b := &background{cancel: cancel, results: make(chan bgResult, 1), start: time.Now()}
	if testHookBackground != nil {
		testHookBackground(b)
	}
	go func() {
		s, err := src(ctx)
		if err != nil {
			b.results <- bgResult{err: err, elapsed: time.Since(b.start)}
			return
		}
		// Past this point the goroutine touches the device: the solver's
		// stop must not free the device under it, so it waits; before it,
		// stop is free to leave.
		b.mu.Lock()
		if b.stopped {
			b.mu.Unlock()
			return
		}
		b.onDevice.Add(1)
		b.mu.Unlock()
		p, err := eng.Prepare(s)
		b.results <- bgResult{pending: p, err: err, elapsed: time.Since(b.start)}
		b.onDevice.Done()
	}()
	return b
}

// poll returns the schedule's op once the schedule is on the device, or
// the background's error; done is false while neither is there yet. It
// never blocks, and it reports one outcome once.
func (b *background) poll() (op Op, err error, done bool) {
	if b.taken {
		return nil, nil, false
	}
	select {
	case r := <-b.results:
		b.elapsed = r.elapsed
		if r.err != nil {
			b.taken = true
			return nil, r.err, true
		}
		// Put it back until its upload is done: the next poll looks again.
		ready, err := r.pending.Ready()
		if err != nil {
			r.pending.Discard()
			b.taken = true
			return nil, err, true
		}
		if !ready {
			b.results <- r
			return nil, nil, false
		}
		b.taken = true
		op, err := r.pending.Op()
		if err != nil {
			r.pending.Discard()
			return nil, err, true
		}
		b.adopted = r.pending
		return op, nil, true
	default:
		return nil, nil, false
	}
}

// stop cancels the partitioner if it is still running, waits for an upload
// under way, frees what nobody took and releases what the solver took (its
// solve is over). It returns the background's state
// when the solver did not take its outcome: cancelled (still partitioning),
// late (the schedule was not on the device yet) or error; "" when it did.
func (b *background) stop() (state string, err error) {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.cancel()
	b.onDevice.Wait()
	if b.adopted != nil {
		b.adopted.Release()
		b.adopted = nil
	}
	if b.taken {
		return "", nil
	}
	b.elapsed = time.Since(b.start)
	select {
	case r := <-b.results:
		b.elapsed = r.elapsed
		if errors.Is(r.err, context.Canceled) {
			return "cancelled", nil
		}
		if r.err != nil {
			return "error", r.err
		}
		r.pending.Discard()
		return "late", nil
	default:
		return "cancelled", nil
	}
}
