// Package registry is the one lookup table behind every plug-in kind of
// cryptocost — schemes, result and comparison formats, charts, meters'
// trace formats, radios, links, devices, models, scenarios: register a
// value under a name and aliases, look it up by any of them with case and
// punctuation folded ("WiFi-802.11g" = "wifi80211g"), list the names, and
// say in an error what would work and which name was probably meant.
//
// Each package keeps its own public API (device.Lookup, radio.Lookup,
// ...) and its own wording; only the table, the folding and the
// suggestions are shared, so a typo is answered the same way everywhere.
package registry

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
)

// Registry maps folded names and aliases to values of one kind. The zero
// value is not usable; New makes one. It is not safe for concurrent
// writes: packages fill it at init (or once, under sync.Once) and only
// read it afterwards.
type Registry[T any] struct {
	kind    string
	entries []entry[T]
	byKey   map[string]int
}

type entry[T any] struct {
	name    string
	aliases []string
	value   T
}

// New makes an empty registry of kind (a noun for errors: "device",
// "radio", "format").
func New[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, byKey: map[string]int{}}
}

// Kind is the registry's noun.
func (r *Registry[T]) Kind() string { return r.kind }

// Add registers v under name and aliases. A name or alias that folds to
// one another entry already has is an error (two plug-ins claiming one
// name); the entry's own names may repeat after folding.
func (r *Registry[T]) Add(name string, v T, aliases ...string) error {
	i := len(r.entries)
	for _, k := range append([]string{name}, aliases...) {
		f := Fold(k)
		if j, dup := r.byKey[f]; dup && j != i {
			return fmt.Errorf("%s %s: name %q already names %s", r.kind, name, k, r.entries[j].name)
		}
	}
	for _, k := range append([]string{name}, aliases...) {
		r.byKey[Fold(k)] = i
	}
	r.entries = append(r.entries, entry[T]{name, slices.Clone(aliases), v})
	return nil
}

// MustAdd is Add for built-in plug-ins, whose clash is a programming
// error caught by any test.
func (r *Registry[T]) MustAdd(name string, v T, aliases ...string) {
	if err := r.Add(name, v, aliases...); err != nil {
		panic(err)
	}
}

// Lookup returns the value registered under name or an alias (folded).
func (r *Registry[T]) Lookup(name string) (T, bool) {
	if i, ok := r.byKey[Fold(name)]; ok {
		return r.entries[i].value, true
	}
	var zero T
	return zero, false
}

// Get is Lookup with an *UnknownError saying what would work.
func (r *Registry[T]) Get(name string) (T, error) {
	if v, ok := r.Lookup(name); ok {
		return v, nil
	}
	var zero T
	return zero, r.Unknown(name)
}

// Unknown is the error for a name the registry does not have: the names
// it has, in registration order, and the closest ones.
func (r *Registry[T]) Unknown(name string) *UnknownError {
	return &UnknownError{Kind: r.kind, Name: name, Want: r.Names(), Closest: r.Closest(name, 3)}
}

// Len is the number of entries.
func (r *Registry[T]) Len() int { return len(r.entries) }

// Values returns the values in registration order.
func (r *Registry[T]) Values() []T {
	out := make([]T, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.value
	}
	return out
}

// Names returns the entries' names in registration order (which a
// package chooses: help texts list formats table first, links from the
// fastest).
func (r *Registry[T]) Names() []string {
	out := make([]string, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.name
	}
	return out
}

// Sorted returns the names in natural order (RSA-512 before RSA-1024).
func (r *Registry[T]) Sorted() []string {
	return slices.SortedFunc(slices.Values(r.Names()), NaturalCompare)
}

// SortedValues returns the values in the natural order of their names.
func (r *Registry[T]) SortedValues() []T {
	out := make([]T, 0, len(r.entries))
	for _, name := range r.Sorted() {
		v, _ := r.Lookup(name)
		out = append(out, v)
	}
	return out
}

// Closest returns up to n entry names nearest to name (Closest of the
// package), nearest first.
func (r *Registry[T]) Closest(name string, n int) []string {
	cands := make([]Candidate, len(r.entries))
	for i, e := range r.entries {
		cands[i] = Candidate{Name: e.name, Aliases: e.aliases}
	}
	return Closest(name, cands, n)
}

// UnknownError is a name no entry has.
type UnknownError struct {
	Kind, Name string
	Want       []string // every name, in the registry's order
	Closest    []string // the likeliest, nearest first
}

func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.Kind, e.Name)
	if len(e.Want) > 0 {
		msg += ": want one of " + strings.Join(e.Want, ", ")
	}
	if len(e.Closest) > 0 {
		msg += "; did you mean " + strings.Join(e.Closest, ", ") + "?"
	}
	return msg
}

// Fold drops case and everything but letters and digits, so "SHA-256",
// "sha256" and "Sha_256" are one key, and "Pi Zero 2 W" is "pizero2w".
func Fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Candidate is a name (and its aliases) Closest may suggest.
type Candidate struct {
	Name    string
	Aliases []string
}

// Closest returns up to n candidate names nearest to name, nearest first:
// by the optimal-string-alignment edit distance of the folded forms
// (Levenshtein plus adjacent transpositions, the commonest typo:
// "sha265"), with a name that contains the query or starts with it
// counted as near ("aes" → AES-128, "lt" → lte-aro). Names further than
// max(2, len/2) edits, or as many as the query has letters, are not
// suggested.
func Closest(name string, cands []Candidate, n int) []string {
	k := Fold(name)
	type scored struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var all []scored
	for _, c := range cands {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		d := len(k) + 100
		for _, key := range append([]string{c.Name}, c.Aliases...) {
			f := Fold(key)
			d = min(d, EditDistance(k, f))
			switch {
			case len(k) >= 2 && strings.HasPrefix(f, k):
				d = min(d, 1)
			case len(k) >= 3 && (strings.Contains(f, k) || strings.Contains(k, f) && f != ""):
				d = min(d, 1)
			}
		}
		all = append(all, scored{c.Name, d})
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return NaturalCompare(a.name, b.name)
	})
	// At most half the query's length in edits (2 for short ones), and
	// fewer than its length: a 2-letter query is near only what starts
	// with it, not every 2-letter alias.
	limit := max(1, min(max(2, len(k)/2), len(k)-1))
	var out []string
	for _, c := range all {
		if len(out) == n || c.d > limit {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// EditDistance is the optimal-string-alignment distance between a and b.
func EditDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// NaturalCompare orders names with embedded numbers numerically, so
// RSA-512 sorts before RSA-1024 and AES-128 before AES-256; letters
// compare without case.
func NaturalCompare(a, b string) int {
	for a != "" && b != "" {
		ad, bd := digitPrefix(a), digitPrefix(b)
		if ad != "" && bd != "" {
			ta, tb := strings.TrimLeft(ad, "0"), strings.TrimLeft(bd, "0")
			if len(ta) != len(tb) {
				return len(ta) - len(tb)
			}
			if c := strings.Compare(ta, tb); c != 0 {
				return c
			}
			a, b = a[len(ad):], b[len(bd):]
			continue
		}
		ca, cb := unicode.ToLower(rune(a[0])), unicode.ToLower(rune(b[0]))
		if ca != cb {
			return int(ca) - int(cb)
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// Glob reports whether name matches the glob pattern: path.Match syntax,
// case-insensitive, except that * and ? also match '/', which plug-in
// names contain ("SHA-512/256", "XMSSMT-SHA2_20/4_256"). A malformed
// pattern matches nothing; CheckGlob says why.
func Glob(pattern, name string) bool {
	ok, _ := path.Match(globForm(pattern), globForm(name))
	return ok
}

// CheckGlob returns an error naming what is wrong with a malformed pattern.
func CheckGlob(pattern string) error {
	if _, err := path.Match(globForm(pattern), ""); err != nil {
		return fmt.Errorf("bad pattern %q: %v (globs: * any text, ? one character, [abc] one of a set)", pattern, err)
	}
	return nil
}

// globForm lowers s and hides its slashes from path.Match, which would
// not let * cross them.
func globForm(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "/", "\x1f")
}
