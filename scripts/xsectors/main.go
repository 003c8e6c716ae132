// Command xsectors estimates what a row order costs a row-wise SpMV kernel
// (cuSPARSE's CSR or sliced ELL, csr-d16) in reads of x: the 32-byte
// sectors of x that each window of consecutive rows touches (what a warp
// or a slice asks of the L2), and the sectors that miss an LRU cache of x
// of a given size (what comes from DRAM when the matrix's own stream leaves
// that much of the L2 to x). It needs no GPU: it compares orders of one
// matrix ('spac reorder --order rcm|nd|spac') before a GPU call, and its
// misses ranked the orders of a random-order circuit as the H200 did
// (docs/gpu-bench-h200/README.md, stop 49).
//
//	go run ./scripts/xsectors [-window 32,256] [-cache-mib 4,16] FILE...
//
// Each FILE is any matrix 'spac partition' reads; symmetric storage is
// expanded. Figures are per row, in fp32 (8 values a sector) and fp64 (4).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/order"
)

func main() {
	windows := flag.String("window", "32,256", "rows per window (comma-separated)")
	caches := flag.String("cache-mib", "4,16", "sizes of the LRU cache of x, MiB (comma-separated)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: xsectors [-window 32,256] [-cache-mib 4,16] FILE...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	w, err := positiveInts(*windows)
	if err != nil {
		fmt.Fprintf(os.Stderr, "xsectors: -window: %v\n", err)
		os.Exit(2)
	}
	c, err := positiveInts(*caches)
	if err != nil {
		fmt.Fprintf(os.Stderr, "xsectors: -cache-mib: %v\n", err)
		os.Exit(2)
	}
	fmt.Println("file\tprecision\tmeasure\tsectors per row")
	for _, path := range flag.Args() {
		if err := report(path, w, c); err != nil {
			fmt.Fprintf(os.Stderr, "xsectors: %v\n", err)
			os.Exit(1)
		}
	}
}

func positiveInts(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func report(path string, windows, cachesMiB []int) error {
	m, err := matrices.Open(path, matrices.ReadOptions{NoValues: true})
	if err != nil {
		return err
	}
	ptr, col := rowsCSR(m.Expanded())
	n := len(ptr) - 1
	for _, p := range []struct {
		name    string
		perSect int32
	}{{"fp32", 8}, {"fp64", 4}} {
		for _, w := range windows {
			fmt.Printf("%s\t%s\twindow of %d rows\t%.3f\n", path, p.name, w, float64(windowSectors(ptr, col, m.NCols, p.perSect, w))/float64(n))
		}
		for _, mib := range cachesMiB {
			misses := lruMisses(col, m.NCols, p.perSect, mib<<20/32)
			fmt.Printf("%s\t%s\tLRU of %d MiB, misses\t%.3f\n", path, p.name, mib, float64(misses)/float64(n))
		}
		fmt.Printf("%s\t%s\tx once\t%.3f\n", path, p.name, float64((int32(m.NCols)+p.perSect-1)/p.perSect)/float64(n))
	}
	return nil
}

// rowsCSR is m's columns in row order: row r's are col[ptr[r]:ptr[r+1]]
// (order.Pattern's graph, with a rectangular matrix's columns numbered
// from 0 again).
func rowsCSR(m *matrices.COO) (ptr []int64, col []int32) {
	_, ptr, col = order.Pattern(m.NRows, m.NCols, m.Row, m.Col)
	if m.NRows != m.NCols {
		for i := range col {
			col[i] -= int32(m.NRows)
		}
	}
	return ptr[:m.NRows+1], col
}

// windowSectors sums, over windows of w consecutive rows, the distinct
// sectors of x the window reads.
func windowSectors(ptr []int64, col []int32, nCols int, perSect int32, w int) int64 {
	stamp := make([]int32, (int32(nCols)+perSect-1)/perSect)
	for i := range stamp {
		stamp[i] = -1
	}
	var total int64
	n := len(ptr) - 1
	for lo := 0; lo < n; lo += w {
		for _, c := range col[ptr[lo]:ptr[min(n, lo+w)]] {
			if s := c / perSect; stamp[s] != int32(lo/w) {
				stamp[s] = int32(lo / w)
				total++
			}
		}
	}
	return total
}

// lruMisses counts the reads of x, in row order, whose sector is not among
// the capacity most recently read: a doubly linked list over the sectors,
// most recent at the head.
func lruMisses(col []int32, nCols int, perSect int32, capacity int) int64 {
	ns := (int32(nCols) + perSect - 1) / perSect
	prev, next := make([]int32, ns), make([]int32, ns)
	in := make([]bool, ns)
	head, tail, size := int32(-1), int32(-1), 0
	unlink := func(s int32) {
		if prev[s] >= 0 {
			next[prev[s]] = next[s]
		} else {
			head = next[s]
		}
		if next[s] >= 0 {
			prev[next[s]] = prev[s]
		} else {
			tail = prev[s]
		}
	}
	pushFront := func(s int32) {
		prev[s], next[s] = -1, head
		if head >= 0 {
			prev[head] = s
		}
		head = s
		if tail < 0 {
			tail = s
		}
	}
	var misses int64
	for _, c := range col {
		s := c / perSect
		if in[s] {
			if head != s {
				unlink(s)
				pushFront(s)
			}
			continue
		}
		misses++
		in[s] = true
		pushFront(s)
		if size++; size > capacity {
			old := tail
			unlink(old)
			in[old] = false
			size--
		}
	}
	return misses
}
