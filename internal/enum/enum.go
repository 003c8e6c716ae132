// Package enum names the values of a small enumeration once, in one table,
// and derives from it what every command and package needs: the name of a
// value, the parsing of a name or an alias (case and surrounding blanks
// ignored), an error that lists the accepted names, and the names for help
// texts. A package declares its table next to its type; String and Parse
// methods delegate to it, so that a flag, a file and an error message spell
// a value the same way.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Name is one value of a table: its name (what String gives) and other
// spellings that Parse accepts too.
type Name[T comparable] struct {
	Value   T
	Name    string
	Aliases []string
}

// Table is an enumeration's names. What names the enumeration in errors
// ("precision", "kernel").
type Table[T comparable] struct {
	What  string
	names []Name[T]
}

// New is the table of the given values, in the order Names lists them.
func New[T comparable](what string, names ...Name[T]) *Table[T] {
	return &Table[T]{What: what, names: names}
}

// String is v's name, or "What(v)" for a value the table does not hold.
func (t *Table[T]) String(v T) string {
	for _, n := range t.names {
		if n.Value == v {
			return n.Name
		}
	}
	return fmt.Sprintf("%s(%v)", t.What, v)
}

// Parse reads a name or an alias, ignoring case and surrounding blanks; an
// unknown name is an error that lists the accepted names.
func (t *Table[T]) Parse(s string) (T, error) {
	key := strings.ToLower(strings.TrimSpace(s))
	for _, n := range t.names {
		if key == n.Name || slices.Contains(n.Aliases, key) {
			return n.Value, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q (want %s)", t.What, s, t.List())
}

// ParseList reads a comma-separated list of names, in order, each once
// (a repeated name is dropped); empty items are skipped.
func (t *Table[T]) ParseList(s string) ([]T, error) {
	var out []T
	for _, item := range strings.Split(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		v, err := t.Parse(item)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// Values lists the table's values in order.
func (t *Table[T]) Values() []T {
	vs := make([]T, len(t.names))
	for i, n := range t.names {
		vs[i] = n.Value
	}
	return vs
}

// Names lists the names (not the aliases) in order.
func (t *Table[T]) Names() []string {
	ns := make([]string, len(t.names))
	for i, n := range t.names {
		ns[i] = n.Name
	}
	return ns
}

// List is the names for a sentence: "a", "a or b", "a, b or c".
func (t *Table[T]) List() string {
	ns := t.Names()
	if len(ns) <= 1 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " or " + ns[len(ns)-1]
}
