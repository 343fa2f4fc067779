package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadMatrix: report --fleet's read of a store gives the store's
// Matrix with its source named, never creates a store, and says which
// flag a bad window came from. Tier: fast (SQLite in a temp dir).
func TestReadMatrix(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "results.db")
	var nostore *NoStoreError
	if _, _, err := ReadMatrix(ctx, path, ""); !errors.As(err, &nostore) {
		t.Fatalf("a missing store: %v, want a NoStoreError", err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fleetRuns() {
		if err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	want, err := s.Matrix(ctx, Filter{})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	cells, source, err := ReadMatrix(ctx, path, "")
	if err != nil || source != path || !reflect.DeepEqual(cells, want) || len(cells) == 0 {
		t.Fatalf("ReadMatrix = %d cells, %q, %v; want the store's %d cells from %q", len(cells), source, err, len(want), path)
	}
	if _, source, err = ReadMatrix(ctx, path, "3650d"); err != nil || source != path+", runs since 3650d" {
		t.Errorf("with --since: %q, %v", source, err)
	}
	if _, _, err := ReadMatrix(ctx, path, "yesterdayish"); err == nil || !strings.HasPrefix(err.Error(), "--since: ") {
		t.Errorf("a bad --since: %v", err)
	}
}
