package adaptive

// GraphResult is how a model's choices did on one graph, over all its
// searches (roots) and levels: total times in microseconds.
type GraphResult struct {
	Graph    string  `json:"graph"`
	Family   string  `json:"family"`
	Searches int     `json:"searches"`
	Levels   int     `json:"levels"`
	Model    float64 `json:"model_us"`  // the model's choice at every level
	Oracle   float64 `json:"oracle_us"` // the fastest candidate at every level
	// Fixed is the best single candidate for this graph, the same at
	// every level (FixedCandidate): what the best fixed strategy gives.
	Fixed          float64 `json:"fixed_us"`
	FixedCandidate string  `json:"fixed_candidate"`
}

// ModelOracle is the model's time over the oracle's (1 is perfect).
func (r GraphResult) ModelOracle() float64 { return r.Model / r.Oracle }

// FixedOracle is the best fixed candidate's time over the oracle's.
func (r GraphResult) FixedOracle() float64 { return r.Fixed / r.Oracle }

// ModelFixed is the model's time over the best fixed candidate's: above 1
// the model loses to the graph's best single strategy.
func (r GraphResult) ModelFixed() float64 { return r.Model / r.Fixed }

// Evaluate charges every level of the given graphs the Cost of the
// candidate choose picks, and compares with the oracle and the graph's
// best fixed candidate.
func Evaluate(d *Dataset, graphs []int, choose func(*Features) int) []GraphResult {
	at := make(map[int]int, len(graphs))
	out := make([]GraphResult, len(graphs))
	fixed := make([][]float64, len(graphs))
	roots := make([]map[int64]bool, len(graphs))
	for i, g := range graphs {
		at[g] = i
		out[i] = GraphResult{Graph: d.Graphs[g].Name, Family: d.Graphs[g].Family}
		fixed[i] = make([]float64, len(d.Candidates))
		roots[i] = map[int64]bool{}
	}
	for j := range d.Samples {
		s := &d.Samples[j]
		i, ok := at[s.Graph]
		if !ok {
			continue
		}
		r := &out[i]
		lo, _, _ := s.best()
		r.Levels++
		r.Oracle += lo
		r.Model += s.Cost(choose(&s.Features))
		for c := range fixed[i] {
			fixed[i][c] += s.Cost(c)
		}
		roots[i][s.Root] = true
	}
	for i := range out {
		out[i].Searches = len(roots[i])
		if len(fixed[i]) > 0 && out[i].Levels > 0 {
			c, t := argmin(fixed[i], seq(len(fixed[i])))
			out[i].Fixed, out[i].FixedCandidate = t, d.Candidates[c]
		}
	}
	return out
}

// SetResult summarises a set of graphs (train, validation or test): the
// mean over its graphs of each ratio, each graph counting once, and the
// worst graph.
type SetResult struct {
	Set    string   `json:"set"`
	Graphs []string `json:"graphs"`
	Levels int      `json:"levels"`
	// Means over the graphs.
	ModelOracle float64 `json:"model_oracle"`
	FixedOracle float64 `json:"fixed_oracle"`
	ModelFixed  float64 `json:"model_fixed"`
	// The worst graph's.
	WorstModelOracle float64 `json:"worst_model_oracle"`
	WorstModelFixed  float64 `json:"worst_model_fixed"`

	PerGraph []GraphResult `json:"per_graph,omitempty"`
}

// Summarise fills a SetResult from per-graph results.
func Summarise(set string, rs []GraphResult) SetResult {
	s := SetResult{Set: set, PerGraph: rs}
	if len(rs) == 0 {
		return s // no graph: zero ratios
	}
	for _, r := range rs {
		s.Graphs = append(s.Graphs, r.Graph)
		s.Levels += r.Levels
		s.ModelOracle += r.ModelOracle()
		s.FixedOracle += r.FixedOracle()
		s.ModelFixed += r.ModelFixed()
		s.WorstModelOracle = max(s.WorstModelOracle, r.ModelOracle())
		s.WorstModelFixed = max(s.WorstModelFixed, r.ModelFixed())
	}
	n := float64(len(rs))
	s.ModelOracle /= n
	s.FixedOracle /= n
	s.ModelFixed /= n
	return s
}
