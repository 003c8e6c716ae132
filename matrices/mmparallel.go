package matrices

import (
	"bytes"
	"sync"
)

// A large coordinate section is parsed on several cores: one parser keeps
// a multi-gigabyte file to one core (circuit5M's 2.1 GB took 5.8-7.0 s,
// nearly all of it in fastEntry and parseFloat). The lines come off the
// input in chunks of whole lines, in order; workers parse chunks side by
// side with fastEntry, each into entries of its own; the chunks' entries
// are appended in input order. A chunk holding a line that fastEntry does
// not take (a mistake, or something unusual that entry accepts) is read
// again, in its turn, one line at a time by entries, so the entries, the
// error and its line number are those of reading the whole input that
// way.

var (
	// parallelMinEntries is the size line's count of entries from which
	// the section is read in parallel: below it the goroutines cost more
	// than they save. A variable for the tests.
	parallelMinEntries = int64(1 << 20)
	// mmChunkBytes is the size of a chunk of lines (a variable for the
	// tests, which make it tiny).
	mmChunkBytes = 4 << 20
)

// parallelMaxWorkers bounds the parsing goroutines (GOMAXPROCS may be
// lower): beyond a few the single reader of the input is the limit.
const parallelMaxWorkers = 8

// mmChunk is one chunk of entry lines and, once done is closed, its
// entries; fast is false where fastEntry gave up on one of its lines.
type mmChunk struct {
	data     []byte
	line     int // the lines of the input before the chunk
	done     chan struct{}
	row, col []int32
	val      []float64
	fast     bool
}

// readCoordinateParallel reads the entry lines of p.lr with workers
// parsing goroutines. It is entries' equal: the same entries in the same
// order, or the same error.
func (p *mmParser) readCoordinateParallel(workers int) error {
	lr, m := p.lr, p.m
	nrows, ncols := m.NRows, m.NCols
	pending := make(chan *mmChunk, 2*workers) // in input order, for appending
	work := make(chan *mmChunk, 2*workers)
	stop := make(chan struct{})
	// Appended chunks come back for their buffers: fresh ones would cost
	// the allocation and its page faults again, chunk after chunk.
	free := make(chan *mmChunk, 4*workers)
	var wg sync.WaitGroup
	wg.Add(workers + 1)
	for range workers {
		go func() {
			defer wg.Done()
			for c := range work {
				p.parseChunk(c, nrows, ncols)
				close(c.done)
			}
		}()
	}
	go func() { // the reader: lr is its own until wg.Wait
		defer wg.Done()
		defer close(work)
		defer close(pending)
		for {
			var c *mmChunk
			select {
			case c = <-free:
			default:
				c = &mmChunk{}
			}
			c.line, c.done, c.fast = lr.line, make(chan struct{}), false
			if c.data = lr.chunk(c.data[:0], mmChunkBytes); len(c.data) == 0 {
				return
			}
			select {
			case pending <- c:
			case <-stop:
				return
			}
			work <- c
		}
	}()
	var err error
	for c := range pending {
		if err != nil {
			continue // draining, so that the reader sees stop
		}
		<-c.done
		if c.fast && int64(len(m.Row)+len(c.row)) <= p.nnz {
			m.Row = append(m.Row, c.row...)
			m.Col = append(m.Col, c.col...)
			if p.keep {
				m.Val = append(m.Val, c.val...)
			}
		} else if err = p.chunkEntries(c); err != nil {
			close(stop)
			continue
		}
		select {
		case free <- c:
		default:
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return lr.failure()
}

// parseChunk parses c's lines with fastEntry into c's own entries, for a
// matrix of nrows x ncols; c.fast says whether every line was taken.
func (p *mmParser) parseChunk(c *mmChunk, nrows, ncols int) {
	n := bytes.Count(c.data, []byte{'\n'}) + 1 // at most this many entries: no append grows
	w := mmParser{f: p.f, keep: p.keep, m: &COO{NRows: nrows, NCols: ncols, Row: c.row[:0], Col: c.col[:0]}}
	if cap(w.m.Row) < n {
		w.m.Row, w.m.Col = make([]int32, 0, n), make([]int32, 0, n)
	}
	if p.keep {
		if w.m.Val = c.val[:0]; cap(w.m.Val) < n {
			w.m.Val = make([]float64, 0, n)
		}
	}
	for data := c.data; len(data) > 0; {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		i := skipSpace(line, 0)
		if i == len(line) || line[i] == '%' {
			continue
		}
		if !w.fastEntry(line, i) {
			c.row, c.col, c.val = w.m.Row, w.m.Col, w.m.Val // kept for their buffers
			return
		}
	}
	c.row, c.col, c.val, c.fast = w.m.Row, w.m.Col, w.m.Val, true
}

// chunkEntries reads c's lines one at a time with entries, as the lines
// c.line+1 and on of the input.
func (p *mmParser) chunkEntries(c *mmChunk) error {
	sub := newLineReader(bytes.NewReader(c.data), p.lr.name, int64(len(c.data)))
	sub.line = c.line
	whole := p.lr
	p.lr = sub
	defer func() { p.lr = whole }()
	return p.entries()
}
