// Package pgtest starts a throwaway PostgreSQL server for tests, from the
// binaries of Debian's postgresql package: never a mock, because what the
// store must get right (transactions, concurrent writers, COPY, error
// codes, authentication, sslmode) is the server's behaviour.
//
// One server per test binary, started on first use and stopped by Main
// (call it from TestMain), so a package's PostgreSQL tests pay the start-up
// (initdb ≈ 0.6 s, pg_ctl start ≈ 0.1 s) once; each test gets its own empty
// database. The server listens on a unix socket in a private directory and
// on 127.0.0.1 at a random port (for the TCP tests: passwords, sslmode),
// runs with fsync=off (a test database is thrown away), trusts local socket
// connections and asks TCP clients for a SCRAM password.
//
// initdb refuses to run as root, so as root the server runs as the
// postgres user (runuser), in a directory handed to it.
//
// Tier: full. Under -short every helper skips; in a full run a missing
// PostgreSQL fails the test naming the Debian package.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Package is the Debian package that provides the server
// (scripts/deps/store.txt installs it).
const Package = "postgresql"

// Server is a running throwaway PostgreSQL.
type Server struct {
	// SockDir is the unix socket directory, Port the port of both the
	// socket and the TCP listener on 127.0.0.1.
	SockDir string
	Port    int
	// Version is what the server reports, such as "15.18".
	Version string

	dir, bin string
	asUser   string // "postgres" when run as root, else ""
	dbs      atomic.Int64
}

var (
	once     sync.Once
	shared   *Server
	startErr error
)

// Start returns the test binary's server, starting it on first use. Under
// -short it skips the test; when the server cannot be started the test
// fails with the reason and the package to install.
func Start(t testing.TB) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a PostgreSQL server (full tier; skipped under -short)")
	}
	once.Do(func() { shared, startErr = start() })
	if startErr != nil {
		t.Fatalf("cannot start a test PostgreSQL server: %v (install the Debian package %s: scripts/deps/store.txt)", startErr, Package)
	}
	return shared
}

// Main runs the tests and then stops the server if a test started one.
// Use it as TestMain's body: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		shared.stop()
	}
	return code
}

// URL returns a URL for a new, empty database on the shared server, over
// the unix socket as the superuser (trusted: no password).
func URL(t testing.TB) string {
	t.Helper()
	s := Start(t)
	return s.SocketURL(s.NewDatabase(t, "postgres"))
}

// SocketURL is a URL for database db over the unix socket, as the
// superuser.
func (s *Server) SocketURL(db string) string {
	q := url.Values{"host": {s.SockDir}, "port": {strconv.Itoa(s.Port)}}
	return "postgres://postgres@/" + db + "?" + q.Encode()
}

// TCPURL is a URL for database db over TCP on 127.0.0.1, as user with
// password (empty: none in the URL), and extra query parameters.
func (s *Server) TCPURL(db, user, password string, query url.Values) string {
	u := url.URL{Scheme: "postgres", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), Path: "/" + db}
	if password != "" {
		u.User = url.UserPassword(user, password)
	} else {
		u.User = url.User(user)
	}
	u.RawQuery = query.Encode()
	return u.String()
}

// NewDatabase creates an empty database owned by owner and returns its
// name; it is dropped when the test ends.
func (s *Server) NewDatabase(t testing.TB, owner string) string {
	t.Helper()
	name, err := s.CreateDatabase(owner)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.DropDatabase(name) })
	return name
}

// CreateDatabase creates an empty database owned by owner and returns its
// name (for callers without a testing.TB, such as a testscript setup).
func (s *Server) CreateDatabase(owner string) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.dbs.Add(1))
	err := s.exec("CREATE DATABASE " + pgx.Identifier{name}.Sanitize() + " OWNER " + pgx.Identifier{owner}.Sanitize())
	return name, err
}

// DropDatabase drops a database, closing its connections.
func (s *Server) DropDatabase(name string) error {
	return s.exec("DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize() + " WITH (FORCE)")
}

func (s *Server) exec(q string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.SocketURL("postgres"))
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, q); err != nil {
		return fmt.Errorf("%s: %w", q, err)
	}
	return nil
}

// Admin runs SQL statements as the superuser on the postgres database.
func (s *Server) Admin(t testing.TB, statements ...string) {
	t.Helper()
	for _, q := range statements {
		if err := s.exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// binDir finds the server binaries: Debian keeps them per major version
// in /usr/lib/postgresql/N/bin, off PATH; the newest wins. Elsewhere they
// are on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("no initdb in /usr/lib/postgresql/*/bin or on PATH")
}

func majorOf(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cryptocost-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin, SockDir: filepath.Join(dir, "sock")}
	if os.Geteuid() == 0 {
		// initdb: "cannot be run as root". Hand the directory to the
		// postgres user the package creates.
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and there is no postgres user to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.asUser = "postgres"
	}
	if err := s.run("mkdir", "-p", s.SockDir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.run(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres",
		"--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "--encoding=UTF8", "--locale=C.UTF-8"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w", err)
	}
	// A free port, found by binding one; another process may take it in
	// between, so try a few.
	for try := 0; ; try++ {
		if s.Port, err = freePort(); err != nil {
			break
		}
		opts := fmt.Sprintf("-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c listen_addresses=127.0.0.1 -c max_connections=60 -k %s -p %d", s.SockDir, s.Port)
		err = s.run(filepath.Join(bin, "pg_ctl"), "-D", filepath.Join(dir, "data"), "-l", filepath.Join(dir, "log"),
			"-w", "-t", "60", "-o", opts, "start")
		if err == nil || try == 2 {
			break
		}
	}
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pg_ctl start: %w\n%s", err, log)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.SocketURL("postgres"))
	if err == nil {
		err = c.QueryRow(ctx, "SHOW server_version").Scan(&s.Version)
		c.Close(ctx)
	}
	if err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// run runs a command as the server's user.
func (s *Server) run(name string, args ...string) error {
	if s.asUser != "" {
		args = append([]string{"-u", s.asUser, "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func (s *Server) stop() {
	s.run(filepath.Join(s.bin, "pg_ctl"), "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}
