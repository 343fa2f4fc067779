package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// NoStoreError is a read-only command's store that does not exist.
type NoStoreError struct{ Path string }

func (e *NoStoreError) Error() string {
	return fmt.Sprintf("no runs in %s yet: there is no results store there (commands that make runs create it; --db PATH names another)", e.Path)
}

// OpenExisting opens the store at path (DefaultPath when empty) for a
// command that only reads it or changes what it holds (runs, show,
// export, compare, report, plot, runs tag/untag/delete): a store file that
// does not exist is a *NoStoreError, never created, so a mistyped --db
// does not leave an empty store (nor its directory) behind.
func OpenExisting(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		var err error
		if path, err = DefaultPath(); err != nil {
			return nil, err
		}
	}
	if !strings.Contains(path, "://") { // a file, not a database server's URL
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &NoStoreError{path}
		}
	}
	return Open(ctx, path)
}

// Loaded is a run named on the command line, from a file or the store.
type Loaded struct {
	Run     *result.Run
	Origin  string // for headers: "file run.json", the store's origin
	Pattern string // compare's RUN:PATTERN subject filter
}

// Load resolves each argument: an existing file is read as cryptocost
// JSON (one run or an array); anything else is a run ID, unique prefix or
// "latest" in the store at db (opened, with OpenExisting, only if
// needed). With patterns, an argument may end in ":PATTERN".
func Load(ctx context.Context, db string, args []string, patterns bool) ([]Loaded, error) {
	var st *Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	var out []Loaded
	for _, arg := range args {
		ref, pattern := splitPattern(arg, patterns)
		if fi, err := os.Stat(ref); err == nil && !fi.IsDir() {
			runs, err := readRunFile(ref, pattern)
			if err != nil {
				return nil, err
			}
			out = append(out, runs...)
			continue
		}
		if st == nil {
			var err error
			if st, err = OpenExisting(ctx, db); err != nil {
				// name the argument: a mistyped file name reads as a run
				// ID, and the store's own error would not say which
				return nil, fmt.Errorf("%s is not a file, nor a run in the store: %w", ref, err)
			}
		}
		got, err := st.Get(ctx, ref)
		if err != nil {
			return nil, fmt.Errorf("%w (or give a run JSON file)", err)
		}
		out = append(out, Loaded{Run: got.Run, Origin: got.Origin.Label(), Pattern: pattern})
	}
	return out, nil
}

// Label is the origin a header names: "" for a run made here, else
// where it was imported from.
func (o Origin) Label() string {
	if o.Kind == Imported {
		return o.String()
	}
	return ""
}

// readRunFile reads the runs of a run JSON file.
func readRunFile(file, pattern string) ([]Loaded, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	runs, err := result.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []Loaded
	for _, r := range runs {
		out = append(out, Loaded{Run: r, Origin: "file " + file, Pattern: pattern})
	}
	return out, nil
}

// splitPattern splits RUN:PATTERN (a run and the subjects to take from
// it) when patterns are allowed and arg is not a file's name.
func splitPattern(arg string, patterns bool) (ref, pattern string) {
	if patterns {
		if _, err := os.Stat(arg); err != nil {
			if i := strings.IndexByte(arg, ':'); i > 0 {
				return arg[:i], arg[i+1:]
			}
		}
	}
	return arg, ""
}

// IDs lists the IDs of the stored runs f selects, oldest first.
func (s *Store) IDs(ctx context.Context, f Filter) ([]string, error) {
	runs, err := s.List(ctx, f)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	slices.Reverse(ids)
	return ids, nil
}

// ParseWhen reads a date, an RFC 3339 time or an age ("7d", "36h")
// before now; "" is the zero time (no bound). A bare date used as an
// upper bound (endOfDay) means the end of that day.
func ParseWhen(s string, now time.Time, endOfDay bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if endOfDay {
			t = t.Add(24 * time.Hour)
		}
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	days := 0.0
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if _, err := fmt.Sscanf(n, "%g", &days); err == nil && days >= 0 {
			return now.Add(-time.Duration(days * 24 * float64(time.Hour))), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2026-12-01), a time (2026-12-01T10:00:00Z) or an age (36h, 7d)", s)
}

// Check refuses the filter values List cannot mean: an unknown origin, a
// negative limit.
func (f Filter) Check() error {
	switch f.Origin {
	case "", Local, Imported:
	default:
		return fmt.Errorf("--origin %q: want local or imported", f.Origin)
	}
	if f.Limit < 0 {
		return fmt.Errorf("--limit %d: want a number of runs, or 0 for all", f.Limit)
	}
	return nil
}
