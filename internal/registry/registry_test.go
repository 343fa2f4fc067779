package registry

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Tier: fast. Folding, aliases, clashes, order, and the suggestions a
// typo gets.
func TestRegistry(t *testing.T) {
	r := New[int]("link")
	r.MustAdd("WiFi-802.11g", 1, "wifi", "802.11g")
	r.MustAdd("LTE", 2, "4g")
	r.MustAdd("3G", 3, "umts")
	for name, want := range map[string]int{"wifi80211g": 1, "WIFI": 1, "80211G": 1, "lte": 2, "4-G": 2, "3g": 3} {
		if got, ok := r.Lookup(name); !ok || got != want {
			t.Errorf("Lookup(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
	if err := r.Add("Wi-Fi", 9); err == nil || !strings.Contains(err.Error(), "already names WiFi-802.11g") {
		t.Errorf("a clashing name: err = %v", err)
	}
	if got := r.Names(); !slices.Equal(got, []string{"WiFi-802.11g", "LTE", "3G"}) {
		t.Errorf("Names() = %v, want registration order", got)
	}
	if got := r.Sorted(); !slices.Equal(got, []string{"3G", "LTE", "WiFi-802.11g"}) {
		t.Errorf("Sorted() = %v", got)
	}
	_, err := r.Get("lte-a")
	var ue *UnknownError
	if !errors.As(err, &ue) || err.Error() != `unknown link "lte-a": want one of WiFi-802.11g, LTE, 3G; did you mean LTE?` {
		t.Errorf("Get(lte-a) = %v", err)
	}
	if _, err := r.Get("zigbee"); strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a name near nothing got a suggestion: %v", err)
	}
}

func TestClosest(t *testing.T) {
	cands := []Candidate{{Name: "SHA-256"}, {Name: "SHA-512"}, {Name: "AES-128", Aliases: []string{"aes"}}, {Name: "lte-aro"}, {Name: "lte-huang2012"}}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"sha265", []string{"SHA-256"}}, // a transposition
		{"aes", []string{"AES-128"}},
		{"lt", []string{"lte-aro", "lte-huang2012"}},
		{"ae", []string{"AES-128"}}, // not every name two edits from a 2-letter query
		{"xyzzy", nil},
	} {
		got := Closest(tc.in, cands, 2)
		if len(got) > len(tc.want) {
			got = got[:len(tc.want)]
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	if NaturalCompare("RSA-512", "RSA-1024") >= 0 || NaturalCompare("AES-128", "aes-256") >= 0 {
		t.Error("NaturalCompare does not order numbers numerically")
	}
}
