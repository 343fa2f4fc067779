package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestParseWhen reads dates, times and ages. Tier: fast.
func TestParseWhen(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in       string
		endOfDay bool
		want     time.Time
	}{
		{"", false, time.Time{}},
		{"2026-12-01", false, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{"2026-12-01", true, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)},
		{"2026-12-01T10:00:00Z", true, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)},
		{"7d", false, now.Add(-7 * 24 * time.Hour)},
		{"36h", false, now.Add(-36 * time.Hour)},
	} {
		got, err := ParseWhen(c.in, now, c.endOfDay)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ParseWhen(%q, %v) = %v, %v; want %v", c.in, c.endOfDay, got, err, c.want)
		}
	}
	for _, bad := range []string{"yesterday", "-3d", "-1h"} {
		if _, err := ParseWhen(bad, now, false); err == nil {
			t.Errorf("ParseWhen(%q): no error", bad)
		}
	}
}

// TestFilterCheck refuses unknown origins and negative limits. Tier: fast.
func TestFilterCheck(t *testing.T) {
	for _, f := range []Filter{{}, {Origin: Local}, {Origin: Imported, Limit: 5}} {
		if err := f.Check(); err != nil {
			t.Errorf("%+v: %v", f, err)
		}
	}
	for _, f := range []Filter{{Origin: "remote"}, {Limit: -1}} {
		if err := f.Check(); err == nil {
			t.Errorf("%+v: no error", f)
		}
	}
}

// TestOpenExistingNeverCreates: a store file that does not exist is a
// NoStoreError, and neither it nor its directory is made. Tier: fast.
func TestOpenExistingNeverCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "absent", "results.db")
	_, err := OpenExisting(context.Background(), path)
	var none *NoStoreError
	if !errors.As(err, &none) || none.Path != path {
		t.Fatalf("err = %v, want a NoStoreError for %s", err, path)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenExisting made %s", filepath.Dir(path))
	}
}

// TestSplitPattern splits RUN:PATTERN only when patterns are allowed.
// Tier: fast.
func TestSplitPattern(t *testing.T) {
	if ref, p := splitPattern("latest:aes*", true); ref != "latest" || p != "aes*" {
		t.Errorf("got %q %q", ref, p)
	}
	if ref, p := splitPattern("latest:aes*", false); ref != "latest:aes*" || p != "" {
		t.Errorf("got %q %q", ref, p)
	}
}

// TestCheckImports refuses empty tags, missing files and directories.
// Tier: fast.
func TestCheckImports(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	if err := os.WriteFile(file, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckImports([]string{file}, []string{"pi"}); err != nil {
		t.Error(err)
	}
	for _, c := range []struct{ args, tags []string }{
		{[]string{file}, []string{""}},
		{[]string{filepath.Join(dir, "absent.json")}, nil},
		{[]string{dir}, nil},
	} {
		if err := CheckImports(c.args, c.tags); err == nil {
			t.Errorf("%v %v: no error", c.args, c.tags)
		}
	}
}
