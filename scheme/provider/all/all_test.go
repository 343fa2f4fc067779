package all

import (
	"testing"

	"github.com/cryptocost/cryptocost/scheme"
)

// providedSchemes are the registered schemes of C providers.
func providedSchemes(t *testing.T) []scheme.Scheme {
	var out []scheme.Scheme
	for _, s := range scheme.All() {
		if scheme.IsCProvider(s.Info().Provider) {
			out = append(out, s)
		}
	}
	return out
}

// TestProvidedKnownAnswers runs every C provider scheme's KAT: the Go
// scheme's vectors through the library calls that are timed. Fast tier.
func TestProvidedKnownAnswers(t *testing.T) {
	for _, s := range providedSchemes(t) {
		t.Run(s.Info().ID(), func(t *testing.T) {
			if err := s.KAT(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
