package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// A shared store is a PostgreSQL database (github.com/jackc/pgx/v5, pure
// Go, so every cross-compiled cryptocost has it, the MIPS build included),
// named by a URL:
//
//	postgres://USER@HOST:PORT/DATABASE?sslmode=verify-full
//
// Credentials come only from where libpq's users keep them — the URL, the
// PG* environment variables ($PGPASSWORD, $PGUSER, …) or the password file
// ~/.pgpass ($PGPASSFILE) — as pgx reads them; the store never prints a
// password (Path shows the URL without it) and never stores one in a run
// (the run's command line is redacted before it is saved, see RedactArgs).
// sslmode is honoured as libpq defines it (pgx's default is prefer).

// defaultConnectTimeout bounds connecting when the URL and
// $PGCONNECT_TIMEOUT set no connect_timeout: a board on a lab network
// learns within seconds that the server is unreachable, keeps its run in a
// file and says so, rather than hanging on the kernel's TCP retries
// (about two minutes on Linux).
const defaultConnectTimeout = 5 * time.Second

// schemaLock is the PostgreSQL advisory lock key that serialises schema
// migrations between processes (an arbitrary constant: "crco" in ASCII).
const schemaLock = 0x6372636f

// IsURL reports whether db names a PostgreSQL store rather than an SQLite
// file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

var postgres = &dialect{
	name:         "postgres",
	placeholders: dollarNumbers,
	types:        postgresTypes,
	lockSchema: func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock)
		return err
	},
	loadSubjects: copyRows,
	isConstraint: func(err error) bool {
		var pe *pgconn.PgError
		// Class 23: integrity constraint violation.
		return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "23")
	},
	explain: explainPostgres,
}

func openPostgres(ctx context.Context, raw string) (*Store, error) {
	shown := Redact(raw)
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		// pgx's parse errors can quote the URL: say what is wrong without it.
		return nil, fmt.Errorf("results store %s: not a PostgreSQL URL (%s): write it as postgres://USER@HOST:PORT/DATABASE?sslmode=require", shown, parseProblem(err))
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = defaultConnectTimeout
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "cryptocost"
	}
	db := stdlib.OpenDB(*cfg)
	// A few connections are all one cryptocost process needs; a lab's
	// server serves many.
	db.SetMaxOpenConns(4)
	s := &Store{db: db, path: shown, d: postgres, host: hostOf(cfg)}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("results store %s: %w", shown, explainPostgres(err, s.host))
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("results store %s: %w", shown, explainPostgres(err, s.host))
	}
	return s, nil
}

// parseProblem is pgx's parse error without any text of the URL.
func parseProblem(err error) string {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) && pe.Unwrap() != nil {
		return pe.Unwrap().Error()
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return "cannot parse it"
}

// hostOf names the server for messages: host:port, or the socket
// directory.
func hostOf(cfg *pgx.ConnConfig) string {
	if strings.HasPrefix(cfg.Host, "/") {
		return fmt.Sprintf("%s (unix socket, port %d)", cfg.Host, cfg.Port)
	}
	return net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
}

// explainPostgres says what failed and what to check, naming the server
// (never the password).
func explainPostgres(err error, host string) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return fmt.Errorf("the PostgreSQL server at %s refused the login: %s; check the user and password (in the URL, $PGPASSWORD or ~/.pgpass, whose lines read host:port:database:user:password) and the server's pg_hba.conf", host, pe.Message)
		case "3D000": // invalid_catalog_name
			return fmt.Errorf("the PostgreSQL server at %s has no such database: %s; create it (createdb, or CREATE DATABASE) or fix the URL's path", host, pe.Message)
		case "42501": // insufficient_privilege
			return fmt.Errorf("the PostgreSQL server at %s: %s; the store's user needs to create tables in the database (GRANT CREATE ON SCHEMA public, or make it the database's owner)", host, pe.Message)
		}
		return fmt.Errorf("PostgreSQL at %s: %w", host, err)
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || isNetError(err) {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "server refused TLS"):
			return fmt.Errorf("the PostgreSQL server at %s does not offer TLS, and the URL's sslmode requires it: enable ssl on the server, or (on a trusted network only) use sslmode=prefer or disable", host)
		case strings.Contains(msg, "tls:") || strings.Contains(msg, "x509:"):
			return fmt.Errorf("TLS with the PostgreSQL server at %s failed: %s; check the server's certificate and sslrootcert (sslmode=verify-full checks the host name too)", host, lastCause(err))
		case errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "timeout"):
			return fmt.Errorf("cannot reach the PostgreSQL server at %s: no answer within the connect timeout; check the host and port in the URL, that the server runs and listens there (listen_addresses), and the network or firewall between (connect_timeout=SECONDS in the URL waits longer)", host)
		}
		return fmt.Errorf("cannot reach the PostgreSQL server at %s: %s; check the host and port in the URL, that the server runs and listens there (listen_addresses), and the network or firewall between", host, lastCause(err))
	}
	return err
}

func isNetError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// lastCause is the innermost part of a connect error ("connect:
// connection refused", "lookup db.lab: no such host"), which is what a
// user can act on: pgconn's message lists every address it tried.
func lastCause(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Op + ": " + oe.Err.Error()
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return de.Error()
	}
	for {
		u := errors.Unwrap(err)
		if u == nil {
			break
		}
		err = u
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// copyRows loads a run's result and metric rows with COPY, on the
// connection the transaction runs on.
func copyRows(ctx context.Context, t *txn, rows subjectRows) error {
	return t.conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		src := &resultSource{rows: rows.results, after: rows.after, i: -1}
		if _, err := c.CopyFrom(ctx, pgx.Identifier{"results"}, resultColumns, src); err != nil {
			if src.err != nil {
				return src.err // the server's "COPY from stdin failed" hides the cause
			}
			return err
		}
		if len(rows.metrics) == 0 {
			return nil
		}
		_, err := c.CopyFrom(ctx, pgx.Identifier{"metrics"}, metricColumns, pgx.CopyFromRows(rows.metrics))
		return err
	})
}

// resultSource feeds result rows to COPY, calling the test hook after each.
type resultSource struct {
	rows  [][]any
	after func(int) error
	i     int
	err   error
}

func (r *resultSource) Next() bool {
	if r.i >= 0 && r.after != nil {
		if r.err = r.after(r.i); r.err != nil {
			return false
		}
	}
	r.i++
	return r.i < len(r.rows)
}

func (r *resultSource) Values() ([]any, error) { return r.rows[r.i], nil }
func (r *resultSource) Err() error             { return r.err }

// Redact returns db as it may be shown: a PostgreSQL URL without its
// password (in the user part or a password= parameter); anything else
// unchanged.
func Redact(db string) string {
	if !IsURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return redactText(db)
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	for _, k := range []string{"password", "sslpassword"} {
		if q.Has(k) {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

var (
	urlPassword   = regexp.MustCompile(`(postgres(?:ql)?://[^:@/\s]*):[^@\s]*@`)
	paramPassword = regexp.MustCompile(`(?i)\b((?:ssl)?password=)[^&\s]*`)
)

// redactText blanks passwords in any text that may hold a PostgreSQL URL
// or key=value connection string.
func redactText(s string) string {
	s = urlPassword.ReplaceAllString(s, "$1:REDACTED@")
	return paramPassword.ReplaceAllString(s, "${1}REDACTED")
}

// RedactArgs returns a command line with any database password blanked:
// runs record their command line (Run.Command), and a password given in
// --db postgres://user:secret@… must never reach a run file or the store.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = redactText(a)
	}
	return out
}
