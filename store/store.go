// Package store keeps cryptocost runs in a results database: an embedded
// SQLite file by default (modernc.org/sqlite: pure Go, no cgo), or a
// PostgreSQL database a lab shares (postgres://…: github.com/jackc/pgx/v5,
// pure Go too, so a board's cross-compiled cryptocost can push to it).
// Both are the same Store: one schema, one list of migrations, the same
// queries, with a dialect (dialect.go) for the few things the two spell
// differently.
//
// Every run is stored twice over: as its full JSON document (the result
// model, raw samples included, exactly what `--format json` writes), and as
// indexed columns (kind, status, times, host, device, tags; one row per
// subject and per metric; the inputs it was priced with) so runs can be
// listed, filtered and tabulated across a fleet without reading documents.
// The document is the truth; the columns are an index that a migration can
// rebuild from it.
//
// A run is saved in one transaction: either all of it is in the store or
// none of it (an interrupted or failed save leaves no half-written run).
// Saving is idempotent, keyed on the run's ID and a hash of its content
// (ContentHash): a run saved or pushed twice is one run, and a different
// run under a stored ID is refused. Many processes on many machines may
// save at once. The schema is versioned: a schema_version table records
// which of the ordered migrations (migrate.go) have been applied, each in
// its own transaction.
//
// Imported runs (made elsewhere: another machine, the cross-compiled
// binary on a board) keep their document unchanged — metric labels stay as
// the measuring run wrote them, because a time measured by a timer on the
// board is a measurement of the board — and the store records the import
// on the run: origin "imported", the file, its SHA-256, the time and the
// machine that imported or pushed it (see Origin). Reports and `show`
// print it.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// EnvDB names an environment variable that, when set, overrides the
// default store (the --db flag overrides both): a file path, or a
// postgres:// URL for a shared store.
const EnvDB = "CRYPTOCOST_DB"

// FileName is the store's file name in the user's data directory.
const FileName = "results.db"

// busyTimeout is how long a writer waits for another cryptocost process
// holding the database lock (two runs finishing at once) before failing.
const busyTimeout = 10 * time.Second

// Store is an open results database.
type Store struct {
	db   *sql.DB
	path string // the file, or the URL without its password
	d    *dialect
	host string // the PostgreSQL server, for messages

	// afterResult, when set (by tests), runs after each result row is
	// inserted inside a save's transaction; an error aborts the save.
	afterResult func(i int) error
	// maxImport overrides MaxImportBytes (tests).
	maxImport int
}

// DefaultPath is where runs are saved unless --db or $CRYPTOCOST_DB say
// otherwise: $XDG_DATA_HOME/cryptocost/results.db, else
// ~/.local/share/cryptocost/results.db on Linux and other Unixes (the XDG
// Base Directory Specification's default); ~/Library/Application
// Support/cryptocost/results.db on macOS; %LocalAppData%\cryptocost\results.db
// on Windows.
func DefaultPath() (string, error) {
	if p := os.Getenv(EnvDB); p != "" {
		return p, nil
	}
	dir, err := dataDir()
	if err != nil {
		return "", fmt.Errorf("no data directory for the results store (%w): give one with --db PATH or $%s", err, EnvDB)
	}
	return filepath.Join(dir, "cryptocost", FileName), nil
}

func dataDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return d, nil
		}
		return "", errors.New("%LocalAppData% is not set")
	case "darwin", "ios":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support"), nil
	case "plan9":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "lib"), nil
	}
	// XDG: a relative $XDG_DATA_HOME is invalid and must be ignored.
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share"), nil
}

// Open opens (creating if needed) the store at path — an SQLite file, or
// a postgres:// URL — or at DefaultPath when path is empty, and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		var err error
		if path, err = DefaultPath(); err != nil {
			return nil, err
		}
	}
	if IsURL(path) {
		return openPostgres(ctx, path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("results store %s is a directory: give a file, such as %s", path, filepath.Join(path, FileName))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("results store %s: %w (choose another with --db PATH)", path, err)
	}
	// A new file's switch to WAL mode can fail at once with SQLITE_BUSY
	// (without waiting on busy_timeout) while another process makes the
	// same switch; retry that, briefly.
	deadline := time.Now().Add(busyTimeout)
	for {
		s, err := openMigrated(ctx, path)
		if err == nil {
			return s, nil
		}
		if !isBusy(err) || time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("results store %s: %w", path, explain(err))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func openMigrated(ctx context.Context, path string) (*Store, error) {
	db, err := openDB(path)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, d: sqlite}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func isBusy(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked"))
}

// openDB opens the SQLite file with the settings every connection needs.
func openDB(path string) (*sql.DB, error) {
	if noDriver != "" {
		return nil, errors.New(noDriver)
	}
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	// WAL lets `runs` read while another process saves a run.
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Writers take the lock when their transaction begins, so two savers
	// queue on busy_timeout instead of failing on a lock upgrade.
	q.Set("_txlock", "immediate")
	return sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
}

var sqlite = &dialect{
	name:         "sqlite",
	placeholders: questionMarks,
	types:        sqliteTypes,
	lockSchema:   func(context.Context, *sql.Tx) error { return nil },
	loadSubjects: insertRows,
	isConstraint: func(err error) bool { return err != nil && strings.Contains(err.Error(), "constraint failed") },
	explain:      func(err error, _ string) error { return explain(err) },
}

// explain turns SQLite's terse errors into what a user can act on.
func explain(err error) error {
	if err == nil {
		return nil
	}
	var done explained
	if errors.As(err, &done) {
		return err // explained where it happened (a migration's transaction)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "file is not a database"), strings.Contains(msg, "SQLITE_NOTADB"):
		return explained{fmt.Errorf("not a cryptocost results store: SQLite cannot read it as a database; give another file with --db (or move this one aside)")}
	case strings.Contains(msg, "readonly"), strings.Contains(msg, "SQLITE_READONLY"):
		return explained{fmt.Errorf("cannot write (read-only): %w; give a writable file with --db", err)}
	}
	return err
}

// explained is an error explain has already turned into advice, so it is
// not explained again on its way up.
type explained struct{ error }

func (e explained) Unwrap() error { return e.error }

// Path is the database file, or the PostgreSQL URL without its password:
// what messages show.
func (s *Store) Path() string { return s.path }

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() string { return s.d.name }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// SaveRun saves run in the store at dbPath ("" for DefaultPath) and closes
// it: the one call every runner makes so that every run is saved by
// default (commands offer --no-save to skip it and --db to choose the
// file). It saves even when ctx is already cancelled — an interrupted run
// keeps what it measured — but gives up after a minute (another process
// holding the lock, a full disk). The run is saved whole or not at all.
func SaveRun(ctx context.Context, dbPath string, run *result.Run) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	s, err := Open(ctx, dbPath)
	if err != nil {
		return err
	}
	if err := s.Save(ctx, run); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// Check opens and closes a PostgreSQL store (db, else $CRYPTOCOST_DB) to
// learn before a long run that it answers and accepts the login; for an
// SQLite file it does nothing (opening one creates it).
func Check(ctx context.Context, db string) error {
	if db == "" {
		db = os.Getenv(EnvDB)
	}
	if !IsURL(db) {
		return nil
	}
	s, err := Open(ctx, db)
	if err != nil {
		return fmt.Errorf("%w (--no-save to run without it)", err)
	}
	return s.Close()
}
