// Package order computes symmetric orderings of sparse matrices: numberings
// of rows and columns that a plain CSR kernel (ours or any library's) reads
// with more locality than the original numbering, without a special kernel.
// It holds the anchors users already know, reverse Cuthill-McKee ([RCM])
// and METIS's nested dissection ([ND]), next to the ordering that an edge
// partition such as SPAC's induces ([ByParts]), so that `spac reorder` and
// the SpMV report compare them on the same input.
//
// # Conventions
//
// A graph is given in CSR form: n vertices, ptr with n+1 offsets into adj,
// the neighbours of vertex v in adj[ptr[v]:ptr[v+1]]. A permutation perm is
// returned as perm[new] = old (the order in which old vertices are listed);
// [Inverse] gives old -> new. Applying a symmetric ordering to a matrix A
// gives P A P^T with row i of the result = row perm[i] of A.
//
// # Determinism
//
// Every ordering here is a pure function of its input (and, where one is
// taken, its seed): ties are broken by vertex index, never by map order or
// scheduling, so a permutation written once can be recomputed and compared
// byte for byte.
package order
