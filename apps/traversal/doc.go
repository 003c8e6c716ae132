// Package traversal runs breadth-first search and single-source shortest
// paths on the GPU under every load-balancing strategy of the literature,
// one operator per algorithm and one kernel template per policy, as Gunrock
// separates them: the operator says what a visited arc does (BFS's visit,
// SSSP's relax), the policy says how a level's arcs map to threads. A new
// policy touches no operator, and a new operator reuses every policy.
// Its subpackages hold the graph (graph), the generators (gen), the CPU
// references (ref), the validators and units (validate) and the conformance
// suite every strategy passes (traversaltest).
//
// # API
//
// Open uploads a graph.Graph once (CSR offsets and targets, weights when it
// has them; the COO sources, node-splitting pieces and scan scratch are
// made on first use by the strategies that need them); Engine.BFS and
// Engine.SSSP run one search from a root with a Strategy and return a
// Result in package ref's layout (parent and depth, or float32 distance and
// predecessor; -1 and +Inf for unreached vertices), the device time between
// CUDA events, the levels and the arcs inspected. Strategies lists the
// strategies, each with the algorithms it supports; names come from one
// table (ParseStrategy, ParseStrategies, "all" leaving out the negative
// test). Without CUDA, Open returns gpu.ErrNoCUDA. An Engine serves one
// caller at a time.
//
// # Operators
//
// BFS keeps depth and parent per vertex; a vertex is visited by a CAS of
// its depth from -1, so each is pushed once (LB pushes duplicates on
// purpose: a check-then-write whose writers all belong to the same level,
// which LB-cull removes). SSSP keeps a 64-bit word per vertex, the float32
// distance's bits high and the predecessor low, replaced by a CAS loop only
// on a strict decrease of the distance (a tie never replaces: zero-weight
// arcs could otherwise form predecessor cycles); the sum d(u)+w is rounded
// to float32 as the validator recomputes it, so the distances equal
// Dijkstra's bitwise. A vertex improved in level L is stamped L+1 and pushed
// once per level (atomicExch on its stamp).
//
// # Policies
//
// thread (a thread per frontier vertex, Gunrock's ThreadExpand and the
// slides' queue BFS), persistent and persistent-twc (the same mapping, or
// TWC's, in one persistent kernel: see the level loop), topo (a thread per
// vertex, active when stamped: the slides' parallel level-synchronous BFS),
// edge (a thread per COO arc, topology-driven) and edge-chunk (8 arcs per
// thread, one atomic per warp's batch of pushes), lb (workload
// decomposition: an exclusive scan of the frontier's degrees with
// gpu.Prims, a partition kernel that finds every tile's first entry
// (merge-path), the block's entries staged in shared memory for the
// per-arc search) and lb-cull, twc (thread / warp / CTA at 32 and 512 arcs,
// Options), ns (node splitting: pieces of at most MDT arcs, MDT from the
// degree histogram computed on the host, a piece reading its vertex's
// state), hp (hierarchical processing, in one sub-iteration: MDT arcs per
// frontier vertex by its thread, the rest by workload decomposition;
// decomposition alone below a frontier of 1024), scan (the slides' scan
// BFS: flags compacted by gpu.Prims.Select), pull (direction-optimizing
// BFS: TWC's push, a bottom-up pull over the in-arcs while the frontier
// holds n/24 vertices or more; ErrNotApplicable on a directed graph without
// in-arcs), near-far (SSSP: lb-cull over the vertices below a threshold,
// the others in a far pile, deduplicated per epoch, that a refill kernel
// splits on the device when the frontier empties, raising the threshold
// by Options.Delta), delta-stepping (SSSP, Meyer and Sanders: near-far
// over each vertex's light arcs, weight below Delta, its arcs sorted by
// weight on the device once; a bucket's vertices are listed, and when its
// frontier runs dry one level relaxes their heavy arcs, once each),
// two-phase (Harish and Narayanan's SSSP with the atomic update),
// two-phase-racy (its original racy update, kept as the negative test
// the validator catches), and spac-schedule (SPAC's static edge schedule
// of the adjacency, spac.go: a level or a Bellman-Ford round as a masked
// product over the schedule, each schedule block's sources staged in
// shared memory, blocks without an active source skipped; offline: "all"
// leaves it out, since its partition takes seconds to minutes).
//
// # The level loop
//
// The host never waits for a level. Two loops, measured on the H100 on a
// road graph of 4000 x 4000 (16M vertices, 6,541 BFS levels):
//
//   - Captured graphs (every strategy but the persistent ones): the levels
//     run k at a time (Options.LevelsPerGraph, default 16) from a captured
//     CUDA graph; the last block of each level's last kernel (a ticket
//     that every block takes) moves the output count to the input count
//     and advances the level, and a kernel that finds an empty frontier
//     returns at once. Each graph ends with a post to mapped host memory
//     (gpu.Mapped: level, frontier size, arcs inspected, the post's number)
//     and the host keeps two graphs queued ahead of the post it reads. An
//     empty level costs 3.7 us (4.0 for twc, 45 for lb-cull, whose scan is
//     sized by the largest frontier); the thread policy's BFS levels cost
//     28 to 32 us at k = 1, 4, 16 or 64 (25 with one block per
//     multiprocessor): the launch is not what bounds them.
//   - Persistent (persistent, persistent-twc): one kernel runs the whole
//     search, one block per multiprocessor (all resident), the levels
//     separated by a software grid barrier whose last arrival closes the
//     level (each block counts the levels itself, so the barrier is a
//     fence, one atomic, a spin and a fence): 11.4 us per level on the road
//     graph, each root's time over its own levels (BFS 74.5 ms per root,
//     against 186 ms for thread and Gunrock's 82 us per level on
//     road_usa). Its grid is small, so on Kronecker graphs the captured
//     loop with lb-cull or edge wins (few levels, much work each).
//
// The time of a Result includes the empty levels of the last graph.
//
// BFS keeps a visited bitmap beside the depths (BfsOp in traversal.cu):
// on Kronecker scale 22 it took lb-cull from 3.55 to 3.25 ms per root. The
// policies that walk a vertex's arcs one after the other skip the reread
// of the depth the edge-range policies keep (thread 112 to 75 ms there;
// with the reread, the road graph's persistent BFS lost 12%).
//
// # Measured (H100, 2026-11-25; docs/traverse-h100 has every figure)
//
// Graph500 TEPS, harmonic mean over random roots, every run validated:
// Kronecker scale 22 BFS: lb-cull 20.6 GTEPS, hp 14.9, pull 10.3, twc
// 6.6, thread 0.80 (a thread expands a hub of the frontier alone). SSSP
// (float weights in (0,1]): delta-stepping 3.9 GTEPS (1.9 arcs relaxed
// per arc), near-far 2.9 and lb-cull 2.7 (4.6 per arc). Road 4000 x 4000
// BFS: persistent 0.28 GTEPS (11.4 us per level, per root), thread 0.11;
// road SSSP: near-far 0.91 s with 1.23 arcs relaxed per arc, over 10,803
// levels at 84 us, most of it the scan's fixed cost; delta-stepping
// needs 2.4x the levels there and loses (2.3 s).
//
// spac-schedule (B = 1024, TestSpacScheduleBench): it never pays. Road
// 4000 x 4000: SPAC schedule 19.2 s on the host (1.02 source copies per
// vertex), BFS 144 ms per root (22 us per level) against persistent's 75,
// SSSP 1.18 s against near-far's 0.90 (6.3G arcs inspected: a whole
// schedule block runs for one active source). Kronecker scale 20: 73.9 s
// (14 copies per vertex), BFS 3.25 ms against lb-cull's 1.31, SSSP 21.3
// ms against lb-cull's 5.8. Slower per root everywhere, so no number of
// roots recovers the partition.
//
// # Memory
//
// The graph's CSR (8 bytes per vertex, 4 per arc, 4 more with weights),
// 24 bytes per vertex of state, and two frontier queues of max(n, m)
// entries (LB's duplicates); edge strategies add 4 bytes per arc (COO
// sources), LB and hp 12 bytes per queue entry (degrees and their scan),
// ns 12 bytes per piece.
//
// # Per-level adaptive BFS
//
// Issue 17's GPU half (paper.go, counted.go, adaptive_bfs.go, ondevice.go,
// sweep.go, kernels/adaptive.cu, its own module, loaded on first use; the
// tests in adaptive_cuda_test.go pass on the H100).
//
// The implementations of Verstraaten, Varbanescu and de Laat
// ("mix-and-match", 2018) are strategies (Strategy.Paper): edge-list-*
// (a thread per COO arc), rev-edge-list-* (a thread per in-arc into an
// unvisited vertex), push-* (a thread per frontier vertex), pull-* (a
// thread per unvisited vertex over its in-arcs, bottom-up at every level:
// not the direction-optimizing pull) and vw-push-2 ... vw-push-32 (2 to 32
// lanes per vertex). All are topology-driven (the frontier from the depth
// stamps, no queue) and count the next frontier by an atomicAdd per vertex
// (-atomic), a warp reduction (-warp, and every vw-push) or a block
// reduction (-block). do-beamer is direction-optimizing BFS with Beamer's
// rule (Options.Alpha 15, Beta 18): at each level's start every block
// computes the direction from the frontier's counters (pull when, after a
// push, the frontier's out-arcs exceed the undiscovered vertices' out-arcs
// / Alpha; push again when, after a pull, the frontier holds fewer than
// n / Beta vertices). Two kernels a level: do_push expands the frontier's
// vertices of fewer than 128 arcs (TWC's thread and warp grouping, over the
// queue, or over the stamps after a pulled level) and lists the larger
// ones, whose arcs do_finish deals evenly over the whole grid (a block
// scan of their degrees and a binary search per arc, or a block per
// vertex when they are many); pulling, do_finish runs a thread per
// unvisited vertex, a warp for one of 128 in-arcs or more, and writes no
// queue. pull keeps its own rule (pull while the
// frontier holds n/PullDivisor vertices or more: Beamer's beta alone).
//
// Counters (counted.go): a counted level also posts its next frontier's
// adaptive.Counters (vertices, the sum and the largest of their
// out-degrees) to a ring of 4096 slots in mapped host memory, tagged with
// the search's epoch and the level, read after the graph's post like the
// mail. The adaptive.cu kernels count as they discover, with their own
// method; traversal.cu's, which must stay as they are, get a counter step
// after the launch that closes the level: queue_counters over the queue
// the level wrote (O(frontier): thread, lb-cull, twc, hp, pull) or
// frontier_rebuild over the stamps (O(n): topo, edge, edge-chunk, ns,
// scan, and lb, whose queue has duplicates), which also leaves the queue
// whole. BFSCounters runs any PerLevel strategy so and returns the
// counters of every level.
//
// The adaptive search (BFSAdaptive, a Chooser: ModelChooser walks an
// adaptive.Model) describes each level from its counters with an
// adaptive.Tracker (O(1)), picks its strategy and launches a captured graph
// of that strategy's counted levels; a level that reads a queue after one
// that wrote none (a paper strategy's) starts by rebuilding it from the
// stamps. The host waits for every graph's post: the choice itself costs
// a few ns (adaptive's doc: 4 to 20 ns per prediction, 10 for the
// Tracker), the round trip (post, poll, launch) about 10 to 20 us (to be
// measured on the H100), which the search's time includes. So a choice
// runs for a run of levels (AdaptiveOptions.MaxRun, default
// LevelsPerGraph): one level at first, doubling while the chooser keeps
// picking the same strategy at each level of the run and at the next,
// back to one when it does not; a road graph's thousands of alike levels
// then cost a round trip per run. The levels of a run after its first are
// decided from the first's features: AdaptiveTrace.Stale counts those
// whose own pick differed. A pick that does not apply (needs in-arcs)
// falls back to lb-cull. That is the host's loop (AdaptiveOptions.Host,
// and any tree that picks a strategy of traversal.cu).
//
// Decided on the device (ondevice.go): where every strategy a leaf of the
// tree picks has a body in ad_level (the paper's implementations and
// do-beamer: ModelChooser.OnDevice), BFSAdaptive runs the whole search in
// one launch of ad_persist (ad_level's bodies in a loop, a grid barrier
// after each level; Engine.run's graph of one launch and a post), and the
// device decides: the block that
// closes a level (the last to take its ticket) loads the tree (uploaded
// once, each leaf's candidate replaced by its body) and a snapshot of the
// control block into shared memory, closes the level as finish_level does,
// computes the next level's features as adaptive.Tracker does (the same
// double arithmetic: the same walk), walks the tree, and writes the body
// that the next launch runs (C_CHOICE); a log in device memory keeps each
// level's counters and body, from which the host rebuilds the trace after
// the search (AdaptiveTrace.OnDevice, Disagree: the levels where the
// host's walk of the same features picks otherwise, 0 in every test). A
// body reads the frontier from the queue when the level before wrote one
// whole (do-beamer's push; C_QOK) and from the stamps otherwise; a
// top-down do-beamer level whose big list is empty closes in its first
// pass, else in a second (C_PHASE). The grid is at most what is resident
// (4 blocks of 256 threads an SM at ad_persist's 64 registers where the
// device allows: gpu.Module.Resident asks the driver), which ad_persist's
// barrier needs (it gives up after about 4 s otherwise, with
// C_OVERFLOW = 2). With half a standalone kernel's threads, the bodies'
// grid-stride loops take BODY_U (4) items a round, their loads issued
// together. The log also holds each level's global timer at its opening
// and its end (AdaptiveTrace.Times; 'spac bfs --levels'). The barrier is cooperative groups' grid sync: thread 0
// of each block fences, arrives (the level's ticket), waits on C_GEN and
// fences again, and the block's barrier orders its threads' plain loads
// after it.
//
// Small frontiers in one block (ad_solo): a level of the whole grid costs
// ad_persist about 10 us however small it is, which is all a road graph's
// thousands of levels cost. So a queued frontier (the root's, or one a
// do-beamer push or the block itself wrote) of at most 2048 vertices and
// Options.OneBlockArcs out-arcs (default 4096; 'spac bfs --one-block')
// is block 0's alone, level after level, a block barrier between levels,
// while the other blocks wait at the grid's barrier: the frontier's
// vertices and degrees in shared memory, a scan, each thread's four
// consecutive arcs loaded, checked and claimed together (one block has
// few loads in flight). The tree is not asked there; each level's row of
// the log names the one-block push (the trace's Ran; Chosen keeps the
// tree's pick). When the frontier outgrows the bounds the block closes the
// level as a closer does, the tree picks the next body, and the grid goes
// on. On the H100 (median of 4 roots): a 1500 x 700 road grid 14.0 ms
// per root against 24.1 with the grid alone (--one-block 0) and 15.6 for
// the persistent strategy, the best fixed one; a shuffled 900 x 300 grid
// 4.8 against 9.7 and 8.7; a 30-vertex matrix 0.034 against 0.047 and
// 0.041.
//
// High-diameter graphs (Options.PersistentAfter, default 32): from that
// level on, on a graph of at most 32 out-arcs a vertex, a queued frontier
// of more than 1024 arcs or too large for the one block, and every level
// after it, go to the persistent strategy's kernel, the next launch of the
// search's graph (B_HANDOFF): its levels cost about half of ad_persist's.
//
// Heavy levels (Options.OwnKernelArcs, default 8M arcs): a vertex pull or
// do-beamer pull over that many unexplored arcs, or the big-list pass of a
// do-beamer push whose frontier has that many out-arcs, makes ad_persist
// return (C_YIELD); ad_heavy, at a standalone kernel's 8 blocks an SM,
// runs and closes it, and a second ad_persist goes on (the graph holds
// those two launches only on graphs of that many arcs; AdaptiveTrace.Yields).
//
// ad_level, one launch a level, is the sweep's vehicle. The
// sweep's --on-device times each such candidate as ad_level runs it (ad_set
// picks the body and stops ad_level after one level).
//
// The oracle sweep (SweepBFS; 'spac traverse sweep' writes its rows with
// adaptive.Writer): at every level of a search, the state (depths,
// parents, visited bitmap, the level's queue, the control block but its
// post count) is copied aside on the device; every candidate runs the
// level from it, timed by CUDA events around its one-level counted graph
// (the level, its counter step, the post), and is checked on the device
// against the CPU reference's depths (the depths after the level, the new
// frontier's parents at the level before) and by its counters against
// the reference's; the state is restored, and the fastest valid
// candidate advances the search, whose end passes the Graph500 rules. A
// candidate that cannot run the level (no in-arcs), overflows or runs two
// levels in one step (pull, where its push closes a level its pull then
// expands) is not valid there; a wrong level is a fault, reported. Every
// candidate starts with a whole queue, so the sweep's times leave out the
// rebuild an adaptive search pays when it switches to a queue reader
// after a paper strategy; BFSAdaptive's end-to-end time has it.
//
// Memory: the ring (128 KiB pinned), the in-arcs' COO destinations of a
// directed graph (4 bytes per in-arc; an undirected graph's are the COO
// sources); the sweep 12 bytes per vertex, n/8 bytes and a queue.
//
// The device tests (adaptive_cuda_test.go): every new strategy through the
// conformance suite; the counters of every PerLevel strategy equal to the
// reference's (TestCountersMatchReference); a sweep, host and on-device, on
// a small Kronecker and road graph without faults, its rows read back by
// adaptive.ReadSweep; adaptive searches valid by the Graph500 rules, on
// the host and on the device, where trees that chain every body after
// every other check each level's body and its features against the
// reference depths'; then TestAdaptiveBench (SPAC_ADAPTIVE_BENCH=1).
//
// # Many-source BFS
//
// Engine.NewMSBFS prepares many-source BFS (MS-BFS, Then et al., VLDB
// 2015; msbfs.go, kernels/msbfs.cu) on the engine's CSR: MSBFS.Run
// searches from up to MSBFSWidth (64) roots at once, bit i of three 64-bit
// words per vertex (seen, visit, next) standing for root i, and returns
// every root's depths, equal to BFS's (root-major int32, -1 unreached;
// no parents). A level pushes each frontier vertex's visit word to its
// out-neighbours with atomic ORs (TWC's grouping over a frontier queue),
// or, while the frontier is large, pulls: every vertex ORs its
// in-neighbours' words, wanting only the roots still searching that have
// not reached it, and stops once it has them all (Beamer's rule on the
// batch's words, MSBFSOptions; push only without in-arcs). A settle pass
// over every vertex then moves the new bits into seen and visit and writes
// the depths, a warp's writes for one root 32 consecutive words. The level
// loop is the engine's (captured graphs, posts to mapped memory), with
// the MSBFS's own control block, queues and post counter, so that Engine
// searches and MSBFS batches may alternate. Memory: 288 bytes per vertex
// (a depth per root of a full batch, three words, two queues). The settle
// pass reads 16 to 32 bytes per vertex per level whatever the frontier,
// which graphs of thousands of levels (roads) pay for.
package traversal
