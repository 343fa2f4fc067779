package store

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
	"unicode"

	"github.com/cryptocost/cryptocost/result"
)

// Origin says where a stored run came from.
type Origin struct {
	// Kind is "local" (saved by the cryptocost that made it) or
	// "imported" (read from a file made elsewhere).
	Kind string `json:"kind"`
	// From is the file an imported run was read from, as given.
	From string `json:"from,omitempty"`
	// SHA256 is the hex SHA-256 of that file's bytes, so the file can be
	// matched later to what was imported.
	SHA256 string `json:"sha256,omitempty"`
	// At is when it was imported.
	At time.Time `json:"at,omitzero"`
}

// Origin kinds.
const (
	Local    = "local"
	Imported = "imported"
)

// String describes the origin in a few words for tables.
func (o Origin) String() string {
	if o.Kind != Imported {
		return "made here"
	}
	return fmt.Sprintf("imported from %s (sha256 %.12s…) on %s", o.From, o.SHA256, o.At.UTC().Format(time.RFC3339))
}

// MaxImportBytes caps the size of a file `import` reads: a full default
// bench run with raw samples is a few MB, so 256 MiB is generous, and a
// hostile or mistaken file (a disk image) is refused before it fills
// memory.
const MaxImportBytes = 256 << 20

// Save stores run, made on this machine, in one transaction.
func (s *Store) Save(ctx context.Context, run *result.Run) error {
	doc, err := document(run)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		return s.insertRun(ctx, tx, run, doc, Origin{Kind: Local})
	})
	if err != nil {
		return fmt.Errorf("saving run %s in %s: %w", run.ID, s.path, err)
	}
	return nil
}

// ImportOutcome says what Import did with one run of a file.
type ImportOutcome struct {
	ID string
	// AlreadyStored is true when the same run (same ID, same document)
	// was already in the store: importing a file twice is harmless.
	AlreadyStored bool
	Results       int
}

// Import reads the cryptocost run JSON (one run, or an array of runs) in r,
// made elsewhere, and stores every run of it in one transaction, marked as
// imported from source with the SHA-256 of the bytes read. The documents
// are kept as they are, labels included (see the package comment).
func (s *Store) Import(ctx context.Context, r io.Reader, source string) ([]ImportOutcome, error) {
	limit := int64(cmp.Or(s.maxImport, MaxImportBytes))
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %s: not a cryptocost run file (write one with --format json -o run.json)", source, sizeText(limit))
	}
	runs, err := result.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w (import reads the JSON that --format json writes)", source, err)
	}
	sum := sha256.Sum256(data)
	origin := Origin{Kind: Imported, From: source, SHA256: hex.EncodeToString(sum[:]), At: time.Now().UTC()}
	var out []ImportOutcome
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		for i, run := range runs {
			if run.ID == "" {
				return fmt.Errorf("%s: run %d has no id", source, i)
			}
			doc, err := document(run)
			if err != nil {
				return fmt.Errorf("%s: run %s: %w", source, run.ID, err)
			}
			var stored string
			switch err := tx.QueryRowContext(ctx, `SELECT document FROM runs WHERE id = ?`, run.ID).Scan(&stored); {
			case err == nil:
				if stored != string(doc) {
					return fmt.Errorf("%s: a different run with id %s is already in the store: delete it first (cryptocost runs delete %s) or import into another store with --db", source, run.ID, run.ID)
				}
				out = append(out, ImportOutcome{ID: run.ID, AlreadyStored: true, Results: len(run.Results)})
				continue
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
			if err := s.insertRun(ctx, tx, run, doc, origin); err != nil {
				return fmt.Errorf("%s: run %s: %w", source, run.ID, err)
			}
			out = append(out, ImportOutcome{ID: run.ID, Results: len(run.Results)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// document is the run as the json format writes it, compacted.
func document(run *result.Run) ([]byte, error) {
	if run.ID == "" {
		return nil, errors.New("run has no id")
	}
	// IDs are typed on command lines (show, compare RUN:PATTERN): no
	// spaces, control characters or colons.
	for _, r := range run.ID {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) || r == ':' {
			return nil, fmt.Errorf("run id %q: an id has no spaces, control characters or colons", run.ID)
		}
	}
	if err := run.Validate(); err != nil {
		return nil, fmt.Errorf("run %s: %w", run.ID, err)
	}
	f, err := result.FormatByName("json")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, run); err != nil {
		return nil, fmt.Errorf("run %s: %w", run.ID, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, buf.Bytes()); err != nil {
		return nil, err
	}
	return compact.Bytes(), nil
}

// inTx runs fn in a transaction, committing only if fn succeeds: the
// database/sql contract plus SQLite's atomic commit are what make a save
// all-or-nothing, even if the process dies mid-way (the journal rolls an
// unfinished transaction back on the next open).
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return explain(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return explain(tx.Commit())
}

func (s *Store) insertRun(ctx context.Context, tx *sql.Tx, run *result.Run, doc []byte, o Origin) error {
	for _, t := range run.Tags {
		if err := checkTag(t); err != nil {
			return err
		}
	}
	env := run.Environment
	importedAt := ""
	if o.Kind == Imported {
		importedAt = formatTime(o.At)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO runs (id, kind, status, started, finished, hostname, device,
		goos, goarch, cpu_model, tool_version, tool_commit, results, origin, imported_from, imported_sha256,
		imported_at, saved_at, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		run.ID, run.Kind, string(run.Status), formatTime(run.Started), formatTime(run.Finished), env.Hostname, env.Device,
		env.OS, env.Arch, env.CPUModel, run.Tool.Version, run.Tool.Commit, len(run.Results), o.Kind, o.From, o.SHA256,
		importedAt, formatTime(time.Now()), string(doc))
	if err != nil {
		if isConstraint(err) {
			return fmt.Errorf("a run with id %s is already in the store", run.ID)
		}
		return err
	}
	tags := slices.Clone(run.Tags)
	slices.Sort(tags)
	for _, t := range slices.Compact(tags) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO run_tags (run_id, tag) VALUES (?, ?)`, run.ID, t); err != nil {
			return err
		}
	}
	return insertSubjects(ctx, tx, run, s.afterResult)
}

// insertSubjects writes the index rows of run's results and metrics.
func insertSubjects(ctx context.Context, tx *sql.Tx, run *result.Run, after func(int) error) error {
	for i, r := range run.Results {
		sub := r.Subject
		if _, err := tx.ExecContext(ctx, `INSERT INTO results (run_id, idx, subject, kind, scheme, provider, family,
			operation, input_bytes, label, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			run.ID, i, sub.Name, sub.Kind, sub.Scheme, sub.Provider, sub.Family, sub.Operation, sub.InputBytes,
			string(r.Provenance.Label), r.Error); err != nil {
			return fmt.Errorf("result %q: %w", sub.Name, err)
		}
		for _, m := range r.Metrics {
			sm := m.Summary
			if _, err := tx.ExecContext(ctx, `INSERT INTO metrics (run_id, subject, name, unit, label, n, median,
				ci_low, ci_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				run.ID, sub.Name, m.Name, m.Unit, string(m.Label), sm.N, finite(sm.Median), finite(sm.CILow),
				finite(sm.CIHigh)); err != nil {
				return fmt.Errorf("result %q metric %q: %w", sub.Name, m.Name, err)
			}
		}
		if after != nil {
			if err := after(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// finite maps non-finite values (an unbounded CI) to NULL.
func finite(v float64) any {
	if v != v || v > 1e308 || v < -1e308 {
		return nil
	}
	return v
}

func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
