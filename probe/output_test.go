package probe

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/result"
)

// TestWriterFor checks the format names probe accepts and that "run"
// writes the measured runs. Tier: fast.
func TestWriterFor(t *testing.T) {
	for _, name := range []string{"table", "TABLE", "json", "run", "csv", "gobench"} {
		if _, err := WriterFor(name, false); err != nil {
			t.Errorf("WriterFor(%q): %v", name, err)
		}
	}
	if _, err := WriterFor("xml", false); err == nil || !strings.Contains(err.Error(), "want table, json, run, csv or gobench") {
		t.Errorf("WriterFor(xml) = %v, want the list of formats", err)
	}
	w, err := WriterFor("run", false)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	run := &result.Run{Schema: result.Schema, ID: "x", Kind: "probe", Status: result.Complete}
	if err := w(&buf, []*Report{{Run: run}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"kind"`) {
		t.Errorf("run format wrote %q, want a result run", buf.String())
	}
}

// TestOutcomeOf checks failures are joined and interrupted targets listed
// in order. Tier: fast.
func TestOutcomeOf(t *testing.T) {
	o := OutcomeOf([]*Report{
		{Target: "a:443", Status: result.Failed, Errors: []string{"refused", "again"}},
		{Target: "b:443", Status: result.Interrupted},
		{Target: "c:443", Status: result.Complete},
		{Target: "d:443", Status: result.Failed, Errors: []string{"timeout"}},
	})
	if o.Failed == nil || o.Failed.Error() != "refused; again\n  timeout" {
		t.Errorf("Failed = %v", o.Failed)
	}
	if len(o.Stopped) != 1 || o.Stopped[0] != "b:443" {
		t.Errorf("Stopped = %v, want [b:443]", o.Stopped)
	}
	if o := OutcomeOf(nil); o.Failed != nil || o.Stopped != nil {
		t.Errorf("OutcomeOf(nil) = %+v, want zero", o)
	}
}
