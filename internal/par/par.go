// Package par runs independent tasks on up to GOMAXPROCS goroutines: the
// worker pool that the partitioner's phases (package transform's
// coarsening and refinement, package spac's METIS calls and pair lists)
// share. Workers take tasks in increasing order from a shared counter, so
// uneven tasks balance themselves.
package par

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines that run tasks tasks.
func Workers(tasks int) int { return min(tasks, runtime.GOMAXPROCS(0)) }

// Do runs f(0), ..., f(tasks-1) and waits for them. The tasks must write
// disjoint memory.
func Do(tasks int, f func(task int)) {
	DoWith(tasks, func() struct{} { return struct{}{} }, func(_ struct{}, t int) { f(t) })
}

// DoRanges runs f(lo, hi) over [0, n) cut into ranges of size indices (the
// last one shorter), each range a task of Do: for loops whose iterations
// are too small to be tasks one by one.
func DoRanges(n, size int, f func(lo, hi int)) {
	Do((n+size-1)/size, func(t int) { f(t*size, min(n, (t+1)*size)) })
}

// DoWith is Do with scratch: every worker gets scratch() once and passes it
// to each of its tasks, which it takes in increasing order.
func DoWith[S any](tasks int, scratch func() S, f func(s S, task int)) {
	n := Workers(tasks)
	if n <= 1 {
		if tasks > 0 {
			s := scratch()
			for t := 0; t < tasks; t++ {
				f(s, t)
			}
		}
		return
	}
	var next atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			s := scratch()
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks {
					return
				}
				f(s, t)
			}
		})
	}
	wg.Wait()
}

// DoCtx runs f(0), ..., f(tasks-1) and returns the first error. It returns
// ctx.Err() as soon as ctx is done; tasks already running (a METIS call
// cannot be interrupted) finish in the background and no new ones start.
func DoCtx(ctx context.Context, tasks int, f func(task int) error) error {
	var next atomic.Int32
	var failed atomic.Bool
	errs := make([]error, tasks)
	var wg sync.WaitGroup
	for range Workers(tasks) {
		wg.Go(func() {
			for {
				t := int(next.Add(1) - 1)
				if t >= tasks || failed.Load() || ctx.Err() != nil {
					return
				}
				if errs[t] = f(t); errs[t] != nil {
					failed.Store(true)
				}
			}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Await runs f in a goroutine of its own and returns its result, or
// ctx.Err() as soon as ctx is done: for calls that cannot be interrupted
// (METIS's), which then finish unseen and their result is dropped.
func Await[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned call still ends
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
