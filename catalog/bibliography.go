package catalog

import (
	_ "embed"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// The bibliography: every document a number in cryptocost's data files,
// models and docs rests on, once, under a short key — the seed studies
// S000…S004, papers (Huang2012), tools (ARO, TinyECC), standards
// (RFC8446, 802.15.4) and datasheets (SX1276-DS). A source cites it by
// starting with its key:
//
//	"0.26 s [ARO T_PROMOTION]"
//	"1.8 mA [S003: MCU active current]"
//	"72 B [RFC 3279 §2.2.3: at most 72 B for P-256]"   (RFC 3279 is key RFC3279)
//
// or says it rests on no document: "unverified: …" (recalled, not
// checked) or "assumption: …" (a choice). Any "S00N" or "RFC N" elsewhere
// in a source (or a doc) must be a key too. The tests hold every profile,
// model, cost table, link and doc to this (bibliography_test.go), and
// docs/bibliography.md is the bibliography as a table.
//
//go:embed bibliography.yaml
var bibliographyYAML []byte

// Reference is one entry of the bibliography.
type Reference struct {
	Key     string `yaml:"key"`
	Authors string `yaml:"authors,omitempty"`
	Title   string `yaml:"title"`
	// Where it appeared: a venue, a publisher, a standards body, a
	// repository.
	Where string `yaml:"where,omitempty"`
	Year  string `yaml:"year,omitempty"`
	URL   string `yaml:"url,omitempty"`
	// Note says how cryptocost read it (a stored copy, the seeds digest).
	Note string `yaml:"note,omitempty"`
}

var bibliography = sync.OnceValues(func() ([]Reference, error) {
	var refs []Reference
	if _, err := Parse("catalog/bibliography.yaml", bibliographyYAML, &refs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, r := range refs {
		switch {
		case r.Key == "" || r.Title == "":
			return nil, fmt.Errorf("catalog/bibliography.yaml: entry %d (%q) needs a key and a title", i, r.Key)
		case seen[strings.ToLower(r.Key)]:
			return nil, fmt.Errorf("catalog/bibliography.yaml: key %s twice", r.Key)
		case !keyPattern.MatchString(r.Key):
			return nil, fmt.Errorf("catalog/bibliography.yaml: key %q: a key is letters, digits and . - + without spaces", r.Key)
		}
		seen[strings.ToLower(r.Key)] = true
	}
	return refs, nil
})

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+-]*$`)

// Bibliography returns every reference, in the file's order (by key).
func Bibliography() []Reference {
	refs, err := bibliography()
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return slices.Clone(refs)
}

// Cite finds a reference by key, ignoring case; "RFC 8446" finds RFC8446.
func Cite(key string) (Reference, bool) {
	key = normalKey(key)
	for _, r := range Bibliography() {
		if strings.EqualFold(r.Key, key) {
			return r, true
		}
	}
	return Reference{}, false
}

// normalKey writes the families cited with a space ("RFC 8446", "SEC 1")
// as their keys ("RFC8446", "SEC1").
func normalKey(s string) string {
	if m := spacedKey.FindStringSubmatch(s); m != nil && m[0] == s {
		return strings.ToUpper(m[1]) + m[2]
	}
	return s
}

var spacedKey = regexp.MustCompile(`^(?i)(RFC|SEC) ?(\d+)`)

// Markers a source may start with instead of a key: the number rests on
// no document.
var markers = []string{"unverified", "assumption"}

// SourceKey returns the key a source cites first — its leading key
// (through the first space, colon, comma, semicolon or parenthesis; "RFC
// 8446" as RFC8446) — or the marker it starts with ("unverified",
// "assumption"), and whether it is a marker.
func SourceKey(source string) (key string, marker bool) {
	s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(source), "["))
	lower := strings.ToLower(s)
	for _, m := range markers {
		if strings.HasPrefix(lower, m) {
			return m, true
		}
	}
	if m := spacedKey.FindStringSubmatch(s); m != nil {
		return strings.ToUpper(m[1]) + m[2], false
	}
	end := strings.IndexAny(s, " :,;()]")
	if end < 0 {
		end = len(s)
	}
	return s[:end], false
}

// embeddedKeys are the keys of the families that are cited inline: the
// seed studies and RFCs ("… (S000)", "RFC 6655 §3").
var embeddedKeys = regexp.MustCompile(`\b(S00\d|RFC ?\d{3,4})\b`)

// CitedKeys returns every key a text cites inline (S000…, RFC N), as keys.
func CitedKeys(text string) []string {
	var out []string
	for _, m := range embeddedKeys.FindAllString(text, -1) {
		k := normalKey(m)
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// CheckSource reports what is wrong with a source: it must start with a
// bibliography key or a marker (unverified, assumption), and every key it
// cites inline must be in the bibliography.
func CheckSource(source string) error {
	if strings.TrimSpace(source) == "" {
		return fmt.Errorf("no source: cite a key of catalog/bibliography.yaml, or begin with unverified: or assumption: and say why")
	}
	key, marker := SourceKey(source)
	if !marker {
		if _, ok := Cite(key); !ok {
			return fmt.Errorf("source %q starts with %q, which is no key of catalog/bibliography.yaml: start with a key (add the document there), or with unverified: or assumption: and say why", source, key)
		}
	}
	for _, k := range CitedKeys(source) {
		if _, ok := Cite(k); !ok {
			return fmt.Errorf("source %q cites %s, which is not in catalog/bibliography.yaml", source, k)
		}
	}
	return nil
}

// WriteBibliography writes the bibliography as a Markdown table
// (docs/bibliography.md).
func WriteBibliography(w io.Writer) error {
	fmt.Fprint(w, `# Bibliography

Every number in cryptocost's device profiles, radio profiles, links, models
and cost tables cites one of these by key at the start of its source
("0.26 s [ARO T_PROMOTION]", "1.8 mA [S003: MCU active current]"), or says
it rests on no document ("unverified: …", "assumption: …"). The keys live in
catalog/bibliography.yaml; this page is written from it (go test ./catalog
-update) and the tests fail when a profile, model, link or doc cites a key
that is not here.

| key | reference | note |
|---|---|---|
`)
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, r := range Bibliography() {
		var ref []string
		if r.Authors != "" {
			ref = append(ref, r.Authors)
		}
		ref = append(ref, "*"+r.Title+"*")
		if r.Where != "" {
			ref = append(ref, r.Where)
		}
		if r.Year != "" {
			ref = append(ref, r.Year)
		}
		text := strings.Join(ref, ", ")
		if r.URL != "" {
			text += " <" + r.URL + ">"
		}
		if _, err := fmt.Fprintf(w, "| `%s` | %s | %s |\n", r.Key, cell(text), cell(r.Note)); err != nil {
			return err
		}
	}
	return nil
}
