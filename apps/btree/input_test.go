package btree

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// Key files and command files written and read back are the same.
func TestRoundTrip(t *testing.T) {
	keys, err := GenerateKeys(KeySpec{N: 3000, Span: 1 << 30, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, MinKey, MaxKey, -7)
	var buf bytes.Buffer
	if err := WriteKeys(&buf, keys); err != nil {
		t.Fatal(err)
	}
	back, err := ReadKeys(&buf, "k.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back, keys) {
		t.Fatal("keys read back differ")
	}
	buf.Reset()
	cmds := []Command{{Op: 'k', Count: 10}, {Op: 'j', Count: 6000, Range: 3000}, {Op: 'j', Count: 1, Range: 0}}
	if err := WriteCommands(&buf, cmds); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCommands(&buf, "c.txt")
	if err != nil || !slices.Equal(got, cmds) {
		t.Fatalf("commands read back: %v, %v; want %v", got, err, cmds)
	}
	inline, err := ParseCommands("k 10; j 6000 3000\n\nj 1 0")
	if err != nil || !slices.Equal(inline, cmds) {
		t.Fatalf("inline commands: %v, %v", inline, err)
	}
}

// Malformed inputs are refused with the file name and the line.
func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "line 1: unexpected end of input, expected the number of keys"},
		{"3\n1\n2\n", "line 3: unexpected end of input, expected key 3 of 3"},
		{"2\n1\n2\n3\n", `line 4: "3" after the 2 keys`},
		{"2\n1 x\n", `line 2: key 2 of 2: "x" is not an integer`},
		{"1\n2147483647\n", "is not an integer in [-2147483647, 2147483646]"},
		{"0\n", "the number of keys"},
		{"-5\n", "the number of keys"},
	} {
		_, err := ReadKeys(strings.NewReader(c.in), "f.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.txt: ") {
			t.Errorf("ReadKeys(%q): %v, want %q", c.in, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"", "no commands"},
		{"k\n", "line 1: \"k\": command k takes 1 numbers"},
		{"k 5\nf 3\n", "line 2: command \"f\""},
		{"j 5\n", "takes 2 numbers"},
		{"k 0\n", "the count must be"},
		{"j 4 -1\n", "the range must be"},
		{"k 1e3\n", "the count must be"},
	} {
		_, err := ReadCommands(strings.NewReader(c.in), "c.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "c.txt: ") {
			t.Errorf("ReadCommands(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

// Queries have the shape of Rodinia's: keys in [0, size), ranges of the
// commanded length below size, one batch per kind, the same for a seed.
func TestMakeQueries(t *testing.T) {
	cmds := []Command{{Op: 'k', Count: 500}, {Op: 'j', Count: 300, Range: 40}, {Op: 'k', Count: 200}}
	bs, err := MakeQueries(cmds, 1000, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || bs[0].Kind != FindK || bs[0].Len() != 700 || bs[1].Kind != FindRange || bs[1].Len() != 300 {
		t.Fatalf("batches %+v", bs)
	}
	for _, x := range bs[0].Start {
		if x < 0 || x >= 1000 {
			t.Fatalf("key %d outside [0, 1000)", x)
		}
	}
	for q := range bs[1].Start {
		if s, e := bs[1].Start[q], bs[1].End[q]; s < 0 || e != s+40 || e >= 1000 {
			t.Fatalf("range [%d, %d]", s, e)
		}
	}
	again, _ := MakeQueries(cmds, 1000, 7)
	other, _ := MakeQueries(cmds, 1000, 8)
	if !slices.Equal(again[0].Start, bs[0].Start) || slices.Equal(other[0].Start, bs[0].Start) {
		t.Error("queries are not a function of the seed")
	}
	if _, err := MakeQueries([]Command{{Op: 'j', Count: 1, Range: 1000}}, 1000, 1); err == nil {
		t.Error("a range as long as the keys was accepted")
	}
	only, _ := MakeQueries([]Command{{Op: 'j', Count: 3, Range: 1}}, 10, 1)
	if len(only) != 1 || only[0].Kind != FindRange {
		t.Errorf("commands of one kind gave %d batches", len(only))
	}
}

// Generated keys: distinct, within the span, a permutation of 0..N-1 by
// default, shuffled, and a function of the spec.
func TestGenerateKeys(t *testing.T) {
	for _, spec := range []KeySpec{{N: 1}, {N: 1000}, {N: 1000, Span: 1001}, {N: 777, Span: 1<<31 - 2, Seed: 3}} {
		keys, err := GenerateKeys(spec)
		if err != nil {
			t.Fatal(err)
		}
		span := spec.Span
		if span == 0 {
			span = spec.N
		}
		s := slices.Clone(keys)
		slices.Sort(s)
		if len(slices.Compact(s)) != spec.N || s[0] < 0 || int(s[len(s)-1]) >= span {
			t.Errorf("%+v: not %d distinct keys in [0, %d)", spec, spec.N, span)
		}
		if spec.Span == 0 && int(s[len(s)-1]) != spec.N-1 {
			t.Errorf("%+v: not a permutation", spec)
		}
		if spec.N >= 1000 && slices.IsSorted(keys) {
			t.Errorf("%+v: keys come sorted", spec)
		}
		again, _ := GenerateKeys(spec)
		if !slices.Equal(again, keys) {
			t.Errorf("%+v: not deterministic", spec)
		}
	}
	for _, bad := range []KeySpec{{N: 0}, {N: 10, Span: 5}, {N: maxKeys + 1}} {
		if _, err := GenerateKeys(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for in, want := range map[string]KeySpec{"keys:n=5": {N: 5}, "keys:n=5,span=9": {N: 5, Span: 9}, "keys: span=9 ,n=5": {N: 5, Span: 9}} {
		if got, err := ParseSpec(in); err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %+v, %v", in, got, err)
		}
	}
	for _, in := range []string{"n=5", "keys:", "keys:n=0", "keys:n=5,span=4", "keys:n=5,x=1", "keys:span=9", "keys:n=abc"} {
		if _, err := ParseSpec(in); err == nil {
			t.Errorf("ParseSpec(%q) accepted", in)
		}
	}
	for _, p := range Presets {
		if _, err := GenerateKeys(KeySpec{N: min(p.Keys.N, 10)}); err != nil || len(p.Commands) == 0 {
			t.Errorf("preset %s", p.Name)
		}
	}
}

// FuzzReadKeys: the reader never panics, every error names the file, and
// what it accepts is written back identically and builds a tree.
func FuzzReadKeys(f *testing.F) {
	f.Add("3\n5\n-2\n7\n")
	f.Add("1 2147483646")
	f.Add("2\n1\n")
	f.Add("4\n1\t2 3\r\n4")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		keys, err := ReadKeys(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteKeys(&buf, keys); err != nil {
			t.Fatal(err)
		}
		back, err := ReadKeys(&buf, "back")
		if err != nil || !slices.Equal(back, keys) {
			t.Fatalf("round trip: %v", err)
		}
		if _, err := Build(keys, BuildOptions{Order: 4}); err != nil {
			t.Fatalf("accepted keys that do not build: %v", err)
		}
	})
}

// FuzzReadCommands: the same for command files.
func FuzzReadCommands(f *testing.F) {
	f.Add("j 6000 3000\nk 10000\n")
	f.Add("k 1;j 2 3")
	f.Add("x 1\n")
	f.Add("\n\nk 5 6\n")
	f.Fuzz(func(t *testing.T, in string) {
		cmds, err := ReadCommands(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteCommands(&buf, cmds); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCommands(&buf, "back")
		if err != nil || !slices.Equal(back, cmds) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
