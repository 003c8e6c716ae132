// Package matrices reads, writes and generates the sparse matrices and graphs
// that the rest of the toolkit partitions, and builds their locality graphs.
//
// Every input, whatever its file format, becomes a COO: a matrix in coordinate
// form with 0-based int32 indices, kept in the order the file stored it and
// with its declared symmetry. A graph file becomes its adjacency matrix. The
// locality graph (see LocalityGraph) turns a COO into the edge list that the
// partitioners work on: data objects are vertices, tasks (nonzeros) are edges.
package matrices
