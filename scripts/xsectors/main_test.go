package main

import (
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// TestWindowSectors: distinct sectors per window of rows, counted by hand
// on a 4 x 16 matrix with 8 values a sector (columns 0-7 are sector 0,
// 8-15 sector 1).
func TestWindowSectors(t *testing.T) {
	m := &matrices.COO{NRows: 4, NCols: 16,
		Row: []int32{0, 0, 1, 2, 2, 3},
		Col: []int32{0, 9, 1, 8, 15, 2},
	}
	ptr, col := rowsCSR(m)
	for _, tc := range []struct {
		window int
		want   int64
	}{
		{1, 5}, // row 0: {0, 1}; row 1: {0}; row 2: {1}; row 3: {0}
		{2, 4}, // rows 0-1: {0, 1}; rows 2-3: {1, 0}
		{4, 2}, // all: {0, 1}
	} {
		if got := windowSectors(ptr, col, m.NCols, 8, tc.window); got != tc.want {
			t.Errorf("window %d: %d sectors, want %d", tc.window, got, tc.want)
		}
	}
}

// TestLRUMisses: the misses of an LRU cache of sectors on a known read
// sequence (one value a sector), for capacities around its reuse distances.
func TestLRUMisses(t *testing.T) {
	// Reads 0 1 2 0 3 1: with 3 sectors, 0 is still held when read again
	// (distance 2) and 1 is not (evicted by 3 after 0's refresh);
	// with 2 sectors, neither; with 4, both.
	col := []int32{0, 1, 2, 0, 3, 1}
	for _, tc := range []struct {
		capacity int
		want     int64
	}{
		{1, 6}, {2, 6}, {3, 5}, {4, 4}, {10, 4},
	} {
		if got := lruMisses(col, 4, 1, tc.capacity); got != tc.want {
			t.Errorf("capacity %d: %d misses, want %d", tc.capacity, got, tc.want)
		}
	}
}

func TestPositiveInts(t *testing.T) {
	if got, err := positiveInts("32, 256"); err != nil || len(got) != 2 || got[0] != 32 || got[1] != 256 {
		t.Errorf("positiveInts(\"32, 256\") = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "-4", "x", "8,"} {
		if _, err := positiveInts(bad); err == nil {
			t.Errorf("positiveInts(%q): no error", bad)
		}
	}
}
