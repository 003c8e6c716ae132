package mpi

import (
	"fmt"
	"os"
	"sync"
)

// Local returns n communicators of one group whose ranks are goroutines of
// this process: rank r is comms[r], to be used by one goroutine. It needs no
// MPI and serves the tests of distributed code in every build; the data of
// a collective is copied between the ranks as MPI would send it.
func Local(n int) []Comm {
	if n < 1 {
		n = 1
	}
	g := &localGroup{n: n, slots: make([][]byte, n), counts: make([][]int64, n), ints: make([][]int64, n)}
	g.cond = sync.NewCond(&g.mu)
	out := make([]Comm, n)
	for r := range out {
		out[r] = &localComm{g: g, rank: r}
	}
	return out
}

// RunLocal runs f on n ranks of a Local group, each in its own goroutine,
// and returns their errors by rank.
func RunLocal(n int, f func(c Comm) error) []error {
	comms := Local(n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Go(func() { errs[r] = f(c) })
	}
	wg.Wait()
	return errs
}

type localGroup struct {
	n       int
	mu      sync.Mutex
	cond    *sync.Cond
	arrived int
	gen     int
	// What each rank put up for the collective in progress.
	slots  [][]byte
	counts [][]int64
	ints   [][]int64
	file   *os.File
}

type localComm struct {
	g    *localGroup
	rank int
}

func (c *localComm) Rank() int                 { return c.rank }
func (c *localComm) Size() int                 { return c.g.n }
func (c *localComm) Handle() (int64, bool)     { return 0, false }
func (c *localComm) String() string            { return fmt.Sprintf("local rank %d of %d", c.rank, c.g.n) }
func (g *localGroup) barrier()                 { g.mu.Lock(); g.wait(); g.mu.Unlock() }
func (c *localComm) put(f func(g *localGroup)) { c.g.mu.Lock(); f(c.g); c.g.wait(); c.g.mu.Unlock() }

// wait blocks, with g.mu held, until every rank has arrived.
func (g *localGroup) wait() {
	gen := g.gen
	g.arrived++
	if g.arrived == g.n {
		g.arrived = 0
		g.gen++
		g.cond.Broadcast()
		return
	}
	for gen == g.gen {
		g.cond.Wait()
	}
}

func (c *localComm) Exchange(send []byte, sendCounts []int64) ([]byte, []int64, error) {
	g := c.g
	if len(sendCounts) != g.n {
		return nil, nil, fmt.Errorf("mpi: exchange with %d counts for %d ranks", len(sendCounts), g.n)
	}
	c.put(func(g *localGroup) { g.slots[c.rank], g.counts[c.rank] = send, sendCounts })
	// Every rank's buffer is up: read this rank's column.
	rc := make([]int64, g.n)
	total := int64(0)
	for q := range g.n {
		rc[q] = g.counts[q][c.rank]
		total += rc[q]
	}
	recv := make([]byte, total)
	at := int64(0)
	for q := range g.n {
		off := int64(0)
		for r := 0; r < c.rank; r++ {
			off += g.counts[q][r]
		}
		at += int64(copy(recv[at:], g.slots[q][off:off+rc[q]]))
	}
	g.barrier() // nobody reuses a slot before every rank has read it
	return recv, rc, nil
}

func (c *localComm) Allreduce(x []int64, op Op) error {
	g := c.g
	c.put(func(g *localGroup) { g.ints[c.rank] = x })
	out := make([]int64, len(x))
	copy(out, g.ints[0])
	for q := 1; q < g.n; q++ {
		if len(g.ints[q]) != len(x) {
			g.barrier()
			return fmt.Errorf("mpi: allreduce of %d values on rank %d, %d on rank %d", len(x), c.rank, len(g.ints[q]), q)
		}
		op.reduce(out, g.ints[q])
	}
	g.barrier()
	copy(x, out)
	return nil
}

func (c *localComm) Create(path string) (SharedFile, error) {
	g := c.g
	var err error
	if c.rank == 0 {
		g.file, err = os.Create(path)
	}
	if err = Agree(c, err); err != nil {
		return nil, err
	}
	return &localFile{c: c, f: g.file}, nil
}

type localFile struct {
	c *localComm
	f *os.File
}

func (f *localFile) WriteAt(b []byte, off int64) error {
	_, err := f.f.WriteAt(b, off)
	return Agree(f.c, err)
}

func (f *localFile) Close() error {
	if err := Barrier(f.c); err != nil {
		return err
	}
	var err error
	if f.c.rank == 0 {
		if err = f.f.Sync(); err == nil {
			err = f.f.Close()
		}
	}
	return Agree(f.c, err)
}
