package schedule

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

const textMagic = "spac-schedule-text"

// MaxTextSlots bounds the thread slots (blocks x block size) of the text
// form, which is for small cases: it keeps a short text from asking for
// gigabytes. Larger schedules go to the binary file or .npy arrays.
const MaxTextSlots = 1 << 22

// WriteText writes the schedule as plain text, for reading small cases by
// eye and for tools without a binary reader. Indices are 0-based. Layout:
//
//	spac-schedule-text 1
//	rows R / cols C / nnz M / block-size B / blocks NB / parts K /
//	split-blocks S / policy P / applied A / budget BYTES / value-bytes W /
//	fingerprint HEX / values yes|no     (one "key value" per line)
//	param KEY=VALUE                      (zero or more)
//	block b part p tasks n               (per block, in order)
//	x c0 c1 ...                          (its unique columns, ascending)
//	y r0 r1* ...                         (its unique rows; * = shared, atomic flush)
//	task t slot tid entry e row r col c val v xl i yl j   (its tasks, t = 0..n-1)
//	end
//
// Values print in the shortest form that reads back exactly; "-" when the
// schedule has none. ReadText reads it back.
func WriteText(w io.Writer, s *Schedule) error {
	if n := s.NumBlocks() * s.BlockSize; n > MaxTextSlots {
		return fmt.Errorf("%d thread slots are too many for the text form (at most %d): use the binary schedule file or the .npy export", n, MaxTextSlots)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", textMagic, Version)
	hasVals := "no"
	if s.Vals != nil {
		hasVals = "yes"
	}
	fmt.Fprintf(bw, "rows %d\ncols %d\nnnz %d\nblock-size %d\nblocks %d\nparts %d\nsplit-blocks %d\n",
		s.NRows, s.NCols, s.NNZ, s.BlockSize, s.NumBlocks(), s.Parts, s.SplitBlocks)
	fmt.Fprintf(bw, "policy %s\napplied %s\nbudget %d\nvalue-bytes %d\nfingerprint %016x\nvalues %s\n",
		s.Policy, s.Applied, s.Budget, s.ValueBytes, s.Fingerprint, hasVals)
	for _, p := range s.Params {
		fmt.Fprintf(bw, "param %s=%s\n", p.Key, p.Value)
	}
	buf := make([]byte, 0, 256)
	for b := range s.NumBlocks() {
		fmt.Fprintf(bw, "block %d part %d tasks %d\n", b, s.BlockPart[b], s.Tasks(b))
		buf = append(buf[:0], 'x')
		for _, c := range s.XUnique[s.XOffsets[b]:s.XOffsets[b+1]] {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
		buf = append(buf, "\ny"...)
		for i := s.YOffsets[b]; i < s.YOffsets[b+1]; i++ {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(s.YUnique[i]), 10)
			if s.YShared[i] != 0 {
				buf = append(buf, '*')
			}
		}
		buf = append(buf, '\n')
		bw.Write(buf)
		for t := range s.Tasks(b) {
			tid := b*s.BlockSize + t
			buf = fmt.Appendf(buf[:0], "task %d slot %d entry %d row %d col %d val ", t, tid, s.NewSchedule[tid], s.Rows[tid], s.Cols[tid])
			if s.Vals != nil {
				buf = strconv.AppendFloat(buf, s.Vals[tid], 'g', -1, 64)
			} else {
				buf = append(buf, '-')
			}
			buf = fmt.Appendf(buf, " xl %d yl %d\n", s.XLocal[tid], s.YLocal[tid])
			bw.Write(buf)
		}
	}
	bw.WriteString("end\n")
	return bw.Flush()
}

// ReadText reads what WriteText wrote and checks it like ReadFile does
// (every invariant, the fingerprint against the entries). name labels
// errors.
func ReadText(r io.Reader, name string) (*Schedule, error) {
	tr := &textReader{sc: bufio.NewScanner(r), name: name}
	tr.sc.Buffer(make([]byte, 64<<10), 1<<30)
	s, err := tr.read()
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("reading schedule text %s: %w: inconsistent content: %v", name, ErrDamaged, err)
	}
	return s, nil
}

type textReader struct {
	sc     *bufio.Scanner
	name   string
	line   int
	fields []string
}

func (tr *textReader) next() bool {
	for tr.sc.Scan() {
		tr.line++
		tr.fields = strings.Fields(tr.sc.Text())
		if len(tr.fields) > 0 {
			return true
		}
	}
	return false
}

func (tr *textReader) errorf(format string, a ...any) error {
	return fmt.Errorf("reading schedule text %s, line %d: %w: %s", tr.name, tr.line, ErrDamaged, fmt.Sprintf(format, a...))
}

// expect reads a line "key value".
func (tr *textReader) expect(key string) (string, error) {
	if !tr.next() {
		return "", tr.eof(key)
	}
	if len(tr.fields) != 2 || tr.fields[0] != key {
		return "", tr.errorf("want %q and a value, got %q", key, strings.Join(tr.fields, " "))
	}
	return tr.fields[1], nil
}

func (tr *textReader) eof(want string) error {
	if err := tr.sc.Err(); err != nil {
		return fmt.Errorf("reading schedule text %s: %w", tr.name, err)
	}
	return fmt.Errorf("reading schedule text %s: %w: ends after line %d, before %q", tr.name, ErrTruncated, tr.line, want)
}

func (tr *textReader) int(key string, lo, hi int64) (int, error) {
	v, err := tr.expect(key)
	if err != nil {
		return 0, err
	}
	return tr.parseInt(key, v, lo, hi)
}

func (tr *textReader) parseInt(what, v string, lo, hi int64) (int, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, tr.errorf("%s %q: want an integer in [%d, %d]", what, v, lo, hi)
	}
	return int(n), nil
}

func (tr *textReader) read() (*Schedule, error) {
	if !tr.next() {
		return nil, tr.eof(textMagic)
	}
	if len(tr.fields) != 2 || tr.fields[0] != textMagic {
		return nil, fmt.Errorf("reading schedule text %s: %w: it does not start with %q", tr.name, ErrNotSchedule, textMagic)
	}
	if tr.fields[1] != strconv.Itoa(Version) {
		return nil, fmt.Errorf("reading schedule text %s: %w: version %s, this program reads %d", tr.name, ErrVersion, tr.fields[1], Version)
	}
	const lim = math.MaxInt32
	s := &Schedule{}
	var nb int
	var err error
	ints := []struct {
		key    string
		dst    *int
		lo, hi int64
	}{
		{"rows", &s.NRows, 0, lim}, {"cols", &s.NCols, 0, lim}, {"nnz", &s.NNZ, 1, lim},
		{"block-size", &s.BlockSize, 1, lim}, {"blocks", &nb, 1, lim}, {"parts", &s.Parts, 1, lim},
		{"split-blocks", &s.SplitBlocks, 0, lim},
	}
	for _, f := range ints {
		if *f.dst, err = tr.int(f.key, f.lo, f.hi); err != nil {
			return nil, err
		}
	}
	if int64(nb)*int64(s.BlockSize) > MaxTextSlots {
		return nil, tr.errorf("%d blocks of %d threads: more slots than the text form holds (%d); use the binary schedule file", nb, s.BlockSize, MaxTextSlots)
	}
	for _, f := range []struct {
		key string
		dst *Overflow
	}{{"policy", &s.Policy}, {"applied", &s.Applied}} {
		v, err := tr.expect(f.key)
		if err != nil {
			return nil, err
		}
		if v == "none" {
			*f.dst = None
		} else if *f.dst, err = ParseOverflow(v); err != nil {
			return nil, tr.errorf("%v", err)
		}
	}
	if s.Budget, err = tr.int("budget", 1, MaxBudget); err != nil {
		return nil, err
	}
	if s.ValueBytes, err = tr.int("value-bytes", 4, 8); err != nil {
		return nil, err
	}
	fp, err := tr.expect("fingerprint")
	if err != nil {
		return nil, err
	}
	if s.Fingerprint, err = strconv.ParseUint(fp, 16, 64); err != nil {
		return nil, tr.errorf("fingerprint %q is not hexadecimal", fp)
	}
	vals, err := tr.expect("values")
	if err != nil {
		return nil, err
	}
	if vals != "yes" && vals != "no" {
		return nil, tr.errorf("values %q: want yes or no", vals)
	}

	// Per-slot arrays grow a block at a time, as block lines arrive.
	s.NewSchedule, s.Rows, s.Cols, s.XLocal, s.YLocal = []int32{}, []int32{}, []int32{}, []int32{}, []int32{}
	if vals == "yes" {
		s.Vals = []float64{}
	}
	s.BlockPart = make([]int32, 0, nb)
	s.BlockOffsets = append(make([]int32, 0, nb+1), 0)
	s.XOffsets = append(make([]int32, 0, nb+1), 0)
	s.YOffsets = append(make([]int32, 0, nb+1), 0)
	s.XUnique, s.YUnique, s.YShared = []int32{}, []int32{}, []uint8{}

	if !tr.next() {
		return nil, tr.eof("block")
	}
	for tr.fields[0] == "param" {
		k, v, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(tr.sc.Text()), "param "), "=")
		if !ok || k == "" {
			return nil, tr.errorf("param line is not key=value")
		}
		s.Params = append(s.Params, Param{Key: k, Value: v})
		if !tr.next() {
			return nil, tr.eof("block")
		}
	}
	for b := range nb {
		f := tr.fields
		if len(f) != 6 || f[0] != "block" || f[1] != strconv.Itoa(b) || f[2] != "part" || f[4] != "tasks" {
			return nil, tr.errorf("want \"block %d part P tasks N\", got %q", b, strings.Join(f, " "))
		}
		part, err := tr.parseInt("part", f[3], 0, int64(s.Parts-1))
		if err != nil {
			return nil, err
		}
		cnt, err := tr.parseInt("tasks", f[5], 0, int64(s.BlockSize))
		if err != nil {
			return nil, err
		}
		s.BlockPart = append(s.BlockPart, int32(part))
		if int(s.BlockOffsets[b])+cnt > s.NNZ {
			return nil, tr.errorf("more tasks than the %d entries", s.NNZ)
		}
		s.BlockOffsets = append(s.BlockOffsets, s.BlockOffsets[b]+int32(cnt))
		for range s.BlockSize {
			s.NewSchedule = append(s.NewSchedule, -1)
			s.Rows = append(s.Rows, -1)
			s.Cols = append(s.Cols, -1)
			s.XLocal = append(s.XLocal, 0)
			s.YLocal = append(s.YLocal, 0)
			if s.Vals != nil {
				s.Vals = append(s.Vals, 0)
			}
		}
		if !tr.next() || tr.fields[0] != "x" {
			return nil, tr.errorf("want the block's x line")
		}
		for _, v := range tr.fields[1:] {
			c, err := tr.parseInt("column", v, 0, int64(s.NCols-1))
			if err != nil {
				return nil, err
			}
			s.XUnique = append(s.XUnique, int32(c))
		}
		s.XOffsets = append(s.XOffsets, int32(len(s.XUnique)))
		if !tr.next() || tr.fields[0] != "y" {
			return nil, tr.errorf("want the block's y line")
		}
		for _, v := range tr.fields[1:] {
			shared := strings.HasSuffix(v, "*")
			r, err := tr.parseInt("row", strings.TrimSuffix(v, "*"), 0, int64(s.NRows-1))
			if err != nil {
				return nil, err
			}
			s.YUnique = append(s.YUnique, int32(r))
			flag := uint8(0)
			if shared {
				flag = 1
			}
			s.YShared = append(s.YShared, flag)
		}
		s.YOffsets = append(s.YOffsets, int32(len(s.YUnique)))
		for t := range cnt {
			if !tr.next() {
				return nil, tr.eof("task")
			}
			f := tr.fields
			if len(f) != 16 || f[0] != "task" || f[1] != strconv.Itoa(t) || f[2] != "slot" || f[4] != "entry" || f[6] != "row" ||
				f[8] != "col" || f[10] != "val" || f[12] != "xl" || f[14] != "yl" {
				return nil, tr.errorf("want \"task %d slot S entry E row R col C val V xl I yl J\"", t)
			}
			tid := b*s.BlockSize + t
			if f[3] != strconv.Itoa(tid) {
				return nil, tr.errorf("task %d of block %d is slot %d, not %s", t, b, tid, f[3])
			}
			var v [5]int
			for i, spec := range []struct {
				idx    int
				lo, hi int64
			}{{5, 0, int64(s.NNZ - 1)}, {7, 0, int64(s.NRows - 1)}, {9, 0, int64(s.NCols - 1)}, {13, 0, lim}, {15, 0, lim}} {
				if v[i], err = tr.parseInt(f[spec.idx-1], f[spec.idx], spec.lo, spec.hi); err != nil {
					return nil, err
				}
			}
			s.NewSchedule[tid], s.Rows[tid], s.Cols[tid], s.XLocal[tid], s.YLocal[tid] = int32(v[0]), int32(v[1]), int32(v[2]), int32(v[3]), int32(v[4])
			if s.Vals != nil {
				if s.Vals[tid], err = strconv.ParseFloat(f[11], 64); err != nil {
					return nil, tr.errorf("value %q: %v", f[11], err)
				}
			} else if f[11] != "-" {
				return nil, tr.errorf("value %q in a schedule without values", f[11])
			}
		}
		if !tr.next() {
			return nil, tr.eof("end")
		}
	}
	if len(tr.fields) != 1 || tr.fields[0] != "end" {
		return nil, tr.errorf("want \"end\", got %q", strings.Join(tr.fields, " "))
	}
	if int(s.BlockOffsets[nb]) != s.NNZ {
		return nil, tr.errorf("the blocks hold %d tasks, the schedule has %d entries", s.BlockOffsets[nb], s.NNZ)
	}
	return s, nil
}
