package tlslab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cryptocost/cryptocost/internal/procnet"
)

func init() { registerPeer(opensslPeer{}) }

// opensslPeer runs OpenSSL's s_server and s_client as the other side: an
// independent implementation, and the one with finite-field DHE, session-ID
// resumption and configurable TLS 1.3 suites. Processes get free ports,
// are killed when the cell ends, and their stderr is shown on failure.
type opensslPeer struct{}

func (opensslPeer) Name() string { return "openssl" }
func (opensslPeer) Description() string {
	v, err := opensslVersion()
	if err != nil {
		return "OpenSSL s_server / s_client (not found: " + err.Error() + ")"
	}
	return "OpenSSL s_server / s_client (" + v.text + ")"
}

type osslVersion struct {
	major, minor int
	text         string
}

var (
	osslOnce sync.Once
	osslVer  osslVersion
	osslErr  error
)

// opensslVersion runs `openssl version` once.
func opensslVersion() (osslVersion, error) {
	osslOnce.Do(func() {
		path, err := exec.LookPath("openssl")
		if err != nil {
			osslErr = errors.New("the openssl command is not installed (Debian: apt-get install openssl)")
			return
		}
		out, err := exec.Command(path, "version").Output()
		if err != nil {
			osslErr = fmt.Errorf("openssl version: %w", err)
			return
		}
		osslVer.text = strings.TrimSpace(string(out))
		m := regexp.MustCompile(`OpenSSL (\d+)\.(\d+)`).FindStringSubmatch(osslVer.text)
		if m == nil {
			osslErr = fmt.Errorf("openssl version %q: not OpenSSL", osslVer.text)
			return
		}
		osslVer.major, _ = strconv.Atoi(m[1])
		osslVer.minor, _ = strconv.Atoi(m[2])
	})
	return osslVer, osslErr
}

func (v osslVersion) atLeast(major, minor int) bool {
	return v.major > major || v.major == major && v.minor >= minor
}

func (opensslPeer) Supports(r Role, c Cell) error {
	v, err := opensslVersion()
	if err != nil {
		return err
	}
	switch {
	case c.KeyExchange == KexX25519MLKEM768 && !v.atLeast(3, 5):
		return fmt.Errorf("%s has no ML-KEM (X25519MLKEM768 arrived in OpenSSL 3.5)", v.text)
	case c.Resumption == ResumePSKOnly && r == RoleServer && !v.atLeast(3, 3) && c.Client != "go":
		// -allow_no_dhe_kex lets the server accept psk_ke, but before 3.3
		// (-prefer_no_dhe_kex) it takes psk_dhe_ke whenever the client
		// offers it too, as s_client does. The lab's Go client offers
		// psk_ke alone (pskke.go).
		return fmt.Errorf("an OpenSSL %d.%d server chooses psk_dhe_ke whenever the client offers it, and s_client offers both modes "+
			"(OpenSSL 3.3 added -prefer_no_dhe_kex): --client go offers psk_ke alone", v.major, v.minor)
	}
	return nil
}

// opensslGroup is the -groups value of a cell (empty: OpenSSL's default).
func (c Cell) opensslGroup() string {
	switch c.KeyExchange {
	case KexP256:
		return "P-256"
	case KexX25519:
		return "X25519"
	case KexX25519MLKEM768:
		return "X25519MLKEM768"
	case KexDHE:
		if c.Version == TLS13 {
			return "ffdhe2048"
		}
	}
	return ""
}

// opensslProtocolArgs restrict a side to the cell's version, suite and
// group. Security level 0 lets the study's parameters (TLS 1.0, RSA-1024,
// SHA-1) through: Debian's default level 2 refuses them. This is a lab,
// not a deployment.
func (c Cell) opensslProtocolArgs() []string {
	s, _ := c.Suite()
	args := []string{map[Version]string{TLS10: "-tls1", TLS12: "-tls1_2", TLS13: "-tls1_3"}[c.Version]}
	if s.TLS13 {
		args = append(args, "-ciphersuites", s.OpenSSL, "-cipher", "ALL:@SECLEVEL=0")
	} else {
		args = append(args, "-cipher", s.OpenSSL+":@SECLEVEL=0")
	}
	if g := c.opensslGroup(); g != "" {
		args = append(args, "-groups", g)
	}
	return args
}

// tailBuffer keeps the last bytes written (a peer's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 16<<10 {
		t.buf = t.buf[len(t.buf)-16<<10:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// counter counts bytes written to it (a peer's stdout: the application
// data it received).
type counter struct{ n atomic.Int64 }

func (c *counter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

type opensslServer struct {
	cmd      *exec.Cmd
	addr     string
	stdin    io.WriteCloser
	stderr   tailBuffer
	received counter
	keylog   string
	exited   chan struct{}

	mu     sync.Mutex
	cpu0   time.Duration
	plan   ConnPlan
	writer chan error
}

func (opensslPeer) StartServer(ctx context.Context, env *Env, c Cell) (Server, error) {
	chain, err := env.PKI.Server(c.Cert, c.Chain)
	if err != nil {
		return nil, err
	}
	files, err := chain.writeFiles(env.Dir, "server")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s := &opensslServer{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
			keylog: filepath.Join(env.Dir, "server-keys.log"), exited: make(chan struct{})}
		args := []string{"s_server", "-accept", s.addr, "-cert", files.leaf, "-key", files.key, "-quiet",
			"-keylogfile", s.keylog}
		if files.chain != "" {
			args = append(args, "-cert_chain", files.chain)
		}
		args = append(args, c.opensslProtocolArgs()...)
		if c.ClientAuth {
			client, err := env.PKI.Client(c.Cert)
			if err != nil {
				return nil, err
			}
			cf, err := client.writeFiles(env.Dir, "client")
			if err != nil {
				return nil, err
			}
			args = append(args, "-Verify", "1", "-verifyCAfile", cf.root, "-verify_return_error")
		}
		switch c.Resumption {
		case ResumeNone:
			args = append(args, "-no_ticket", "-no_cache")
			if c.Version == TLS13 {
				args = append(args, "-num_tickets", "0")
			}
		case ResumeSessionID:
			args = append(args, "-no_ticket")
		case ResumePSKOnly:
			// Accept psk_ke (RFC 8446 §4.2.9); from 3.3 also prefer it
			// when the client offers both modes.
			args = append(args, "-allow_no_dhe_kex")
			if v, err := opensslVersion(); err == nil && v.atLeast(3, 3) {
				args = append(args, "-prefer_no_dhe_kex")
			}
		}
		s.cmd = exec.Command("openssl", args...)
		s.cmd.Stdout = &s.received
		s.cmd.Stderr = &s.stderr
		s.stdin, err = s.cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		if err := s.cmd.Start(); err != nil {
			return nil, fmt.Errorf("starting openssl s_server: %w", err)
		}
		go func() { s.cmd.Wait(); close(s.exited) }()
		if err := s.waitListening(ctx, port); err != nil {
			s.Close()
			lastErr = err
			if strings.Contains(s.stderr.String(), "in use") {
				continue // another process took the port: try another
			}
			return nil, err
		}
		return s, nil
	}
	return nil, lastErr
}

// freePort asks the kernel for a free loopback port (s_server cannot
// report the port of "-accept 127.0.0.1:0" when quiet); the small race
// with other processes is retried by the caller.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitListening waits (at most 10 s) until s_server's own socket listens
// on the port (procnet: /proc, without connecting — a probe connection
// would be a connection s_server serves; and not just any socket: on a
// shared machine another process can take the port first).
func (s *opensslServer) waitListening(ctx context.Context, port int) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			return fmt.Errorf("openssl s_server exited at start: %s", s.stderr.String())
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		ok, err := procnet.Listening(s.cmd.Process.Pid, port)
		if errors.Is(err, procnet.ErrUnsupported) {
			time.Sleep(300 * time.Millisecond) // not Linux: give it time
			return nil
		}
		if ok {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return fmt.Errorf("openssl s_server did not listen on port %d within 10 s: %s", port, s.stderr.String())
}

func (s *opensslServer) Addr() string { return s.addr }

// Begin reads the process's CPU clock and, for a download, hands the
// payload to s_server's stdin once the handshake is on the wire.
func (s *opensslServer) Begin(plan ConnPlan, w *Watch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cpu0, _ = processCPU(s.cmd.Process.Pid)
	s.received.n.Store(0)
	s.plan = plan
	s.writer = nil
	if plan.Payload > 0 && plan.Cell.Direction == Down {
		s.writer = make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			if err := w.HandshakeDone(ctx); err != nil {
				s.writer <- err
				return
			}
			_, err := s.stdin.Write(payload(plan.Payload))
			s.writer <- err
		}()
	}
}

func (s *opensslServer) End(ctx context.Context) PeerConn {
	s.mu.Lock()
	plan, writer, cpu0 := s.plan, s.writer, s.cpu0
	s.mu.Unlock()
	pc := PeerConn{CPUMethod: processCPUMethod}
	if cpu1, ok := processCPU(s.cmd.Process.Pid); ok {
		pc.CPU = cpu1 - cpu0
	}
	if writer != nil {
		select {
		case err := <-writer:
			if err != nil {
				pc.Err = fmt.Errorf("openssl s_server: sending the payload: %w; stderr: %s", err, s.stderr.String())
			}
		case <-ctx.Done():
			pc.Err = fmt.Errorf("openssl s_server: sending the payload: %w", ctx.Err())
		}
	}
	// stdout (the received data) may lag the connection's end a little.
	want := int64(0)
	if plan.Cell.Direction == Up {
		want = int64(plan.Payload)
	}
	for deadline := time.Now().Add(2 * time.Second); s.received.n.Load() < want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	pc.Received = s.received.n.Load()
	select {
	case <-s.exited:
		pc.Err = errors.Join(pc.Err, fmt.Errorf("openssl s_server exited: %s", s.stderr.String()))
	default:
	}
	return pc
}

func (s *opensslServer) KeyLog() []byte { b, _ := os.ReadFile(s.keylog); return b }
func (s *opensslServer) Stderr() string { return s.stderr.String() }

func (s *opensslServer) Close() error {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		<-s.exited
	}
	return nil
}

type opensslClient struct {
	cell   Cell
	base   []string
	keylog string
	sess   string
	stderr tailBuffer
}

func (opensslPeer) NewClient(env *Env, c Cell) (Client, error) {
	server, err := env.PKI.Server(c.Cert, c.Chain)
	if err != nil {
		return nil, err
	}
	sf, err := server.writeFiles(env.Dir, "server")
	if err != nil {
		return nil, err
	}
	cl := &opensslClient{cell: c, keylog: filepath.Join(env.Dir, "client-keys.log"), sess: filepath.Join(env.Dir, "client-session.pem")}
	cl.base = []string{"-servername", "localhost", "-quiet", "-no_ign_eof", "-nocommands", "-keylogfile", cl.keylog,
		"-CAfile", sf.root, "-verify_return_error", "-verify_hostname", "localhost"}
	cl.base = append(cl.base, c.opensslProtocolArgs()...)
	if c.ClientAuth {
		client, err := env.PKI.Client(c.Cert)
		if err != nil {
			return nil, err
		}
		cf, err := client.writeFiles(env.Dir, "client")
		if err != nil {
			return nil, err
		}
		cl.base = append(cl.base, "-cert", cf.leaf, "-key", cf.key)
	}
	switch c.Resumption {
	case ResumeNone, ResumeSessionID:
		cl.base = append(cl.base, "-no_ticket")
	case ResumePSKOnly:
		cl.base = append(cl.base, "-allow_no_dhe_kex")
	}
	return cl, nil
}

// sessionSaved reports whether s_client has written a whole session to
// file (-sess_out): PEM, so the END line marks it complete.
func sessionSaved(file string) bool {
	b, err := os.ReadFile(file)
	return err == nil && bytes.Contains(b, []byte("-----END SSL SESSION PARAMETERS-----"))
}

// Run starts one s_client for the connection. It cannot say when its
// handshake is done, so the lab's tap does; stdin EOF then makes it send
// close_notify and exit (-no_ign_eof).
func (cl *opensslClient) Run(ctx context.Context, addr string, plan ConnPlan, w *Watch) (pc PeerConn) {
	pc.CPUMethod = processCPUMethod
	args := append([]string{"s_client", "-connect", addr}, cl.base...)
	if cl.cell.Resumption != ResumeNone {
		if plan.Prime {
			os.Remove(cl.sess)
			args = append(args, "-sess_out", cl.sess)
		} else {
			args = append(args, "-sess_in", cl.sess)
		}
	}
	cmd := exec.Command("openssl", args...)
	var received counter
	cmd.Stdout = &received
	var stderr tailBuffer
	cmd.Stderr = io.MultiWriter(&stderr, &cl.stderr)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		pc.Err = err
		return pc
	}
	if err := cmd.Start(); err != nil {
		pc.Err = fmt.Errorf("starting openssl s_client: %w", err)
		return pc
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	fail := func(err error) PeerConn {
		cmd.Process.Kill()
		<-exited
		pc.Err = fmt.Errorf("openssl s_client: %w; stderr: %s", err, stderr.String())
		return pc
	}
	var cpu0 time.Duration
	select {
	case <-w.Accepted():
		cpu0, _ = processCPU(cmd.Process.Pid)
	case <-exited:
		pc.Err = fmt.Errorf("openssl s_client exited before connecting: %s", stderr.String())
		return pc
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	if err := w.HandshakeDone(ctx); err != nil {
		return fail(err)
	}
	if cpu, ok := processCPU(cmd.Process.Pid); ok {
		pc.HandshakeCPU, pc.HandshakeCPUEstimated = cpu-cpu0, true
	}
	if plan.Payload > 0 {
		switch plan.Cell.Direction {
		case Up:
			if _, err := stdin.Write(payload(plan.Payload)); err != nil {
				return fail(fmt.Errorf("sending the payload: %w", err))
			}
		case Down:
			for received.n.Load() < int64(plan.Payload) {
				select {
				case <-ctx.Done():
					return fail(fmt.Errorf("received %d of %d bytes: %w", received.n.Load(), plan.Payload, ctx.Err()))
				case <-exited:
					pc.Err = fmt.Errorf("openssl s_client exited after %d of %d bytes: %s", received.n.Load(), plan.Payload, stderr.String())
					return pc
				case <-time.After(time.Millisecond):
				}
			}
		}
	}
	if cl.cell.Version == TLS13 {
		// TLS 1.3 tickets follow the handshake; let them arrive (and be
		// saved with -sess_out) before closing.
		if err := w.Quiet(ctx, max(3*w.rtt, 50*time.Millisecond)); err != nil {
			return fail(err)
		}
		// A quiet link does not say s_client has handled the ticket: on a
		// loaded host it may still be reading it. The event is the session
		// file written; wait for it before closing, so the resumption has
		// its session.
		if plan.Prime && cl.cell.Resumption != ResumeNone {
			for !sessionSaved(cl.sess) {
				select {
				case <-ctx.Done():
					return fail(fmt.Errorf("no session saved in %s: %w", cl.sess, ctx.Err()))
				case <-exited:
					pc.Err = fmt.Errorf("openssl s_client exited before saving its session: %s", stderr.String())
					return pc
				case <-time.After(time.Millisecond):
				}
			}
		}
	}
	stdin.Close()
	select {
	case <-exited:
	case <-ctx.Done():
		return fail(fmt.Errorf("did not exit after stdin closed: %w", ctx.Err()))
	}
	if st := cmd.ProcessState; st != nil {
		pc.CPU = st.UserTime() + st.SystemTime() - cpu0
		if !st.Success() {
			pc.Err = fmt.Errorf("openssl s_client exited with %v: %s", st, stderr.String())
		}
	}
	pc.Received = received.n.Load()
	return pc
}

func (cl *opensslClient) KeyLog() []byte { b, _ := os.ReadFile(cl.keylog); return b }
func (cl *opensslClient) Stderr() string { return cl.stderr.String() }
func (cl *opensslClient) Close() error   { return nil }
