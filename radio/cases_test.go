package radio

import (
	"testing"
	"time"
)

// Tier: fast. Each input is priced as it is and as each what-if asks:
// after, resumed, and a batch as separate and as one connection; a
// sequence reports what sharing the tail saved.
func TestWhatIfCases(t *testing.T) {
	tr, err := SyntheticTransfer(1024, 10240, 1e6, 1460)
	if err != nil {
		t.Fatal(err)
	}
	w := WhatIfs{After: 2 * time.Second, HasAfter: true, Resumed: tr, ResumedName: "r.json", Handshake: 2, Batch: 3, Every: time.Minute}
	cases, err := w.Cases([]Input{{Name: "x", Source: "s", Trace: tr}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.Name)
	}
	want := []string{"x", "x/then-after-2s", "x/resumed", "x/3x-every-1m0s", "x/3x-batched"}
	if len(names) != len(want) {
		t.Fatalf("cases %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("case %d = %s, want %s", i, names[i], want[i])
		}
	}
	p, err := Lookup("lte")
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := cases[1].Price(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Metric("energy-saved") == nil || r.Subject.Params["shares_tail"] == "" {
		t.Errorf("a sequence has no energy-saved or shares_tail: %+v", r)
	}
	r, _, err = cases[3].Price(p, Options{})
	if err != nil || r.Metric("energy-per-reading") == nil {
		t.Errorf("a batch has no energy-per-reading: %v", err)
	}
}
