// Package matrices reads, writes and generates the sparse matrices and graphs
// that the rest of the toolkit partitions, and builds their locality graphs.
//
// Every input, whatever its file format, becomes a COO: a matrix in coordinate
// form with 0-based int32 indices, kept in the order the file stored it and
// with its declared symmetry. A graph file becomes its adjacency matrix. The
// locality graph (see LocalityGraph) turns a COO into the edge list that the
// partitioners work on: data objects are vertices, tasks (nonzeros) are edges.
//
// Memory. A reader allocates from what the input holds, never from what a
// header declares: slices grow with the entries read, reservations are
// capped by the input's size, and at most 64 bytes per input byte plus a
// constant are allocated in all (the fuzz targets check it). Since the
// programs after reading keep arrays per row, column and vertex, a Matrix
// Market file or an edge list whose dimension exceeds 64 per entry + 2^20
// is refused unless ReadOptions.MaxDimension (--max-dimension) allows it.
// Lines are read in linear time from any source, up to 1 GiB each.
package matrices
