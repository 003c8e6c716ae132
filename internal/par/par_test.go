package par

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestDoRanges: every index of [0, n) falls in exactly one range, each
// range starts at a multiple of size and is size long but the last.
func TestDoRanges(t *testing.T) {
	for _, tc := range []struct{ n, size int }{{0, 4}, {1, 4}, {4, 4}, {10, 4}, {1000, 7}, {5, 100}} {
		seen := make([]atomic.Int32, tc.n)
		DoRanges(tc.n, tc.size, func(lo, hi int) {
			if lo%tc.size != 0 || hi > tc.n || (hi-lo != tc.size && hi != tc.n) || hi <= lo {
				t.Errorf("n=%d size=%d: range [%d, %d)", tc.n, tc.size, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Errorf("n=%d size=%d: index %d in %d ranges", tc.n, tc.size, i, c)
			}
		}
	}
}

// TestAwait: f's result when it ends; ctx's error at once when ctx is done
// while f still runs.
func TestAwait(t *testing.T) {
	if v, err := Await(context.Background(), func() (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Errorf("ended: %d, %v; want 7, nil", v, err)
	}
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v, err := Await(ctx, func() (int, error) { <-release; return 7, nil }); v != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %d, %v; want 0, %v", v, err, context.Canceled)
	}
}
