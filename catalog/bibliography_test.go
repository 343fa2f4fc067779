package catalog_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/link"
	"go.yaml.in/yaml/v3"
)

// Fast tier: reads the repository's data files and docs.

var update = flag.Bool("update", false, "rewrite docs/bibliography.md")

// dataFiles are every data file whose numbers carry sources.
var dataFiles = []string{"../device/devices/*.yaml", "../radio/profiles/*.yaml", "../model/models/*.yaml", "../model/costs/*.yaml"}

// quantityString is "VALUE UNIT [SOURCE]" (catalog.ParseQuantity's form).
var quantityString = regexp.MustCompile(`^\s*[-+]?[0-9][0-9.eE+-]*(\s[^\[]*)?\[(.*)\]\s*$`)

// sources walks a YAML document and calls fn with every source in it and
// where: a quantity's bracket, a source: field, a sources: list entry.
// "unknown [reason]" gives no number and cites nothing.
func sources(n *yaml.Node, path string, fn func(path, source string, line int)) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for i, c := range n.Content {
			sources(c, path+"."+itoa(i), fn)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case k == "source" && v.Kind == yaml.ScalarNode:
				fn(path+"."+k, v.Value, v.Line)
			case k == "sources" && v.Kind == yaml.SequenceNode:
				for _, s := range v.Content {
					fn(path+"."+k, s.Value, s.Line)
				}
			default:
				sources(v, path+"."+k, fn)
			}
		}
	case yaml.ScalarNode:
		if m := quantityString.FindStringSubmatch(n.Value); m != nil {
			fn(path, m[2], n.Line)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestEveryProfileSourceCitesAKey: every source in the device profiles,
// radio profiles, models, cost tables and links starts with a
// bibliography key (or says unverified or assumption), and every key it
// cites inline exists.
func TestEveryProfileSourceCitesAKey(t *testing.T) {
	checked := 0
	for _, pattern := range dataFiles {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", pattern, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			sources(&doc, "", func(path, s string, line int) {
				checked++
				if err := catalog.CheckSource(s); err != nil {
					t.Errorf("%s:%d: %v", strings.TrimPrefix(f, "../"), line, err)
				}
			})
		}
	}
	bracket := regexp.MustCompile(`\[(.*)\]$`)
	for _, p := range link.Profiles() {
		for _, line := range p.Sources() { // "latency 35 ms [source]"
			m := bracket.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("link %s: %q has no [source]", p.Name, line)
				continue
			}
			checked++
			if err := catalog.CheckSource(m[1]); err != nil {
				t.Errorf("link %s: %v", p.Name, err)
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d sources checked: the walk misses some", checked)
	}
}

// TestDocsCiteKnownKeys: every seed study and RFC the docs cite is in
// the bibliography.
func TestDocsCiteKnownKeys(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, k := range catalog.CitedKeys(line) {
				if _, ok := catalog.Cite(k); !ok {
					t.Errorf("%s:%d cites %s, which is not in catalog/bibliography.yaml", strings.TrimPrefix(f, "../"), i+1, k)
				}
			}
		}
	}
}

// TestBibliographyDoc: docs/bibliography.md is the bibliography as a table
// (-update rewrites it).
func TestBibliographyDoc(t *testing.T) {
	var buf bytes.Buffer
	if err := catalog.WriteBibliography(&buf); err != nil {
		t.Fatal(err)
	}
	path := "../docs/bibliography.md"
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./catalog -update writes it)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Error("docs/bibliography.md differs from catalog/bibliography.yaml: go test ./catalog -update")
	}
}

// TestCheckSource: what a source may look like.
func TestCheckSource(t *testing.T) {
	for _, c := range []struct {
		source string
		ok     bool
	}{
		{"S003: MCU active current", true},
		{"[S003] seed003-models.md, SecSyWiSe", true},
		{"ARO T_PROMOTION", true},
		{"RFC 3279 §2.2.3: at most 72 B for P-256", true},
		{"RFC3279 §2.2.3", true},
		{"unverified: as recalled (devices.md)", true},
		{"assumption: a 3.3 V rail", true},
		{"Huang2012 Table 3; RFC 6655 §3", true},
		{"TinyECC 0.2 web page, Table 4", true},
		{"datasheet", false},                 // names no document
		{"S003 with RFC 9999 §1", false},     // an inline RFC that is not listed
		{"what-when-how.com summary", false}, // a web page without a key
		{"", false},
	} {
		if err := catalog.CheckSource(c.source); (err == nil) != c.ok {
			t.Errorf("CheckSource(%q) = %v, want ok %v", c.source, err, c.ok)
		}
	}
	if r, ok := catalog.Cite("rfc 8446"); !ok || r.Key != "RFC8446" {
		t.Errorf("Cite(rfc 8446) = %+v, %v", r, ok)
	}
	if k, marker := catalog.SourceKey("RFC 8446 §5.2: 5 B record header"); k != "RFC8446" || marker {
		t.Errorf("SourceKey = %q, %v", k, marker)
	}
}
