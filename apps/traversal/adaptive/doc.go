// Package adaptive is the host side of the per-level adaptive BFS: the
// features that describe a BFS level, the oracle sweep's data format, and
// a cost-sensitive CART decision tree that picks, from a level's
// features, the candidate implementation expected to be fastest at that
// level (Verstraaten, Varbanescu and de Laat, 2017: a decision tree per
// level, 1.40x of the per-level optimum against 1.65x for the best fixed
// implementation). The tree is trained offline from sweeps, stored as a
// small versioned JSON file, and walked on the host in a few nanoseconds
// per level; nothing here needs a GPU. Package synth makes synthetic
// sweeps for tests and for the placeholder default model.
//
// # Features
//
// Features is a fixed array indexed by Feature, in this order (the CSV's
// and the model file's order too):
//
//	level                        the level's index: 0 is the root alone
//	vertices, arcs               n and m: vertices and stored out-arcs
//	avg_degree                   m / n
//	max_degree                   the largest out-degree
//	degree_cv                    degree skew: standard deviation / mean of the out-degree
//	frontier_vertices            n_f: the vertices at this depth
//	frontier_arcs                m_f: their out-arcs, the work of a top-down step
//	frontier_fraction            n_f / n
//	discovered_fraction          vertices discovered so far, this frontier included, / n
//	unexplored_arc_fraction      m_u / m, m_u the out-arcs of the undiscovered vertices
//	frontier_mean_degree         m_f / n_f
//	frontier_max_degree          the largest out-degree in the frontier
//	unvisited_mean_degree        m_u / (n - discovered), 0 once all are discovered
//	prev_frontier_vertices       the previous level's n_f (0 at level 0)
//	growth                       n_f / max(previous n_f, 1): 1 at level 0
//	frontier_to_unexplored_arcs  m_f / max(m_u, 1): Beamer's push-or-pull test
//
// Verstraaten et al.'s tree reads the graph's size, the frontier's size
// (absolute and relative), the fraction of vertices discovered and a
// summary of the degrees; this set has those, and adds what the
// direction-optimizing rule reads (m_f against m_u: the alpha test is one
// split on frontier_to_unexplored_arcs, the beta test one on
// frontier_fraction), the frontier's largest degree (what decides between
// a thread per vertex and a cooperative mapping) and the trend of the
// frontier (previous size, growth). Degrees are out-degrees; on an
// undirected graph each edge counts twice, as the CSR stores it.
//
// Every feature comes in O(1) on the host, with no pass over the graph,
// from what the engine keeps per level. Once per graph (StatsOf, O(n)):
// n, m, the largest degree and the degree's standard deviation. Per level,
// three Counters of the frontier, accumulated while the previous level
// builds it: the vertices pushed (each once: the winners of the visit,
// not duplicate queue entries), the sum of their out-degrees and their
// largest out-degree (one warp-aggregated atomicAdd and atomicMax per
// push batch, or the totals of a degree scan the strategy makes anyway);
// for level 0, RootCounters. Tracker adds the rest on the host: the level
// index, the sums of the earlier levels' counters (vertices discovered and
// their arcs, whence m_u) and the previous frontier's size. FromDepths
// computes the same features from a finished search's depths (O(n)), for
// a sweep that validates each search on the host anyway; the tests check
// both against the definitions.
//
// # The oracle sweep's files
//
// A sweep times every candidate implementation at every level of
// searches from several roots of one graph, each level run from the same
// saved state (on the GPU: traversal.Engine.SweepBFS, 'spac traverse
// sweep GRAPH --gpu'). By convention it writes DataDir (data/traverse),
// one pair of files per graph:
//
//	data/traverse/<graph>.csv   the rows (or <graph>.csv.gz)
//	data/traverse/<graph>.json  the sidecar: what the graph is (GraphInfo)
//
// The CSV has a header and one row per (graph, root, level, candidate),
// 23 columns (Header):
//
//	graph       the graph's name (letters, digits, . _ + -): the files' base name
//	family      its family: kron, road, web, social, mesh, ...
//	root        the root's vertex id in the graph as built (0-based)
//	level ... frontier_to_unexplored_arcs
//	            the 17 features above, in order; counts are integers,
//	            every value finite and >= 0; the same on every row of a
//	            (root, level)
//	candidate   the implementation: lower-case letters, digits, . _ : + -
//	            (an engine strategy's name, "vertex-push-warp:8", ...)
//	time_us     the level's device time in microseconds: > 0 when valid;
//	            empty (or any finite value) when not
//	valid       true or false: false for a candidate that does not apply
//	            (pull without in-arcs), ran more than the level in one
//	            step, or whose level or search failed validation
//
// Numbers are written in Go's shortest round-trip form
// (strconv.FormatFloat 'g', -1), so a file reads back bit for bit. A root's
// levels are 0, 1, ... without a gap; a candidate may be missing from a
// level (it counts as invalid). ReadRows is strict: the exact header, one
// graph and family, no duplicate (root, level, candidate), equal features
// within a level, contiguous levels; an error names the file, the line,
// the column and its name, and what was expected (ParseError). ReadSweep
// adds the sidecar and checks that they agree (graph, family, vertex and
// arc counts, the graph's features equal on every row).
//
// The sidecar is a JSON object (GraphInfo; unknown fields are errors):
// format "spac-traverse-graph", version 1, name, family, and how to make
// the graph again: exactly one of generator (as 'spac bfs' takes it, with
// its seed: "kron:scale=20,ef=16,seed=3") and file (a name under
// ../shared/matrices or a path), with build_options (the flags that built
// it: "--undirected --dedupe"); directed, vertices, arcs, algorithm
// ("bfs"), and optionally device, created (RFC 3339), synthetic, notes.
// Writer (Create) writes both files aside and renames them into place on
// Close, so an interrupted sweep leaves no half file.
//
// # Training
//
// A Dataset gathers sweeps: one Sample per (graph, root, level) with a
// time per candidate (NaN where it has none); levels that no candidate ran
// validly are left out. A candidate chosen where it has no valid time is
// charged the level's slowest valid time (Sample.Cost), in training and
// in evaluation alike.
//
// Train splits the graphs, never the levels, into training, validation
// and test sets (named, or drawn with the seed), grows the tree on the
// training graphs and picks its depth and leaf size on the validation
// graphs. The tree (Fit) is CART with a cost-sensitive criterion: a leaf
// chooses the candidate with the least total cost over its levels, and a
// split minimises the children's total, where a level of a graph whose
// oracle takes T* in all (every root, every level), one of G training
// graphs, costs time / (T* G). The training loss is then exactly the mean
// over the training graphs of model/oracle, the ratio the evaluation
// reports: each graph counts once whatever its size, and a level counts
// by the time at stake. Among splits of equal cost the tree takes the one
// with the lowest Gini impurity of the per-level best candidates (each
// level weighted by its slowest minus its fastest time), and it also
// splits on such a decrease alone, so that a candidate winning by a
// little in a band of a feature is found although no single threshold
// lowers the cost; subtrees that choose one candidate throughout are then
// merged. A tree is never worse on its training graphs than the best
// single candidate (the one-leaf tree), and a deeper tree never worse than
// a shallower one. Training is deterministic: no randomness but the
// seeded draw of the held-out graphs; ties go to the lower feature index
// and threshold.
//
// Evaluate reports per graph the total time of the model's choices, of the
// per-level oracle and of the graph's best single candidate, and the
// ratios model/oracle, fixed/oracle and model/fixed; Summarise averages
// them over a set (each graph once) and keeps the worst.
//
// # The model file
//
// A Model is stored as indented JSON: format "spac-traverse-model",
// version 1, synthetic, note, algorithm ("bfs"), candidates (the names a
// label indexes), features (the names in order), the tree as flat arrays
// in preorder (feature: -1 at a leaf; threshold: go left when the feature
// is <= it; left, right: child indices, always after the parent; label:
// the candidate index a leaf chooses), training (the training, validation
// and test graphs' names, the date, the seed, the bounds, the number of
// levels) and evaluation (per set the mean and worst ratios). Load refuses
// another format or version, a feature list that differs from this
// build's in any name or position (a model can only be read by a build
// that computes the same features), unknown fields, and a tree that
// Predict could not walk safely; each message says what to do.
//
// Default returns the model embedded in the binary (default_model.json).
// It is SYNTHETIC for now: trained by TestDefaultModel (go test -run
// TestDefaultModel ./apps/traversal/adaptive -args -update) on package
// synth's sweeps, real BFS levels of small generated graphs timed by an
// invented cost model. Its Synthetic field is true and its note says so,
// and a command that uses it must print SyntheticNote; a GPU oracle sweep
// and 'spac traverse train' replace it.
//
// # Cost
//
// Predict walks one node per tree level (24 bytes each, no allocation):
// about 20 ns for a depth-12 tree of thousands of nodes, 4 ns for the
// default model, and Tracker's features from the counters add about 10 ns
// (go test -bench Predict, one core of the development machine). Fit sorts
// the levels once per feature, then costs O(features x levels x
// candidates) per depth, the features scanned in parallel: 200,000 levels
// of 20 candidates with no structure to find, grown to depth 12, take
// about 15 CPU seconds. Train grows one tree per leaf size tried and cuts
// it at every depth.
package adaptive
