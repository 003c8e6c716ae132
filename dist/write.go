package dist

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spac-gpu/spac/mpi"
)

// writeChunk bounds the bytes a rank formats before writing them.
const writeChunk = 64 << 20

// WriteAssignment writes the assignment file of 'spac partition
// --assignment': one line "row col part" per entry used, row and column
// 1-based, in the entries' order, the same bytes as the single-machine
// command writes. Every rank writes its own entries at their offset in the
// file (MPI-IO on an MPI communicator), into a temporary file beside path
// that rank 0 renames over it once every rank is done, so that a failed
// run leaves the old file. path "-" gathers the lines on rank 0, which
// writes them to stdout. Collective over c.
func WriteAssignment(c mpi.Comm, sh *Shard, part []int32, path string, stdout io.Writer) error {
	if len(part) != len(sh.Row) {
		return mpi.Agree(c, fmt.Errorf("%d parts for %d entries", len(part), len(sh.Row)))
	}
	line := func(buf []byte, i int) []byte {
		buf = strconv.AppendInt(buf, int64(sh.Row[i])+1, 10)
		buf = append(buf, '\t')
		buf = strconv.AppendInt(buf, int64(sh.Col[i])+1, 10)
		buf = append(buf, '\t')
		buf = strconv.AppendInt(buf, int64(part[i]), 10)
		return append(buf, '\n')
	}
	if path == "-" {
		var buf []byte
		for i := range part {
			buf = line(buf, i)
		}
		send := make([][]byte, c.Size())
		send[0] = buf
		got, err := mpi.Alltoall(c, send)
		if err != nil {
			return err
		}
		var werr error
		if c.Rank() == 0 {
			for _, b := range got {
				if _, werr = stdout.Write(b); werr != nil {
					break
				}
			}
		}
		return mpi.Agree(c, werr)
	}
	// The bytes of this rank's lines, then where they go.
	var size int64
	for i := range part {
		size += int64(digits(int64(sh.Row[i])+1) + digits(int64(sh.Col[i])+1) + digits(int64(part[i])) + 3)
	}
	at, _, err := mpi.Exscan(c, size)
	if err != nil {
		return err
	}
	var tmp string
	if c.Rank() == 0 {
		tmp = filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.spac-tmp-%d-dist", filepath.Base(path), os.Getpid()))
	}
	name, err := mpi.Bcast(c, []byte(tmp), 0)
	if err != nil {
		return err
	}
	tmp = string(name)
	f, err := c.Create(tmp)
	if err != nil {
		return err
	}
	// Rounds of at most writeChunk bytes per rank; every rank takes part
	// in every round (MPI_File_write_at_all is collective).
	rounds, err := mpi.Max(c, (size+writeChunk-1)/writeChunk)
	if err != nil {
		return err
	}
	buf := make([]byte, 0, min(size, writeChunk)+64)
	i := 0
	var werr error
	for r := int64(0); r < rounds; r++ {
		buf = buf[:0]
		for i < len(part) && len(buf) < writeChunk {
			buf = line(buf, i)
			i++
		}
		if err := f.WriteAt(buf, at); err != nil && werr == nil {
			werr = err
		}
		at += int64(len(buf))
	}
	if err := f.Close(); err != nil && werr == nil {
		werr = err
	}
	if c.Rank() == 0 {
		if werr == nil {
			werr = os.Rename(tmp, path)
		}
		if werr != nil {
			os.Remove(tmp)
		}
	}
	return mpi.Agree(c, werr)
}

// digits is the number of decimal digits of x ≥ 0.
func digits(x int64) int {
	n := 1
	for x >= 10 {
		x /= 10
		n++
	}
	return n
}
