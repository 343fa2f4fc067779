package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSelectionRefs takes the runs named, or the stored runs --all or
// --since picks, oldest first; both or neither, a bad date and a
// selection of none are errors in export's words. Tier: fast.
func TestSelectionRefs(t *testing.T) {
	ctx := context.Background()
	db := savedStore(t, testRun("R2", "bench", t0.Add(time.Hour), 1), testRun("R1", "bench", t0, 1))
	for _, c := range []struct {
		sel  Selection
		refs []string
		want string
	}{
		{Selection{}, []string{"latest", "x.json"}, "latest,x.json"},
		{Selection{All: true}, nil, "R1,R2"},
		{Selection{Since: "2026-12-01T10:30:00Z"}, nil, "R2"},
	} {
		got, err := c.sel.Refs(ctx, db, c.refs)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("%+v %q: %q, %v; want %q", c.sel, c.refs, got, err, c.want)
		}
	}
	for _, c := range []struct {
		sel  Selection
		refs []string
		db   string
		want string
	}{
		{Selection{}, nil, db, "give the runs to export (RUN..., or latest), or --all, or --since DATE|AGE: one of them"},
		{Selection{All: true}, []string{"latest"}, db, "give the runs to export"},
		{Selection{Since: "soon"}, nil, db, `--since: "soon" is not a date`},
		{Selection{Since: "2027-01-01"}, nil, db, "no runs to export: the store has none since 2027-01-01"},
		{Selection{All: true}, nil, filepath.Join(t.TempDir(), "absent.db"), "no runs in "},
	} {
		if _, err := c.sel.Refs(ctx, c.db, c.refs); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v %q: err = %v, want %q", c.sel, c.refs, err, c.want)
		}
	}
}
