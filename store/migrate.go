package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// A migration moves the schema from version-1 to version. Migrations are
// applied in order, each in its own transaction together with the
// schema_version row that records it, so a store is always at exactly one
// version. Never edit a released migration: append a new one.
type migration struct {
	version int
	name    string
	up      func(ctx context.Context, tx *sql.Tx) error
}

// migrations is the schema's history, oldest first.
var migrations = []migration{
	{1, "runs: one row per run with its JSON document, and tags", execAll(`
		CREATE TABLE runs (
			id            TEXT PRIMARY KEY,
			kind          TEXT NOT NULL,
			status        TEXT NOT NULL,
			started       TEXT NOT NULL, -- UTC, fixed-width (timeLayout), so text order is time order
			finished      TEXT NOT NULL,
			hostname      TEXT NOT NULL DEFAULT '',
			device        TEXT NOT NULL DEFAULT '',
			goos          TEXT NOT NULL DEFAULT '',
			goarch        TEXT NOT NULL DEFAULT '',
			cpu_model     TEXT NOT NULL DEFAULT '',
			tool_version  TEXT NOT NULL DEFAULT '',
			tool_commit   TEXT NOT NULL DEFAULT '',
			results       INTEGER NOT NULL,
			origin        TEXT NOT NULL CHECK (origin IN ('local', 'imported')),
			imported_from TEXT NOT NULL DEFAULT '',
			imported_sha256 TEXT NOT NULL DEFAULT '',
			imported_at   TEXT NOT NULL DEFAULT '',
			saved_at      TEXT NOT NULL,
			document      TEXT NOT NULL -- the run as --format json writes it
		);
		CREATE INDEX runs_started ON runs(started);
		CREATE INDEX runs_kind ON runs(kind, started);
		CREATE INDEX runs_device ON runs(device, started);
		CREATE TABLE run_tags (
			run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
			tag    TEXT NOT NULL,
			PRIMARY KEY (run_id, tag)
		);
		CREATE INDEX run_tags_tag ON run_tags(tag);
	`)},
	{2, "results and metrics: an index of subjects and medians, rebuilt from the documents", migrateSubjects},
	{3, "the metric vocabulary: round 1's documents rewritten to its names and base units, the index rebuilt", migrateVocabulary},
}

// migrateVocabulary rewrites every stored document of schema
// cryptocost/run/v1 with result.Upgrade ("lifetime" in days becomes
// "battery-life" in seconds, times in ns/op become seconds, energies in
// µJ/op or mJ become joules) and rebuilds that run's metric rows, so a run
// saved by round 1 compares with one saved today.
func migrateVocabulary(ctx context.Context, tx *sql.Tx) error {
	docs, err := documents(ctx, tx)
	if err != nil {
		return err
	}
	for _, d := range docs {
		var run result.Run
		if err := json.Unmarshal([]byte(d.doc), &run); err != nil {
			return fmt.Errorf("run %s: stored document unreadable: %w", d.id, err)
		}
		if !result.Upgrade(&run) {
			continue
		}
		doc, err := document(&run)
		if err != nil {
			return fmt.Errorf("run %s: after the upgrade: %w", d.id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE runs SET document = ? WHERE id = ?`, string(doc), d.id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM metrics WHERE run_id = ?`, d.id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM results WHERE run_id = ?`, d.id); err != nil {
			return err
		}
		if err := insertSubjects(ctx, tx, &run, nil); err != nil {
			return fmt.Errorf("run %s: %w", d.id, err)
		}
	}
	return nil
}

type storedDocument struct{ id, doc string }

// documents reads every run's stored JSON document.
func documents(ctx context.Context, tx *sql.Tx) ([]storedDocument, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, document FROM runs`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var docs []storedDocument
	for rows.Next() {
		var d storedDocument
		if err := rows.Scan(&d.id, &d.doc); err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, rows.Err()
}

// migrateSubjects adds per-subject and per-metric rows and fills them from
// the documents already stored: the documents are the truth, so a new
// index never needs the runs to be made again.
func migrateSubjects(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(`
		CREATE TABLE results (
			run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
			idx         INTEGER NOT NULL, -- position in the run
			subject     TEXT NOT NULL,
			kind        TEXT NOT NULL,
			scheme      TEXT NOT NULL DEFAULT '',
			provider    TEXT NOT NULL DEFAULT '',
			family      TEXT NOT NULL DEFAULT '',
			operation   TEXT NOT NULL DEFAULT '',
			input_bytes INTEGER NOT NULL DEFAULT 0,
			label       TEXT NOT NULL DEFAULT '',
			error       TEXT NOT NULL DEFAULT '',
			PRIMARY KEY (run_id, subject)
		);
		CREATE INDEX results_subject ON results(subject);
		CREATE INDEX results_scheme ON results(scheme, operation);
		CREATE TABLE metrics (
			run_id  TEXT NOT NULL,
			subject TEXT NOT NULL,
			name    TEXT NOT NULL,
			unit    TEXT NOT NULL,
			label   TEXT NOT NULL,
			n       INTEGER NOT NULL,
			median  REAL,
			ci_low  REAL,
			ci_high REAL,
			FOREIGN KEY (run_id, subject) REFERENCES results(run_id, subject) ON DELETE CASCADE
		);
		CREATE INDEX metrics_subject ON metrics(run_id, subject);
		CREATE INDEX metrics_name ON metrics(name);
	`)(ctx, tx); err != nil {
		return err
	}
	docs, err := documents(ctx, tx)
	if err != nil {
		return err
	}
	for _, d := range docs {
		var run result.Run
		if err := json.Unmarshal([]byte(d.doc), &run); err != nil {
			return fmt.Errorf("run %s: stored document unreadable: %w", d.id, err)
		}
		if err := insertSubjects(ctx, tx, &run, nil); err != nil {
			return fmt.Errorf("run %s: %w", d.id, err)
		}
	}
	return nil
}

func execAll(ddl string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, ddl)
		return err
	}
}

// SchemaVersion is the schema version this build of cryptocost writes.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// migrate applies the migrations the store lacks.
func (s *Store) migrate(ctx context.Context) error {
	return s.migrateTo(ctx, SchemaVersion())
}

// migrateTo applies migrations up to and including version target (tests
// use it to build a store as an older cryptocost left it).
func (s *Store) migrateTo(ctx context.Context, target int) error {
	// In a write transaction taken at BEGIN (_txlock=immediate): an
	// autocommit statement that reads and then writes can fail at once
	// with SQLITE_BUSY in WAL mode when another process commits between
	// the two, without waiting on busy_timeout.
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
			version    INTEGER PRIMARY KEY,
			name       TEXT NOT NULL,
			applied_at TEXT NOT NULL
		)`)
		return err
	})
	if err != nil {
		return err
	}
	current, err := s.version(ctx)
	if err != nil {
		return err
	}
	if current > SchemaVersion() {
		return fmt.Errorf("schema version %d is newer than this cryptocost knows (%d): upgrade cryptocost, or use another store with --db", current, SchemaVersion())
	}
	for _, m := range migrations {
		if m.version <= current || m.version > target {
			continue
		}
		if err := s.apply(ctx, m); err != nil {
			return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
		}
	}
	return nil
}

func (s *Store) apply(ctx context.Context, m migration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have migrated while this one waited for the
	// lock: check again inside the transaction.
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, m.version).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	if err := m.up(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, formatTime(time.Now())); err != nil {
		return err
	}
	return tx.Commit()
}

// version is the highest migration applied (0 for a new store).
func (s *Store) version(ctx context.Context) (int, error) {
	var v sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// timeLayout is fixed-width so that stored times sort as text.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeLayout, s)
	return t
}
