package adaptive

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Dataset is the training material: every timed level of every sweep,
// with one time per candidate.
type Dataset struct {
	// Candidates are the candidate names of all sweeps, sorted: a
	// Sample's Time and a model's labels index them.
	Candidates []string
	// Graphs are the sweeps' graphs, sorted by name; Files their paths
	// (empty for a dataset built in memory).
	Graphs []GraphInfo
	Files  []string
	// Samples are the levels, by graph, root and level.
	Samples []Sample
	// Unmeasured counts the levels left out because no candidate ran them
	// validly.
	Unmeasured int
}

// Sample is one level of one search.
type Sample struct {
	Graph    int // index into Dataset.Graphs
	Root     int64
	Features Features
	// Time is each candidate's time in microseconds, NaN where the
	// candidate has no valid row; at least one is a number.
	Time []float64
}

// LoadDataset reads the sweeps that the arguments name (SweepFiles) into
// a dataset.
func LoadDataset(args ...string) (*Dataset, error) {
	files, err := SweepFiles(args...)
	if err != nil {
		return nil, err
	}
	sweeps := make([]*Sweep, len(files))
	for i, f := range files {
		if sweeps[i], err = ReadSweep(f); err != nil {
			return nil, err
		}
	}
	return NewDataset(sweeps...)
}

// NewDataset gathers sweeps into a dataset. A graph may appear in one
// sweep only, and must have a level with a valid time.
func NewDataset(sweeps ...*Sweep) (*Dataset, error) {
	if len(sweeps) == 0 {
		return nil, fmt.Errorf("adaptive: no sweep to train on")
	}
	sweeps = slices.Clone(sweeps)
	slices.SortStableFunc(sweeps, func(a, b *Sweep) int { return cmp.Compare(a.Info.Name, b.Info.Name) })
	d := &Dataset{}
	names := map[string]bool{}
	for i, s := range sweeps {
		if i > 0 && s.Info.Name == sweeps[i-1].Info.Name {
			return nil, fmt.Errorf("graph %s is in two sweeps: %s and %s; keep one", s.Info.Name, sweeps[i-1].Path, s.Path)
		}
		d.Graphs = append(d.Graphs, s.Info)
		d.Files = append(d.Files, s.Path)
		for _, r := range s.Rows {
			names[r.Candidate] = true
		}
	}
	for n := range names {
		d.Candidates = append(d.Candidates, n)
	}
	slices.Sort(d.Candidates)
	index := map[string]int{}
	for i, n := range d.Candidates {
		index[n] = i
	}
	type key struct {
		root  int64
		level float64
	}
	for g, s := range sweeps {
		at := map[key]int{} // sample index
		start := len(d.Samples)
		for _, r := range s.Rows {
			k := key{r.Root, r.Features[Level]}
			i, ok := at[k]
			if !ok {
				i = len(d.Samples)
				at[k] = i
				t := make([]float64, len(d.Candidates))
				for c := range t {
					t[c] = math.NaN()
				}
				d.Samples = append(d.Samples, Sample{Graph: g, Root: r.Root, Features: r.Features, Time: t})
			}
			if r.Valid {
				d.Samples[i].Time[index[r.Candidate]] = r.TimeUS
			}
		}
		mine := d.Samples[start:]
		slices.SortFunc(mine, func(a, b Sample) int {
			return cmp.Or(cmp.Compare(a.Root, b.Root), cmp.Compare(a.Features[Level], b.Features[Level]))
		})
		kept := mine[:0]
		for _, smp := range mine {
			if _, _, ok := smp.best(); ok {
				kept = append(kept, smp)
			} else {
				d.Unmeasured++
			}
		}
		d.Samples = d.Samples[:start+len(kept)]
		if len(kept) == 0 {
			return nil, fmt.Errorf("%s: no level of graph %s has a valid time: nothing to learn from it", s.Path, s.Info.Name)
		}
	}
	return d, nil
}

// best returns the fastest and slowest valid time of a sample, false when
// no candidate ran it.
func (s *Sample) best() (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), 0
	for _, t := range s.Time {
		if !math.IsNaN(t) {
			lo, hi, ok = min(lo, t), max(hi, t), true
		}
	}
	return lo, hi, ok
}

// Cost is what choosing candidate c costs at this level: its time, or,
// when it has none (it does not apply or failed), the slowest valid time
// of the level, the charge for falling back blind.
func (s *Sample) Cost(c int) float64 {
	if t := s.Time[c]; !math.IsNaN(t) {
		return t
	}
	_, hi, _ := s.best()
	return hi
}

// GraphIndex returns the index of the named graph, or -1.
func (d *Dataset) GraphIndex(name string) int {
	i, ok := slices.BinarySearchFunc(d.Graphs, name, func(g GraphInfo, n string) int { return cmp.Compare(g.Name, n) })
	if !ok {
		return -1
	}
	return i
}

// GraphNames returns the names of the graphs with the given indices.
func (d *Dataset) GraphNames(graphs []int) []string {
	out := make([]string, len(graphs))
	for i, g := range graphs {
		out[i] = d.Graphs[g].Name
	}
	return out
}
