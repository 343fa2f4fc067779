package bench

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestPlanProviders: a provider that no one declared is an error naming
// the known ones, before any work; a Go provider filters as before. (C
// providers are tested where they are linked: scheme/provider/all and
// cmd/cryptocost.) Fast tier.
func TestPlanProviders(t *testing.T) {
	if _, err := NewPlan(Options{Algos: []string{"SHA-256"}, Providers: []string{"nosuchlib"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown provider "nosuchlib"`) {
		t.Errorf("unknown provider: %v", err)
	}
	p, err := NewPlan(Options{Algos: []string{"X25519"}, Providers: []string{"go"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Schemes {
		if s.Info().Provider != "go" {
			t.Errorf("--provider go planned %s", s.Info().ID())
		}
	}
}

// TestIsBaseline: the subject of the Go implementation a name resolves to
// is the baseline; another provider's is not. Fast tier.
func TestIsBaseline(t *testing.T) {
	if !IsBaseline(result.Subject{Scheme: "X25519", Provider: "go"}) {
		t.Error("X25519@go is not the baseline")
	}
	if IsBaseline(result.Subject{Scheme: "X25519", Provider: "x/crypto"}) {
		t.Error("X25519@x/crypto is the baseline")
	}
}
