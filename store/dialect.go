package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// A dialect is what differs between the SQL of the two stores: queries
// are written once, with ? placeholders and portable types, and a dialect
// rewrites the few things SQLite and PostgreSQL spell differently. Every
// value reaches the database as a parameter, never in the SQL text.
type dialect struct {
	name string
	// placeholders rewrites ? to the driver's placeholder syntax.
	placeholders func(q string) string
	// types spells the schema's portable column types.
	types *strings.Replacer
	// lockSchema serialises schema changes between processes, inside tx:
	// SQLite's BEGIN IMMEDIATE already holds the database's write lock;
	// PostgreSQL takes an advisory lock for the transaction.
	lockSchema func(ctx context.Context, tx *sql.Tx) error
	// loadSubjects writes a run's result and metric rows: prepared INSERTs
	// on SQLite (in-process, no round trips), COPY on PostgreSQL (one
	// round trip for the whole run, however far the server is).
	loadSubjects func(ctx context.Context, t *txn, rows subjectRows) error
	// isConstraint reports a uniqueness or foreign-key violation.
	isConstraint func(error) bool
	// explain turns a driver's error into what a user can act on.
	explain func(err error, where string) error
}

// Portable column types in the schema's DDL:
//
//	{{float}} an IEEE double (SQLite REAL is 8 bytes; PostgreSQL's REAL is
//	          4, so there DOUBLE PRECISION)
//	{{time}}  a fixed-width UTC time as text (timeLayout), compared
//	          bytewise so that text order is time order in any locale
var (
	sqliteTypes   = strings.NewReplacer("{{float}}", "REAL", "{{time}}", "TEXT")
	postgresTypes = strings.NewReplacer("{{float}}", "DOUBLE PRECISION", "{{time}}", `TEXT COLLATE "C"`)
)

// questionMarks leaves SQLite's ? placeholders as they are.
func questionMarks(q string) string { return q }

// dollarNumbers rewrites ? placeholders to PostgreSQL's $1, $2, …. The
// queries have no ? inside string literals (they take every value as a
// parameter), so a plain scan is exact.
func dollarNumbers(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// txn is one transaction on one connection (COPY needs the connection
// the transaction runs on).
type txn struct {
	tx   *sql.Tx
	conn *sql.Conn
	d    *dialect
}

func (t *txn) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, t.d.placeholders(q), args...)
}

func (t *txn) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, t.d.placeholders(q), args...)
}

func (t *txn) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, t.d.placeholders(q), args...)
}

// The store's own statements outside transactions.

func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, s.d.placeholders(q), args...)
}

func (s *Store) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.db.QueryRowContext(ctx, s.d.placeholders(q), args...)
}

// subjectRows are a run's index rows, as loadSubjects writes them.
type subjectRows struct {
	results [][]any // resultColumns
	metrics [][]any // metricColumns
	// after, when set (tests), runs after result row i is written; an
	// error aborts the save.
	after func(i int) error
}

var (
	resultColumns = []string{"run_id", "idx", "subject", "kind", "scheme", "provider", "family", "operation", "input_bytes", "label", "error"}
	metricColumns = []string{"run_id", "subject", "name", "unit", "label", "n", "median", "ci_low", "ci_high"}
)

func insertSQL(table string, cols []string) string {
	return "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (?" + strings.Repeat(", ?", len(cols)-1) + ")"
}

// insertRows writes rows with prepared INSERTs: SQLite's way, where a
// statement is a function call, not a round trip.
func insertRows(ctx context.Context, t *txn, rows subjectRows) error {
	rs, err := t.tx.PrepareContext(ctx, t.d.placeholders(insertSQL("results", resultColumns)))
	if err != nil {
		return err
	}
	defer rs.Close()
	ms, err := t.tx.PrepareContext(ctx, t.d.placeholders(insertSQL("metrics", metricColumns)))
	if err != nil {
		return err
	}
	defer ms.Close()
	// Metrics follow their result (they reference it): walk both lists.
	m := 0
	for i, r := range rows.results {
		if _, err := rs.ExecContext(ctx, r...); err != nil {
			return subjectError(r, err)
		}
		for ; m < len(rows.metrics) && rows.metrics[m][1] == r[2]; m++ {
			if _, err := ms.ExecContext(ctx, rows.metrics[m]...); err != nil {
				return metricError(rows.metrics[m], err)
			}
		}
		if rows.after != nil {
			if err := rows.after(i); err != nil {
				return err
			}
		}
	}
	return nil
}
