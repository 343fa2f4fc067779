package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// TestListRequestCheck refuses what runs cannot mean before the store is
// opened, in the command's words, and reads the dates into the filter.
// Tier: fast.
func TestListRequestCheck(t *testing.T) {
	for _, c := range []struct {
		req  ListRequest
		want string
	}{
		{ListRequest{Format: "csv"}, `unknown format "csv" for runs: want table or json`},
		{ListRequest{Format: "table", Since: "yesterday"}, `--since: "yesterday" is not a date`},
		{ListRequest{Format: "json", Until: "soon"}, `--until: "soon" is not a date`},
		{ListRequest{Format: "table", Filter: Filter{Origin: "remote"}}, `--origin "remote": want local or imported`},
		{ListRequest{Format: "table", Filter: Filter{Limit: -1}}, `--limit -1: want a number of runs, or 0 for all`},
		{ListRequest{Format: "table", By: "host"}, `--by "host": want device`},
	} {
		err := c.req.Check()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.req, err, c.want)
		}
	}
	req := ListRequest{Format: "table", Since: "2026-12-01", Until: "2026-12-01", By: "device"}
	if err := req.Check(); err != nil {
		t.Fatal(err)
	}
	if !req.Filter.Since.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) || !req.Filter.Until.Equal(time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("since %v, until %v: want the day 2026-12-01", req.Filter.Since, req.Filter.Until)
	}
}

// savedStore is a store file holding the runs, closed.
func savedStore(t *testing.T, runs ...*result.Run) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, r := range runs {
		if err := s.Save(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestListRequestWrite lists runs and devices as a table or JSON; no
// store is an empty list (and is not created); a cut list says so.
// Tier: fast.
func TestListRequestWrite(t *testing.T) {
	ctx := context.Background()
	absent := filepath.Join(t.TempDir(), "absent.db")
	for format, want := range map[string]string{"json": "[]\n", "table": "no runs in " + absent + " yet"} {
		var out bytes.Buffer
		if err := (&ListRequest{Format: format}).Write(ctx, absent, &out, &out); err != nil || !strings.HasPrefix(out.String(), want) {
			t.Errorf("%s, no store: %q, %v; want %q", format, out.String(), err, want)
		}
	}
	if _, err := os.Stat(absent); err == nil {
		t.Error("listing created the store")
	}
	db := savedStore(t, testRun("R1", "bench", t0, 1), testRun("R2", "tls", t0.Add(time.Hour), 1))
	for _, c := range []struct {
		req         ListRequest
		out, notOut string
		errOut      string
	}{
		{req: ListRequest{Format: "table", Filter: Filter{Limit: 1}}, out: "R2", notOut: "R1", errOut: "showing the 1 most recent: --limit 0 for all\n"},
		{req: ListRequest{Format: "table"}, out: "R1"},
		{req: ListRequest{Format: "table", Filter: Filter{Kind: "model"}}, out: "no runs match in " + db},
		{req: ListRequest{Format: "json", Filter: Filter{Kind: "model"}}, out: "[]"},
		{req: ListRequest{Format: "json", Filter: Filter{Kind: "tls"}}, out: `"id": "R2"`, notOut: "R1"},
		{req: ListRequest{Format: "table", By: "device"}, out: "DEVICE"},
		{req: ListRequest{Format: "json", By: "device"}, out: `"runs": 2`},
	} {
		var out, errOut bytes.Buffer
		if err := c.req.Write(ctx, db, &out, &errOut); err != nil {
			t.Fatalf("%+v: %v", c.req, err)
		}
		if !strings.Contains(out.String(), c.out) || (c.notOut != "" && strings.Contains(out.String(), c.notOut)) || errOut.String() != c.errOut {
			t.Errorf("%+v: out %q, stderr %q; want %q, not %q, stderr %q", c.req, out.String(), errOut.String(), c.out, c.notOut, c.errOut)
		}
	}
}

// TestRetagDelete tags, untags and deletes runs by prefix, saying which,
// and refuses a store that does not exist without creating it.
// Tier: fast.
func TestRetagDelete(t *testing.T) {
	ctx := context.Background()
	db := savedStore(t, testRun("R1-aaaa", "bench", t0, 1), testRun("R2-bbbb", "bench", t0.Add(time.Hour), 1))
	var out bytes.Buffer
	if err := Retag(ctx, db, false, "R1", []string{"pi", "baseline"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := Retag(ctx, db, true, "R1", []string{"pi"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := DeleteRuns(ctx, db, []string{"R2", "R1"}, &out); err != nil {
		t.Fatal(err)
	}
	want := "tagged R1-aaaa: pi, baseline\nuntagged R1-aaaa: pi\ndeleted R2-bbbb\ndeleted R1-aaaa\n"
	if out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	if err := DeleteRuns(ctx, db, []string{"R1"}, &out); err == nil {
		t.Error("deleting a deleted run: no error")
	}
	absent := filepath.Join(t.TempDir(), "absent.db")
	if err := Retag(ctx, absent, false, "latest", []string{"x"}, &out); err == nil || !strings.Contains(err.Error(), "no runs in") {
		t.Errorf("tagging in no store: %v", err)
	}
	if _, err := os.Stat(absent); err == nil {
		t.Error("tagging created the store")
	}
}

// TestCompleteIDsKinds completes run IDs (and latest) and each kind once
// from the store; no store completes latest alone, and is not created.
// Tier: fast.
func TestCompleteIDsKinds(t *testing.T) {
	ctx := context.Background()
	db := savedStore(t, testRun("20261201-a", "bench", t0, 1), testRun("20261202-b", "bench", t0.Add(time.Hour), 1),
		testRun("X-c", "tls", t0.Add(2*time.Hour), 1))
	for _, c := range []struct {
		got  []string
		want string
	}{
		{CompleteIDs(ctx, db, ""), "latest,X-c,20261202-b,20261201-a"},
		{CompleteIDs(ctx, db, "2026"), "20261202-b,20261201-a"},
		{CompleteIDs(ctx, db, "la"), "latest"},
		{CompleteKinds(ctx, db, ""), "tls,bench"},
		{CompleteKinds(ctx, db, "b"), "bench"},
	} {
		if got := strings.Join(c.got, ","); got != c.want {
			t.Errorf("completed %q, want %q", got, c.want)
		}
	}
	absent := filepath.Join(t.TempDir(), "absent.db")
	if got := CompleteIDs(ctx, absent, ""); strings.Join(got, ",") != "latest" {
		t.Errorf("no store: %q, want latest", got)
	}
	if got := CompleteKinds(ctx, absent, ""); len(got) != 0 {
		t.Errorf("no store: kinds %q", got)
	}
	if _, err := os.Stat(absent); err == nil {
		t.Error("completing created the store")
	}
}
