// Package graph is the graph that BFS and SSSP run on, on the CPU and the
// GPU: a compressed sparse row (CSR) adjacency with int64 edge offsets and
// int32 vertex ids, optionally its transpose (CSC, for pulling), optional
// non-negative float32 arc weights, and the per-vertex counts of input
// edges that Graph500's TEPS needs. Every array is a flat slice that copies
// to the device as it is; nothing on a hot path is a map or a pointer.
//
// # Layout
//
// Vertex v's out-arcs are Adj[Offsets[v]:Offsets[v+1]], sorted by target
// (then by weight), with their weights at the same positions of Weight. An
// undirected graph stores every edge {u,v}, u != v, as the two arcs u->v
// and v->u; a self-loop is one arc. Offsets are int64 because a Graph500
// Kronecker graph of scale 26 has 2^31 arcs; vertex ids are int32 (at most
// 2^31-1 vertices). A directed graph built with Options.Transpose also has
// InOffsets/InAdj/InWeight, the in-arcs of every vertex; for an undirected
// graph these are the same slices as the out-arcs.
//
// # Inputs and directedness
//
// [Build] takes [Edges], a list of input edges; [FromCOO] turns whatever
// package matrices reads into one, and [Load] reads a file. A general
// Matrix Market matrix is a directed graph (A[i,j] is the arc i->j); a
// symmetric, skew-symmetric or hermitian one is undirected, each stored
// entry one input edge (both triangles are expanded into arcs); METIS
// graphs are undirected; edge lists are undirected unless read with
// matrices.EdgeListOptions.Directed. Options.Undirected makes any input
// undirected.
//
// # Input edges and TEPS
//
// Graph500 counts TEPS as the input edges of the root's component over the
// time: each undirected input edge once, duplicates and self-loops
// included, whatever the CSR keeps of them. InputCount[v] is the number of
// input edges whose first end (source) is v, counted before Options.Dedupe
// and Options.DropSelfLoops remove arcs; [Graph.ReachedInputEdges] sums it
// over the vertices a traversal reached, which is the Graph500 count on an
// undirected graph (a component holds both ends of its edges) and, on a
// directed graph, the input edges leaving reached vertices. The input edge
// list itself is not kept.
//
// # Weights
//
// Weights are per input edge, so that both arcs of an undirected edge carry
// the same weight by construction: from the file's values (non-negative,
// finite, rounded to float32), uniform integers 1..W, or uniform floats
// j/2^24, j = 1..2^24, in (0,1]. Generated weights are a pure function of
// (seed, input edge index), not of the order of arcs, the relabelling or
// the number of workers. Weight is float32, what a GPU kernel reads;
// Graph.Integer says every weight is an integer of at most 2^24, exact in
// float32, and [Graph.IntWeights] gives them as int32 (the integer form the
// exact Dijkstra comparison uses). Repeated edges keep their own weights
// unless Options.Dedupe keeps the lightest of each pair.
//
// # Complexity, memory, determinism
//
// Build is a stable parallel counting sort of the arcs by source (a radix
// partition into buckets of consecutive vertices, then a counting sort
// inside each bucket: no atomics, which a hub's counter would make
// contended), followed by a sort of each adjacency list, O(m + n + sum of
// d log d) time for m input edges and n vertices. The graph holds 8 bytes
// per vertex of offsets and 8 of InputCount, and 4 bytes per arc of Adj
// plus 4 of Weight when weighted; an undirected graph has about 2 arcs per
// input edge, so 8 bytes per input edge unweighted, 16 weighted; a
// directed graph's transpose doubles its arc arrays. While building, the
// input edges (8 bytes each, 12 with weights) and 6 bytes per arc of
// temporaries (10 with weights) are held as well. Relabelling costs 4
// bytes per vertex in each direction (NewID, OldID). The result is the
// same for a given input, Options and seed, whatever GOMAXPROCS.
//
// Measured on the GPU machine's 16 cores (2026-11-25): the undirected
// CSR of a Graph500 Kronecker graph of scale 22 (134M arcs) in 1.3 s, 1.6
// s with float weights; scale 24 (537M arcs) in 4.9 s, 6.2 s with
// weights. On 2 cores, scale 20 in about 1.6 s.
package graph
