package matrices

import (
	"slices"
	"testing"
)

func TestRowMajor(t *testing.T) {
	row := []int32{2, 0, 2, 1, 0, 2}
	col := []int32{1, 3, 0, 2, 3, 1}
	// (0,3)#1 (0,3)#4 (1,2)#3 (2,0)#2 (2,1)#0 (2,1)#5: ties keep index order.
	if got, want := RowMajor(row, col, 3, 4), []int32{1, 4, 3, 2, 0, 5}; !slices.Equal(got, want) {
		t.Fatalf("RowMajor = %v, want %v", got, want)
	}
	// Ties follow the given order: entries 5, 2, 0 of row 2 in reverse.
	if got, want := CountingSort(row, 3, []int32{5, 4, 3, 2, 1, 0}), []int32{4, 1, 3, 5, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("CountingSort in reverse order = %v, want %v", got, want)
	}
}
