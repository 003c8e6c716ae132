package btree

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// Rodinia's inputs are text: the key file (mil.txt) holds the number of
// keys, then the keys, whitespace-separated (Rodinia reads them with
// fscanf("%d")); the command file (command.txt) holds one command a line.

// scanner reads whitespace-separated fields and remembers the line of the
// last one, for errors that say where the input is wrong.
type scanner struct {
	sc     *bufio.Scanner
	name   string
	line   int
	fields []string
}

func newScanner(r io.Reader, name string) *scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &scanner{sc: sc, name: name}
}

// next returns the next field, or "" with ok false at the end of the input.
func (s *scanner) next() (string, bool, error) {
	for len(s.fields) == 0 {
		if !s.sc.Scan() {
			if err := s.sc.Err(); err != nil {
				return "", false, fmt.Errorf("%s: line %d: %w", s.name, s.line+1, err)
			}
			return "", false, nil
		}
		s.line++
		s.fields = strings.Fields(s.sc.Text())
	}
	f := s.fields[0]
	s.fields = s.fields[1:]
	return f, true, nil
}

// int reads the next field as an integer in [lo, hi].
func (s *scanner) int(what string, lo, hi int64) (int64, error) {
	f, ok, err := s.next()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("%s: line %d: unexpected end of input, expected %s", s.name, max(s.line, 1), what)
	}
	v, err := strconv.ParseInt(f, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s: line %d: %s: %q is not an integer in [%d, %d]", s.name, s.line, what, f, lo, hi)
	}
	return v, nil
}

// maxKeys bounds the key count a file may declare, so that a damaged
// header cannot make the reader allocate without limit: 2^28 keys (1 GiB
// of int32), beyond any tree an H100 holds at useful orders.
const maxKeys = 1 << 28

// ReadKeys reads Rodinia's key file: the number of keys N, then N keys in
// [MinKey, MaxKey]. The count must match: a file cut short or with extra
// numbers is refused with the line where it goes wrong. Errors begin with
// name.
func ReadKeys(r io.Reader, name string) ([]int32, error) {
	s := newScanner(r, name)
	n, err := s.int("the number of keys", 1, maxKeys)
	if err != nil {
		return nil, err
	}
	keys := make([]int32, 0, min(n, 1<<20))
	for i := int64(0); i < n; i++ {
		k, err := s.int(fmt.Sprintf("key %d of %d", i+1, n), MinKey, MaxKey)
		if err != nil {
			return nil, err
		}
		keys = append(keys, int32(k))
	}
	if f, ok, err := s.next(); err != nil {
		return nil, err
	} else if ok {
		return nil, fmt.Errorf("%s: line %d: %q after the %d keys the first line announces", name, s.line, f, n)
	}
	return keys, nil
}

// WriteKeys writes keys in Rodinia's key-file format, one a line.
func WriteKeys(w io.Writer, keys []int32) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, len(keys))
	buf := make([]byte, 0, 16)
	for _, k := range keys {
		buf = strconv.AppendInt(buf[:0], int64(k), 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// openFile opens path for reading ("-": standard input), through gzip when
// the name ends in .gz.
func openFile(path string) (io.Reader, func(), error) {
	if path == "-" {
		return os.Stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, func() { f.Close() }, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return zr, func() { zr.Close(); f.Close() }, nil
}

// OpenKeys reads a key file (gzip-compressed when it ends in .gz; "-" is
// standard input).
func OpenKeys(path string) ([]int32, error) {
	r, done, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return ReadKeys(r, path)
}

// Command is one line of Rodinia's command file that runs queries on the
// GPU: 'k' (findK: Count random keys) or 'j' (findRangeK: Count random
// ranges of Range keys each).
type Command struct {
	Op    byte
	Count int
	Range int // 'j' only
}

func (c Command) String() string {
	if c.Op == 'j' {
		return fmt.Sprintf("j %d %d", c.Count, c.Range)
	}
	return fmt.Sprintf("k %d", c.Count)
}

// maxQueries bounds a command's query count (Rodinia's grid of one block
// per query allows 65,535 on the GPUs it was written for; the driver now
// takes up to 2^31-1 blocks).
const maxQueries = 1 << 28

// ReadCommands reads Rodinia's command file: one command a line, "k COUNT"
// or "j COUNT RANGE"; blank lines are skipped. Rodinia's interactive
// commands (insert, print, ...) do not run on the GPU and are refused.
func ReadCommands(r io.Reader, name string) ([]Command, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var cmds []Command
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		c, err := parseCommand(f)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, line, err)
		}
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%s: no commands (want lines such as \"k 10000\" and \"j 6000 3000\")", name)
	}
	return cmds, nil
}

// ParseCommands reads commands separated by ';' or line breaks, as
// "k 10000; j 6000 3000".
func ParseCommands(s string) ([]Command, error) {
	return ReadCommands(strings.NewReader(strings.ReplaceAll(s, ";", "\n")), "commands")
}

func parseCommand(f []string) (Command, error) {
	want := map[string]int{"k": 2, "j": 3}[f[0]]
	if want == 0 {
		return Command{}, fmt.Errorf("command %q: want k COUNT (findK) or j COUNT RANGE (findRangeK)", f[0])
	}
	if len(f) != want {
		return Command{}, fmt.Errorf("%q: command %s takes %d numbers", strings.Join(f, " "), f[0], want-1)
	}
	c := Command{Op: f[0][0]}
	var err error
	if c.Count, err = strconv.Atoi(f[1]); err != nil || c.Count < 1 || c.Count > maxQueries {
		return Command{}, fmt.Errorf("%q: the count must be an integer from 1 to %d", strings.Join(f, " "), maxQueries)
	}
	if want == 3 {
		if c.Range, err = strconv.Atoi(f[2]); err != nil || c.Range < 0 || c.Range > maxKeys {
			return Command{}, fmt.Errorf("%q: the range must be an integer from 0 to %d", strings.Join(f, " "), maxKeys)
		}
	}
	return c, nil
}

// WriteCommands writes commands in Rodinia's command-file format.
func WriteCommands(w io.Writer, cmds []Command) error {
	bw := bufio.NewWriter(w)
	for _, c := range cmds {
		fmt.Fprintln(bw, c)
	}
	return bw.Flush()
}

// OpenCommands reads a command file.
func OpenCommands(path string) ([]Command, error) {
	r, done, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer done()
	return ReadCommands(r, path)
}

// Kind is one of Rodinia's two query kernels.
type Kind uint8

const (
	FindK     Kind = iota // a key per query: its record
	FindRange             // a range per query: where its records start, how many
)

func (k Kind) String() string {
	if k == FindRange {
		return "findrange"
	}
	return "findk"
}

// Batch is the queries of one kernel launch: for FindK the keys (Start),
// for FindRange the ranges [Start[q], End[q]].
type Batch struct {
	Kind       Kind
	Start, End []int32
}

// Len is the number of queries.
func (b *Batch) Len() int { return len(b.Start) }

// Permute returns the batch with query i being query order[i] of b.
func (b *Batch) Permute(order []int32) *Batch {
	out := &Batch{Kind: b.Kind, Start: make([]int32, len(order))}
	if b.End != nil {
		out.End = make([]int32, len(order))
	}
	for i, q := range order {
		out.Start[i] = b.Start[q]
		if b.End != nil {
			out.End[i] = b.End[q]
		}
	}
	return out
}

// MakeQueries draws the queries of the commands as Rodinia does, from a
// seeded generator instead of rand(): a findK key is uniform in
// [0, size), where size is the key count the key file announces; a
// findRangeK range starts uniformly in [0, size-Range) and ends Range keys
// later, so that it stays below size. Every 'k' command's queries go into
// one FindK batch, every 'j' command's into one FindRange batch (Rodinia
// launches a kernel per command; the commands it ships have one of each).
// A kind without commands gives no batch.
func MakeQueries(cmds []Command, size int, seed uint64) ([]*Batch, error) {
	if size < 1 {
		return nil, fmt.Errorf("queries over %d keys", size)
	}
	rng := rand.New(rand.NewPCG(seed, 0x62747265652b))
	find := &Batch{Kind: FindK}
	rng2 := &Batch{Kind: FindRange}
	for _, c := range cmds {
		switch c.Op {
		case 'k':
			for range c.Count {
				find.Start = append(find.Start, int32(rng.IntN(size)))
			}
		case 'j':
			if c.Range >= size {
				return nil, fmt.Errorf("command %q: the range is not smaller than the %d keys", c, size)
			}
			for range c.Count {
				s := int32(rng.IntN(size - c.Range))
				rng2.Start = append(rng2.Start, s)
				rng2.End = append(rng2.End, s+int32(c.Range))
			}
		default:
			return nil, fmt.Errorf("command %q: unknown", c)
		}
	}
	var out []*Batch
	for _, b := range []*Batch{find, rng2} {
		if b.Len() > 0 {
			out = append(out, b)
		}
	}
	return out, nil
}
