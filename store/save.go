package store

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	// By is the host name of the machine that imported or pushed it.
	By string `json:"by,omitempty"`
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
	s := fmt.Sprintf("imported from %s (sha256 %.12s…) on %s", o.From, o.SHA256, o.At.UTC().Format(time.RFC3339))
	if o.By != "" {
		s += " by " + o.By
	}
	return s
}

// MaxImportBytes caps the size of a file `import` reads: a full default
// bench run with raw samples is a few MB, so 256 MiB is generous, and a
// hostile or mistaken file (a disk image) is refused before it fills
// memory.
const MaxImportBytes = 256 << 20

// Save stores run, made on this machine, in one transaction. Saving a run
// that is already stored (the same ID and content: ContentHash) adds its
// tags and is otherwise a no-op; a different run under a stored ID is
// refused.
func (s *Store) Save(ctx context.Context, run *result.Run) error {
	doc, hash, err := documentAndHash(run)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(t *txn) error {
		_, err := s.insertRun(ctx, t, run, doc, hash, Origin{Kind: Local})
		return err
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
	return s.ImportTagged(ctx, r, source, nil)
}

// ImportTagged is Import with tags added to every run, in the same
// transaction.
func (s *Store) ImportTagged(ctx context.Context, r io.Reader, source string, tags []string) ([]ImportOutcome, error) {
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
	by, _ := os.Hostname()
	origin := Origin{Kind: Imported, From: source, SHA256: hex.EncodeToString(sum[:]), At: time.Now().UTC(), By: by}
	var out []ImportOutcome
	err = s.inTx(ctx, func(t *txn) error {
		out = out[:0]
		for i, run := range runs {
			if run.ID == "" {
				return fmt.Errorf("%s: run %d has no id", source, i)
			}
			for _, tag := range tags {
				if !slices.Contains(run.Tags, tag) {
					run.Tags = append(run.Tags, tag)
				}
			}
			doc, hash, err := documentAndHash(run)
			if err != nil {
				return fmt.Errorf("%s: run %s: %w", source, run.ID, err)
			}
			inserted, err := s.insertRun(ctx, t, run, doc, hash, origin)
			if err != nil {
				return fmt.Errorf("%s: %w", source, err)
			}
			out = append(out, ImportOutcome{ID: run.ID, AlreadyStored: !inserted, Results: len(run.Results)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ContentHash is the hex SHA-256 of what a run measured: its document as
// the store keeps it, without its tags (tags are the store's to change:
// `runs tag`, `--tag` on save or import). It keys idempotent saves: the
// same run saved, imported or pushed twice — from its -o file, from an
// export, from the file kept when a save failed — hashes the same.
func ContentHash(run *result.Run) (string, error) {
	_, hash, err := documentAndHash(run)
	return hash, err
}

// documentAndHash is the run's document and its ContentHash, encoding the
// run once when it has no tags (most runs), twice when it has.
func documentAndHash(run *result.Run) (doc []byte, hash string, err error) {
	bare := *run
	bare.Tags = nil
	if doc, err = document(&bare); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(doc)
	if len(run.Tags) > 0 {
		if doc, err = document(run); err != nil {
			return nil, "", err
		}
	}
	return doc, hex.EncodeToString(sum[:]), nil
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
	for _, in := range run.Inputs {
		if err := in.Check(); err != nil {
			return nil, fmt.Errorf("run %s: %w", run.ID, err)
		}
	}
	if len(run.Command) > 0 {
		// A password typed in --db postgres://user:secret@… never reaches
		// the store (runs record their command line).
		c := *run
		c.Command = RedactArgs(run.Command)
		run = &c
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

// inTx runs fn in a transaction on one connection, committing only if fn
// succeeds: the database/sql contract plus the database's atomic commit
// are what make a save all-or-nothing, even if the process dies mid-way
// (SQLite's journal rolls an unfinished transaction back on the next open;
// PostgreSQL aborts a transaction whose client went away).
func (s *Store) inTx(ctx context.Context, fn func(*txn) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return s.d.explain(err, s.host)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return s.d.explain(err, s.host)
	}
	defer tx.Rollback()
	if err := fn(&txn{tx: tx, conn: conn, d: s.d}); err != nil {
		return err
	}
	return s.d.explain(tx.Commit(), s.host)
}

// insertRun stores run with its tags, index rows and inputs, unless a run
// with its ID is already stored: then, if that run has the same content
// hash, it adds run's tags and reports inserted false; if not, it fails.
// The INSERT … ON CONFLICT DO NOTHING makes two writers of one run (two
// pushes of a file at once) meet at the row lock: the second waits for the
// first to commit, then finds the run stored.
func (s *Store) insertRun(ctx context.Context, t *txn, run *result.Run, doc []byte, hash string, o Origin) (inserted bool, err error) {
	for _, tag := range run.Tags {
		if err := checkTag(tag); err != nil {
			return false, err
		}
	}
	env := run.Environment
	importedAt := ""
	if o.Kind == Imported {
		importedAt = formatTime(o.At)
	}
	res, err := t.exec(ctx, `INSERT INTO runs (id, kind, status, started, finished, hostname, device,
		goos, goarch, cpu_model, tool_version, tool_commit, results, origin, imported_from, imported_sha256,
		imported_at, saved_at, document, content_sha256, machine_id, imported_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		run.ID, run.Kind, string(run.Status), formatTime(run.Started), formatTime(run.Finished), env.Hostname, env.Device,
		env.OS, env.Arch, env.CPUModel, run.Tool.Version, run.Tool.Commit, len(run.Results), o.Kind, o.From, o.SHA256,
		importedAt, formatTime(time.Now()), string(doc), hash, env.MachineID, o.By)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	if n == 0 {
		var stored string
		if err := t.queryRow(ctx, `SELECT content_sha256 FROM runs WHERE id = ?`, run.ID).Scan(&stored); err != nil {
			return false, fmt.Errorf("run %s: %w", run.ID, err)
		}
		if stored != hash {
			return false, fmt.Errorf("a different run with id %s is already in the store: delete it first (cryptocost runs delete %s) or use another store with --db", run.ID, run.ID)
		}
		return false, insertTags(ctx, t, run.ID, run.Tags)
	}
	if err := insertTags(ctx, t, run.ID, run.Tags); err != nil {
		return false, err
	}
	if err := insertInputs(ctx, t, run); err != nil {
		return false, err
	}
	return true, insertSubjects(ctx, t, run, s.afterResult)
}

func insertTags(ctx context.Context, t *txn, id string, tags []string) error {
	tags = slices.Clone(tags)
	slices.Sort(tags)
	for _, tag := range slices.Compact(tags) {
		if _, err := t.exec(ctx, `INSERT INTO run_tags (run_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, tag); err != nil {
			return err
		}
	}
	return nil
}

// insertInputs indexes the inputs the run carries (their content stays in
// the document).
func insertInputs(ctx context.Context, t *txn, run *result.Run) error {
	for _, in := range run.Inputs {
		if _, err := t.exec(ctx, `INSERT INTO run_inputs (run_id, kind, name, sha256, source) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, run.ID, in.Kind, in.Name, in.SHA256, in.Source); err != nil {
			return fmt.Errorf("input %s %s: %w", in.Kind, in.Name, err)
		}
	}
	return nil
}

// insertSubjects writes the index rows of run's results and metrics.
func insertSubjects(ctx context.Context, t *txn, run *result.Run, after func(int) error) error {
	rows := subjectRows{after: after}
	for i, r := range run.Results {
		sub := r.Subject
		rows.results = append(rows.results, []any{run.ID, i, sub.Name, sub.Kind, sub.Scheme, sub.Provider, sub.Family,
			sub.Operation, sub.InputBytes, string(r.Provenance.Label), r.Error})
		for _, m := range r.Metrics {
			sm := m.Summary
			rows.metrics = append(rows.metrics, []any{run.ID, sub.Name, m.Name, m.Unit, string(m.Label), sm.N,
				finite(sm.Median), finite(sm.CILow), finite(sm.CIHigh)})
		}
	}
	return t.d.loadSubjects(ctx, t, rows)
}

func subjectError(row []any, err error) error { return fmt.Errorf("result %q: %w", row[2], err) }

func metricError(row []any, err error) error {
	return fmt.Errorf("result %q metric %q: %w", row[1], row[2], err)
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
