// Package listing is `cryptocost list`: its Request (the filters as typed,
// checked), the schemes it selects from the registry, and their output.
package listing

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cryptocost/cryptocost/internal/registry"
	"github.com/cryptocost/cryptocost/scheme"
)

// Filter selects schemes to list.
type Filter struct {
	Families []scheme.Family
	MinBits  int
	MaxBits  int      // 0: no maximum
	Globs    []string // name globs; empty: all
	// Providers are provider names or globs; empty: the Go providers
	// (C-library providers are listed, as bench measures them, when named).
	Providers []string
	NoLegacy  bool
}

// Select returns the registered schemes the filter admits, in registry order.
func Select(f Filter) ([]scheme.Scheme, error) {
	for _, g := range append(append([]string{}, f.Globs...), f.Providers...) {
		if err := registry.CheckGlob(g); err != nil {
			return nil, err
		}
	}
	for _, p := range f.Providers {
		if !strings.ContainsAny(p, "*?[") {
			if _, err := scheme.LookupProvider(p); err != nil {
				return nil, err
			}
		}
	}
	var out []scheme.Scheme
	for _, s := range scheme.All() {
		info := s.Info()
		if len(f.Families) > 0 && !contains(f.Families, info.Family) {
			continue
		}
		if info.Security.Bits < f.MinBits || (f.MaxBits > 0 && info.Security.Bits > f.MaxBits) {
			continue
		}
		if f.NoLegacy && info.Legacy != "" {
			continue
		}
		if len(f.Providers) > 0 && !matchesProvider(f.Providers, info.Provider) {
			continue
		}
		if len(f.Providers) == 0 && scheme.IsCProvider(info.Provider) {
			continue
		}
		if len(f.Globs) > 0 && !matchesAny(f.Globs, info) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

func matchesAny(globs []string, info *scheme.Info) bool {
	for _, g := range globs {
		if !strings.ContainsAny(g, "*?[") {
			// A plain name matches by the registry's rules (case and
			// punctuation ignored, aliases).
			if ss, err := scheme.ByName(g); err == nil {
				for _, s := range ss {
					if s.Info() == info {
						return true
					}
				}
			}
			continue
		}
		for _, n := range append([]string{info.Name, info.ID()}, info.Aliases...) {
			if globMatch(g, n) {
				return true
			}
		}
	}
	return false
}

func matchesProvider(globs []string, p scheme.Provider) bool {
	for _, g := range globs {
		if globMatch(g, string(p)) {
			return true
		}
	}
	return false
}

func globMatch(pattern, name string) bool {
	return registry.Glob(pattern, name)
}

func contains(fs []scheme.Family, f scheme.Family) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// Entry is the JSON shape of one listed scheme.
type Entry struct {
	ID string `json:"id"`
	scheme.Info
	Operations []Operation `json:"operations"`
	// Unavailable says why the scheme cannot run on this machine.
	Unavailable string `json:"unavailable,omitempty"`
}

// Operation is the JSON shape of one operation.
type Operation struct {
	Name     string `json:"name"`
	Input    string `json:"input"`
	Multiple int    `json:"size_multiple,omitempty"`
	Slow     bool   `json:"slow,omitempty"`
}

// Entries converts schemes to their JSON shape.
func Entries(ss []scheme.Scheme) []Entry {
	out := make([]Entry, 0, len(ss))
	for _, s := range ss {
		e := Entry{ID: s.Info().ID(), Info: *s.Info()}
		if err := scheme.Available(s); err != nil {
			e.Unavailable = err.Error()
		}
		for _, op := range s.Operations() {
			e.Operations = append(e.Operations, Operation{Name: op.Name, Input: op.Input.String(), Multiple: op.Multiple, Slow: op.Slow})
		}
		out = append(out, e)
	}
	return out
}

// WriteJSON writes the schemes as a JSON array.
func WriteJSON(w io.Writer, ss []scheme.Scheme) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(Entries(ss))
}

// WriteTable writes the schemes as a table with a legend.
func WriteTable(w io.Writer, ss []scheme.Scheme, wide bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if wide {
		fmt.Fprintln(tw, "NAME\tFAMILY\tPROVIDER\tSECURITY\tPARAMETERS\tSIZES (bytes)\tOPERATIONS\tLEGACY")
	} else {
		fmt.Fprintln(tw, "NAME\tFAMILY\tPROVIDER\tSECURITY\tLEGACY")
	}
	legacy := 0
	for _, s := range ss {
		info := s.Info()
		sec := fmt.Sprint(info.Security.Bits)
		if info.Security.Category > 0 {
			sec += fmt.Sprintf(" (PQ cat %d)", info.Security.Category)
		}
		mark := ""
		if info.Legacy != "" {
			mark = "yes: " + info.Legacy
			legacy++
		}
		if !wide {
			// A terminal's width: the verdict, not the reasons.
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", info.Name, info.Family, info.Provider, sec, legacyWord(info.Legacy))
			continue
		}
		var params []string
		for _, p := range info.Params {
			params = append(params, p.Key+"="+p.Value)
		}
		var ops []string
		for _, op := range s.Operations() {
			name := op.Name
			if op.Slow {
				name += "(slow)"
			}
			ops = append(ops, name)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", info.Name, info.Family, info.Provider, sec,
			strings.Join(params, " "), sizes(info.Sizes), strings.Join(ops, ","), mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	more := "--wide adds parameters, sizes, operations and why a scheme is legacy; --format json has every field"
	if wide {
		more = "'cryptocost list --format json' has every field"
	}
	fmt.Fprintf(w, "%d schemes (%d legacy). Security: bits per NIST SP 800-57 Pt 1 Rev 5 Tables 2-3; 0 = broken.\n%s.\n", len(ss), legacy, more)
	for _, s := range ss {
		if err := scheme.Available(s); err != nil {
			fmt.Fprintf(w, "%s is %v\n", s.Info().ID(), err)
		}
	}
	return writeProviderSummary(w, ss)
}

// legacyWord is a legacy mark in a word: "broken", "deprecated", else
// "yes" (the reasons are in --wide and JSON).
func legacyWord(reason string) string {
	if reason == "" {
		return ""
	}
	if word, _, ok := strings.Cut(reason, ":"); ok && !strings.Contains(word, " ") {
		return word
	}
	return "yes"
}

// writeProviderSummary says which C-library providers are here (and how
// to list their schemes) and why the others are not.
func writeProviderSummary(w io.Writer, listed []scheme.Scheme) error {
	shown := map[scheme.Provider]bool{}
	for _, s := range listed {
		shown[s.Info().Provider] = true
	}
	var here, absent []string
	for _, p := range scheme.Providers() {
		if p.Kind != scheme.KindC {
			continue
		}
		switch {
		case p.Status != scheme.ProviderAvailable:
			absent = append(absent, fmt.Sprintf("%s: %s (%s); Debian package %s", p.Name, p.Status, p.Reason, p.Package))
		case !shown[p.Name]:
			here = append(here, fmt.Sprintf("%s (%d, %s)", p.Name, p.Schemes, p.Library))
		}
	}
	if len(here) > 0 {
		// One per line: the summary fits a terminal as the table does.
		fmt.Fprintln(w, "C-library providers, listed and measured when named (--provider NAME, or --provider '*' for all):")
		for _, h := range here {
			fmt.Fprintf(w, "  %s\n", h)
		}
	}
	for _, a := range absent {
		fmt.Fprintf(w, "provider %s\n", a)
	}
	return nil
}

// WriteProviders writes every provider: kind, status, scheme count, the
// library's version, or why it is not here and the Debian package that
// brings it.
func WriteProviders(w io.Writer, format string) error {
	ps := scheme.Providers()
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(ps)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tKIND\tSTATUS\tSCHEMES\tLIBRARY OR REASON")
	for _, p := range ps {
		detail := p.Library
		if detail == "" {
			detail = p.Description
		}
		if p.Status != scheme.ProviderAvailable {
			detail = p.Reason + "; Debian package " + p.Package + " brings it"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", p.Name, p.Kind, p.Status, p.Schemes, detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "Go providers are always here and measured by default; C libraries (cgo, opened at run time) when --provider names them.")
	return nil
}

func sizes(s scheme.Sizes) string {
	var parts []string
	add := func(name string, v int) {
		if v > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", name, v))
		}
	}
	add("key", s.Key)
	add("block", s.Block)
	add("nonce", s.Nonce)
	add("out", s.Output)
	add("tag", s.Tag)
	add("pk", s.PublicKey)
	add("sk", s.PrivateKey)
	if s.VariableSignature {
		parts = append(parts, fmt.Sprintf("sig≤%d", s.Signature))
	} else {
		add("sig", s.Signature)
	}
	add("ct", s.Ciphertext)
	add("ss", s.SharedSecret)
	return strings.Join(parts, " ")
}
