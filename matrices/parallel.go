package matrices

import (
	"bytes"
	"sync"
)

// The entry lines of a large input are parsed on several cores: one parser
// keeps a multi-gigabyte file to one core (circuit5M's 2.1 GB took 5.8-7.0
// s, nearly all of it in fastEntry and parseFloat). The lines come off the
// input in chunks of whole lines, in order; workers parse chunks side by
// side with a fast parser, each into entries of its own; the chunks'
// entries are appended in input order. A chunk holding a line the fast
// parser does not take (a mistake, or something unusual that the full
// parser accepts) is read again, in its turn, one line at a time by the
// full parser, so the entries, the error and its line number are those of
// reading the whole input that way.

var (
	// parallelMinEntries is the size line's count of entries from which a
	// Matrix Market coordinate section is read in parallel, and
	// parallelMinBytes the size of an edge list (one of unknown size goes
	// in parallel too): below them the goroutines cost more than they
	// save. Variables for the tests.
	parallelMinEntries = int64(1 << 20)
	parallelMinBytes   = int64(16 << 20)
	// mmChunkBytes is the size of a chunk of lines (a variable for the
	// tests, which make it tiny).
	mmChunkBytes = 4 << 20
)

// parallelMaxWorkers bounds the parsing goroutines (GOMAXPROCS may be
// lower): beyond a few the single reader of the input is the limit.
const parallelMaxWorkers = 8

// lineChunk is a chunk of whole lines, the lines of the input before it,
// and, once done is closed, what a worker parsed from it into res; fast is
// false where the fast parser gave up on one of its lines.
type lineChunk[R any] struct {
	data []byte
	line int
	done chan struct{}
	res  R
	fast bool
}

// parallelLines reads the rest of lr in chunks of whole lines with workers
// goroutines: parse(data, line, res) parses a chunk's lines (the input's
// lines line+1 and on) into res, reusing res's buffers, and reports
// whether it took every line; use(data, line, res, fast) is called for
// every chunk in input order, on the calling goroutine, and stops the
// reading with its error. res values are recycled from chunk to chunk:
// fresh buffers would cost the allocation and its page faults again, chunk
// after chunk. At the end it returns lr's read error, if any.
func parallelLines[R any](lr *lineReader, workers int, parse func(data []byte, line int, res *R) bool, use func(data []byte, line int, res *R, fast bool) error) error {
	pending := make(chan *lineChunk[R], 2*workers) // in input order
	work := make(chan *lineChunk[R], 2*workers)
	free := make(chan *lineChunk[R], 4*workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(workers + 1)
	for range workers {
		go func() {
			defer wg.Done()
			for c := range work {
				c.fast = parse(c.data, c.line, &c.res)
				close(c.done)
			}
		}()
	}
	go func() { // the reader: lr is its own until wg.Wait
		defer wg.Done()
		defer close(work)
		defer close(pending)
		for {
			var c *lineChunk[R]
			select {
			case c = <-free:
			default:
				c = new(lineChunk[R])
			}
			c.line, c.done = lr.line, make(chan struct{})
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
		if err = use(c.data, c.line, &c.res, c.fast); err != nil {
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

// eachLine calls f with each line of data (line ends stripped as next
// strips them) and its 1-based number in data; it stops where f returns
// false, and reports whether it got to the end.
func eachLine(data []byte, f func(line []byte, k int) bool) bool {
	for k := 1; len(data) > 0; k++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if !f(line, k) {
			return false
		}
	}
	return true
}

// subReader reads the chunk data as the input's lines line+1 and on, for
// a parser to read again one line at a time.
func (lr *lineReader) subReader(data []byte, line int) *lineReader {
	sub := newLineReader(bytes.NewReader(data), lr.name, int64(len(data)))
	sub.line = line
	return sub
}

// mmEntries are a chunk's entries.
type mmEntries struct {
	row, col []int32
	val      []float64
}

// readCoordinateParallel reads the entry lines of p.lr with workers
// parsing goroutines. It is entries' equal: the same entries in the same
// order, or the same error.
func (p *mmParser) readCoordinateParallel(workers int) error {
	m := p.m
	nrows, ncols := m.NRows, m.NCols
	return parallelLines(p.lr, workers, func(data []byte, _ int, res *mmEntries) bool {
		return p.parseChunk(data, res, nrows, ncols)
	}, func(data []byte, line int, res *mmEntries, fast bool) error {
		if fast && int64(len(m.Row)+len(res.row)) <= p.nnz {
			m.Row = append(m.Row, res.row...)
			m.Col = append(m.Col, res.col...)
			if p.keep {
				m.Val = append(m.Val, res.val...)
			}
			return nil
		}
		whole := p.lr
		p.lr = whole.subReader(data, line)
		defer func() { p.lr = whole }()
		return p.entries()
	})
}

// parseChunk parses the lines of data with fastEntry into res, for a
// matrix of nrows x ncols, and reports whether it took every line.
func (p *mmParser) parseChunk(data []byte, res *mmEntries, nrows, ncols int) bool {
	n := bytes.Count(data, []byte{'\n'}) + 1 // at most this many entries: no append grows
	w := mmParser{f: p.f, keep: p.keep, m: &COO{NRows: nrows, NCols: ncols, Row: res.row[:0], Col: res.col[:0]}}
	if cap(w.m.Row) < n {
		w.m.Row, w.m.Col = make([]int32, 0, n), make([]int32, 0, n)
	}
	if p.keep {
		if w.m.Val = res.val[:0]; cap(w.m.Val) < n {
			w.m.Val = make([]float64, 0, n)
		}
	}
	fast := eachLine(data, func(line []byte, _ int) bool {
		i := skipSpace(line, 0)
		return i == len(line) || line[i] == '%' || w.fastEntry(line, i)
	})
	res.row, res.col, res.val = w.m.Row, w.m.Col, w.m.Val // kept for their buffers, whatever fast is
	return fast
}
