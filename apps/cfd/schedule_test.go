package cfd

import (
	"slices"
	"strings"
	"testing"
)

// checkSchedule verifies a schedule's invariants against its mesh and
// faces: a bijective renumbering, each face once, home ranges and slots
// consistent, the exclusive elements touched by one part only.
func checkSchedule(t *testing.T, m *Mesh, sc *Schedule) {
	t.Helper()
	n := m.N
	if err := CheckPermutation(sc.Perm, sc.Inv, n); err != nil {
		t.Fatal(err)
	}
	if !sc.Mesh.Equal(m.Permute(sc.Perm, sc.Inv)) {
		t.Fatal("schedule mesh is not the permuted mesh")
	}
	f, err := BuildFaces(sc.Mesh)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ a, b int32 }
	want := map[key]int{}
	for e := range f.A {
		want[key{f.A[e], f.B[e]}]++
	}
	c := m.Counts()
	if sc.NumFaces() != len(f.A)+c.Wing+c.FarField {
		t.Fatalf("%d faces scheduled, mesh has %d interior and %d boundary", sc.NumFaces(), len(f.A), c.Wing+c.FarField)
	}
	if sc.HomeStart[0] != 0 || int(sc.HomeStart[sc.K]) != n || int(sc.SlotStart[sc.K]) != len(sc.Slots) || int(sc.FaceStart[sc.K]) != sc.NumFaces() {
		t.Fatal("bad range ends")
	}
	parts := make([]int, n) // parts touching each element
	boundary := 0
	nf := sc.NumFaces()
	for p := 0; p < sc.K; p++ {
		h0, h1, s0 := sc.HomeStart[p], sc.HomeStart[p+1], sc.SharedStart[p]
		if h0 > h1 || s0 < h0 || s0 > h1 {
			t.Fatalf("part %d: home [%d,%d), shared from %d", p, h0, h1, s0)
		}
		slots := sc.Slots[sc.SlotStart[p]:sc.SlotStart[p+1]]
		if len(slots) > sc.MaxSlots || len(slots) < int(h1-h0) {
			t.Fatalf("part %d: %d slots, %d home elements, max %d", p, len(slots), h1-h0, sc.MaxSlots)
		}
		for l := range h1 - h0 {
			if slots[l] != h0+l {
				t.Fatalf("part %d slot %d is %d, want home element %d", p, l, slots[l], h0+l)
			}
		}
		foreign := slots[h1-h0:]
		if !slices.IsSorted(foreign) {
			t.Fatalf("part %d: foreign slots not sorted", p)
		}
		used := make([]bool, len(slots))
		for _, e := range slots {
			parts[e]++
		}
		for _, e := range foreign {
			if e >= h0 && e < h1 {
				t.Fatalf("part %d: home element %d listed again", p, e)
			}
		}
		for fi := sc.FaceStart[p]; fi < sc.FaceStart[p+1]; fi++ {
			a, b := sc.FaceA[fi], sc.FaceB[fi]
			if a < 0 || int(a) >= len(slots) || b < FarField || int(b) >= len(slots) {
				t.Fatalf("face %d: local slots %d, %d of %d", fi, a, b, len(slots))
			}
			used[a] = true
			ga := slots[a]
			j := -1
			if b < 0 {
				boundary++
				if ga < h0 || ga >= h1 {
					t.Fatalf("boundary face of element %d in part %d, not its home", ga, p)
				}
				// It must be one of the element's boundary slots, same normal.
				for jj := 0; jj < NNB; jj++ {
					x, y, z := sc.Mesh.Norm(int(ga), jj)
					if sc.Mesh.Nb(int(ga), jj) == b && x == sc.FaceNormal[fi] && y == sc.FaceNormal[int(fi)+nf] && z == sc.FaceNormal[int(fi)+2*nf] {
						j = jj
					}
				}
				if j < 0 {
					t.Fatalf("face %d: no slot of element %d matches", fi, ga)
				}
				continue
			}
			used[b] = true
			gb := slots[b]
			k := key{min(ga, gb), max(ga, gb)}
			if want[k] == 0 {
				t.Fatalf("face %d joins %d and %d: not a face, or scheduled twice", fi, ga, gb)
			}
			want[k]--
			for jj := 0; jj < NNB; jj++ {
				x, y, z := sc.Mesh.Norm(int(ga), jj)
				if sc.Mesh.Nb(int(ga), jj) == gb && x == sc.FaceNormal[fi] && y == sc.FaceNormal[int(fi)+nf] && z == sc.FaceNormal[int(fi)+2*nf] {
					j = jj
				}
			}
			if j < 0 {
				t.Fatalf("face %d: normal is not element %d's toward %d", fi, ga, gb)
			}
		}
		for l, u := range used {
			if !u {
				t.Fatalf("part %d: slot %d (element %d) has no face", p, l, slots[l])
			}
		}
	}
	if boundary != c.Wing+c.FarField {
		t.Fatalf("%d boundary faces scheduled, want %d", boundary, c.Wing+c.FarField)
	}
	for k, left := range want {
		if left != 0 {
			t.Fatalf("face %v scheduled %d times too few", k, left)
		}
	}
	for p := 0; p < sc.K; p++ {
		for e := sc.HomeStart[p]; e < sc.HomeStart[p+1]; e++ {
			if exclusive := e < sc.SharedStart[p]; exclusive != (parts[e] == 1) {
				t.Fatalf("element %d: exclusive %v but in %d parts", e, exclusive, parts[e])
			}
		}
	}
	if sc.Copies != int64(len(sc.Slots)-n) {
		t.Fatalf("copies %d, slots %d for %d elements", sc.Copies, len(sc.Slots), n)
	}
}

func TestSchedule(t *testing.T) {
	for _, tc := range []struct {
		spec      string
		method    string
		blockSize int
	}{
		{"mesh:n=4000", "spac", 128},
		{"mesh:n=4000", "spac", 1024},
		{"mesh:n=4000", "default", 256},
		{"mesh:n=4000", "greedy", 192},
		{"mesh:n=900,nx=30,closed=1", "spac", 64},
		{"mesh:n=50,wing=0", "spac", 16},
		{"mesh:n=5000,ax=0.45,ay=0.3", "spac", 256},
	} {
		t.Run(tc.spec+"/"+tc.method, func(t *testing.T) {
			m := genMesh(t, tc.spec)
			sc := schedule(t, m, tc.method, tc.blockSize)
			checkSchedule(t, m, sc)
			f, _ := BuildFaces(m)
			if sc.K != (len(f.A)+tc.blockSize-1)/tc.blockSize {
				t.Errorf("K = %d for %d faces at B=%d", sc.K, len(f.A), tc.blockSize)
			}
		})
	}
}

// A hand-made mesh with an element whose faces are all boundary (no
// interior face: home by rank) and an element that is its own neighbour.
func TestScheduleOddElements(t *testing.T) {
	m := NewMesh("odd", 4)
	for i := 0; i < 4; i++ {
		m.Area[i] = 1
	}
	m.SetFace(0, 0, 1, 1, 0, 0)
	m.SetFace(1, 2, 0, -1, 0, 0)
	m.SetFace(1, 0, 2, 1, 0, 0)
	m.SetFace(2, 2, 1, -1, 0, 0)
	m.SetFace(2, 1, 2, 0, 1, 0) // 2 is its own neighbour through slots 1 and 3
	m.SetFace(2, 3, 2, 0, -1, 0)
	m.SetFace(0, 1, Wing, 0, 1, 0)
	m.SetFace(3, 0, Wing, 1, 0, 0) // element 3: boundary faces only
	f, err := BuildFaces(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.A) != 3 {
		t.Fatalf("%d interior faces, want 3", len(f.A))
	}
	sc := schedule(t, m, "spac", 2)
	checkSchedule(t, m, sc)
	ref, err := Simulate(m, nil, FP64, 10)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Simulate(m, sc, FP64, 10)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRel(t, got.Vars, ref.Vars, m.N); d > Tolerance(FP64, 10) {
		t.Errorf("difference %.3g", d)
	}
}

func TestBuildFacesNotConforming(t *testing.T) {
	oneSided := NewMesh("one-sided", 2)
	oneSided.Area[0], oneSided.Area[1] = 1, 1
	oneSided.SetFace(0, 0, 1, 1, 0, 0)
	skewed := NewMesh("skewed", 2)
	skewed.Area[0], skewed.Area[1] = 1, 1
	skewed.SetFace(0, 0, 1, 1, 0, 0)
	skewed.SetFace(1, 0, 0, -1, 0.01, 0)
	backward := NewMesh("backward", 2)
	backward.Area[0], backward.Area[1] = 1, 1
	backward.SetFace(1, 0, 0, 1, 0, 0)
	for _, tc := range []struct {
		m    *Mesh
		want string
	}{
		{oneSided, "element 0 lists 1 as neighbour (slot 0) but 1 does not list 0 back"},
		{skewed, "normals of the face between elements 0 and 1 are not opposite"},
		{backward, "element 1 lists 0 as neighbour (slot 0) but 0 does not list 1 back"},
	} {
		_, err := BuildFaces(tc.m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.m.Name, err, tc.want)
		}
	}
}
