package scheme

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	names "github.com/cryptocost/cryptocost/internal/registry" // the registry var is this package's table
)

// The registry is filled by init functions in this package (one file per
// family) with plain data: registering runs none of a scheme's code. C
// providers (provider.go) add their schemes on the registry's first use.
// It is read-only afterwards.
var (
	registry []Scheme
	byKey    = map[string][]Scheme{} // normalised name or alias -> schemes (one per provider)
	byID     = map[string]Scheme{}   // normalised "name@provider" -> scheme
)

// normalize folds case and drops punctuation, so "sha256", "SHA-256" and
// "Sha_256" are one key.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// register adds s to the registry. It panics on a duplicate, which is a
// programming error caught by any test.
func register(s Scheme) {
	info := s.Info()
	id := normalize(info.ID())
	if _, dup := byID[id]; dup {
		panic("scheme: duplicate registration of " + info.ID())
	}
	byID[id] = s
	registry = append(registry, s)
	keys := []string{normalize(info.Name)}
	for _, a := range info.Aliases {
		keys = append(keys, normalize(a))
	}
	for _, k := range slices.Compact(slices.Sorted(slices.Values(keys))) {
		for _, other := range byKey[k] {
			if normalize(other.Info().Name) != normalize(info.Name) {
				panic(fmt.Sprintf("scheme: %q names both %s and %s", k, other.Info().ID(), info.ID()))
			}
		}
		byKey[k] = append(byKey[k], s)
		sortPreferred(byKey[k])
	}
}

// All returns every registered scheme, ordered by family, then name, then
// provider.
func All() []Scheme {
	loadProviders()
	out := slices.Clone(registry)
	order := map[Family]int{}
	for i, f := range Families {
		order[f] = i
	}
	slices.SortStableFunc(out, func(a, b Scheme) int {
		ai, bi := a.Info(), b.Info()
		if c := order[ai.Family] - order[bi.Family]; c != 0 {
			return c
		}
		if c := naturalCompare(ai.Name, bi.Name); c != 0 {
			return c
		}
		return strings.Compare(string(ai.Provider), string(bi.Provider))
	})
	return out
}

// ByName returns the schemes a name stands for: every provider of the
// algorithm for a plain name or alias ("sha256", "ML-KEM-768"), exactly one
// for "name@provider". Case and punctuation are ignored. The error for an
// unknown name lists the closest known names.
func ByName(name string) ([]Scheme, error) {
	loadProviders()
	k := normalize(name)
	if strings.Contains(k, "@") {
		if s, ok := byID[k]; ok {
			return []Scheme{s}, nil
		}
		base, _, _ := strings.Cut(k, "@")
		if ss, ok := byKey[base]; ok {
			var provs []string
			for _, s := range ss {
				provs = append(provs, s.Info().ID())
			}
			return nil, fmt.Errorf("no provider %q for %s: have %s", strings.SplitN(name, "@", 2)[1], ss[0].Info().Name, strings.Join(provs, ", "))
		}
	} else if ss, ok := byKey[k]; ok {
		return slices.Clone(ss), nil
	}
	return nil, unknownNameError(name)
}

// Lookup is ByName for callers that want exactly one scheme: the Go
// implementation of the name (the standard library where it has the
// algorithm, else the first registered Go provider), never a C library
// unless the name says "@provider".
func Lookup(name string) (Scheme, error) {
	ss, err := ByName(name)
	if err != nil {
		return nil, err
	}
	return ss[0], nil
}

// Match returns the schemes whose name, alias or ID matches the glob pattern
// (path.Match syntax, case-insensitive, * also matching "/"), in All order. A pattern without
// glob characters is looked up with ByName.
func Match(pattern string) ([]Scheme, error) {
	if !strings.ContainsAny(pattern, "*?[") {
		return ByName(pattern)
	}
	p := pattern
	if err := names.CheckGlob(p); err != nil {
		return nil, err
	}
	var out []Scheme
	for _, s := range All() {
		if matchInfo(p, s.Info()) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no algorithm matches %q; see 'cryptocost list' for the names", pattern)
	}
	return out, nil
}

func matchInfo(p string, info *Info) bool {
	for _, n := range append([]string{info.Name, info.ID()}, info.Aliases...) {
		if names.Glob(p, n) {
			return true
		}
	}
	return false
}

// UnknownNameError is returned for a name no scheme has.
type UnknownNameError struct {
	Name    string
	Closest []string
}

func (e *UnknownNameError) Error() string {
	msg := fmt.Sprintf("unknown algorithm %q", e.Name)
	if len(e.Closest) > 0 {
		msg += "; did you mean " + strings.Join(e.Closest, ", ") + "?"
	}
	return msg + " (run 'cryptocost list' to see every algorithm)"
}

func unknownNameError(name string) error {
	return &UnknownNameError{Name: name, Closest: Closest(name, 3)}
}

// Closest returns up to n registered names nearest to name (by
// internal/registry's rule: edit distance over folded names and aliases,
// containment counting as near), nearest first.
func Closest(name string, n int) []string {
	loadProviders()
	cands := make([]names.Candidate, 0, len(registry))
	for _, s := range registry {
		info := s.Info()
		cands = append(cands, names.Candidate{Name: info.Name, Aliases: info.Aliases})
	}
	return names.Closest(name, cands, n)
}

// naturalCompare orders names with embedded numbers numerically, so
// RSA-512 sorts before RSA-1024 and AES-128 before AES-256.
func naturalCompare(a, b string) int { return names.NaturalCompare(a, b) }

// Names are the registered schemes' names (one per scheme, whatever its
// providers), in All's order.
func Names() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range All() {
		if n := s.Info().Name; !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
