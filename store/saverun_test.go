package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SaveTagged adds the tags a run lacks and says where it saved it; a
// store that cannot be written keeps the run in a file and says how to
// push it.
func TestSaveTagged(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv(EnvDB, "")
	run := testRun("R-tagged", "bench", t0, 1)
	run.Tags = []string{"pi"}
	msg, err := SaveTagged(context.Background(), "", run, []string{"pi", "baseline"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "saved run R-tagged in " + filepath.Join(dir, "cryptocost", FileName); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	if got := strings.Join(run.Tags, ","); got != "pi,baseline" {
		t.Errorf("tags %s, want pi,baseline", got)
	}

	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(notADir, "x.db")
	_, err = SaveTagged(context.Background(), bad, testRun("R-kept", "bench", t0, 1), nil)
	kept := filepath.Join(dir, "cryptocost", "unsaved", "R-kept.json")
	if err == nil || !strings.HasPrefix(err.Error(), "run R-kept not saved: ") ||
		!strings.Contains(err.Error(), "(--db PATH to choose another store, --no-save to skip)\ncryptocost: the run is kept in "+kept+": cryptocost push --db "+bad+" "+kept+" when the store is back") {
		t.Errorf("an unwritable store: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the run was not kept: %v", err)
	}
}

func TestCheckTags(t *testing.T) {
	for _, tc := range []struct {
		tags []string
		err  string
	}{
		{nil, ""},
		{[]string{"baseline", "pi-zero"}, ""},
		{[]string{"ok", ""}, `bad --tag "": use a word without spaces, such as baseline or pi-zero`},
		{[]string{"two words"}, `bad --tag "two words": use a word without spaces, such as baseline or pi-zero`},
		{[]string{"tab\there"}, `bad --tag "tab\there": use a word without spaces, such as baseline or pi-zero`},
	} {
		err := CheckTags(tc.tags)
		if got := tagErrText(err); got != tc.err {
			t.Errorf("CheckTags(%q) = %q, want %q", tc.tags, got, tc.err)
		}
	}
}

func tagErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
