package remotesign

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/scheme"
)

// A signer in its own process (--signer process): the running binary —
// cryptocost, or a test binary — re-executed with SignerProcessEnv set, so
// its resident set is the signer's alone (memory.go). The parent writes
// one JSON line on the child's stdin (the schemes), the child answers one
// line (its addresses and certificate) and then one line per connection
// when it ends (what Server measured on it); it exits when its stdin
// closes. Both ends are this file.

// SignerProcessEnv, set to 1, makes any binary that links this package
// the signer process instead of itself (the init below).
const SignerProcessEnv = "CRYPTOCOST_REMOTESIGN_SIGNER"

// The hook is an init so that every binary linking the scenario — the
// CLI, its test binary, this package's test binary — can be re-executed
// as the signer without a main of its own knowing about it.
func init() {
	if os.Getenv(SignerProcessEnv) != "1" {
		return
	}
	os.Exit(signerProcessMain(os.Stdin, os.Stdout))
}

type processRequest struct {
	Schemes []string `json:"schemes"`
}

type processReady struct {
	Plain string `json:"plain,omitempty"`
	TLS   string `json:"tls,omitempty"`
	Cert  []byte `json:"cert,omitempty"`
	PID   int    `json:"pid,omitempty"`
	Error string `json:"error,omitempty"`
}

// processStats is ConnStats on the wire.
type processStats struct {
	Remote                     string        `json:"remote"`
	Handshake, HandshakeCPU    time.Duration `json:",omitempty"`
	CPUKnown                   bool          `json:",omitempty"`
	Version, CipherSuite       uint16        `json:",omitempty"`
	Requests                   int           `json:",omitempty"`
	Err                        string        `json:",omitempty"`
	HeapListening, HeapSigning uint64        `json:",omitempty"`
	RSSListening, RSSSigning   uint64        `json:",omitempty"`
	MemoryErr                  string        `json:",omitempty"`
}

// signerProcessMain is the child: it serves until its stdin closes.
func signerProcessMain(in io.Reader, out io.Writer) int {
	// Ctrl-C reaches the whole process group: the parent decides when the
	// signer ends (it closes our stdin), so the connection being measured
	// when the user interrupts is answered and reported, not cut.
	signal.Ignore(os.Interrupt)
	var mu sync.Mutex
	enc := json.NewEncoder(out)
	send := func(v any) {
		mu.Lock()
		defer mu.Unlock()
		enc.Encode(v)
	}
	br := bufio.NewReader(in)
	var req processRequest
	if err := json.NewDecoder(br).Decode(&req); err != nil {
		send(processReady{Error: "reading the signer's configuration: " + err.Error()})
		return 2
	}
	var schemes []scheme.SignScheme
	for _, name := range req.Schemes {
		sc, err := scheme.Lookup(name)
		ss, ok := sc.(scheme.SignScheme)
		if err != nil || !ok {
			send(processReady{Error: fmt.Sprintf("scheme %q: not a signature scheme of the registry", name)})
			return 2
		}
		schemes = append(schemes, ss)
	}
	onDone := func(remote string, st *ConnStats) {
		// Collect before reporting, while the parent waits for this line
		// and before it opens the next connection: the next accept then
		// reads the live heap, not this connection's garbage.
		runtime.GC()
		ps := processStats{Remote: remote, Handshake: st.Handshake, HandshakeCPU: st.HandshakeCPU, CPUKnown: st.CPUKnown,
			Version: st.Version, CipherSuite: st.CipherSuite, Requests: st.Requests,
			HeapListening: st.HeapListening, HeapSigning: st.HeapSigning,
			RSSListening: st.RSSListening, RSSSigning: st.RSSSigning, MemoryErr: st.MemoryErr}
		if st.Err != nil {
			ps.Err = st.Err.Error()
		}
		send(ps)
	}
	sess, err := startInProcess(schemes, func(s *Server) { s.MeasureRSS, s.OnDone = true, onDone })
	if err != nil {
		send(processReady{Error: err.Error()})
		return 1
	}
	runtime.GC()
	send(processReady{Plain: sess.plainLn.Addr().String(), TLS: sess.tlsLn.Addr().String(), Cert: sess.certDER, PID: os.Getpid()})
	io.Copy(io.Discard, br) // until the parent closes our stdin
	sess.Close()
	return 0
}

// signerProcess is the parent's handle on the child.
type signerProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *cappedBuffer
	ready  processReady

	mu      sync.Mutex
	arrived map[string]chan *ConnStats
	exited  chan struct{}
	readErr error
}

// startSignerProcess re-executes this binary as the signer for schemes
// and waits (up to timeout) for it to listen.
func startSignerProcess(schemes []scheme.SignScheme, timeout time.Duration) (*signerProcess, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--signer process: finding this binary to run it as the signer: %w", err)
	}
	p := &signerProcess{stderr: &cappedBuffer{max: 8 << 10}, arrived: map[string]chan *ConnStats{}, exited: make(chan struct{})}
	p.cmd = exec.Command(exe)
	p.cmd.Env = append(os.Environ(), SignerProcessEnv+"=1")
	p.cmd.Stderr = p.stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("--signer process: starting %s: %w", exe, err)
	}
	var names []string
	for _, s := range schemes {
		names = append(names, s.Info().Name)
	}
	if err := json.NewEncoder(p.stdin).Encode(processRequest{Schemes: names}); err != nil {
		p.kill()
		return nil, fmt.Errorf("--signer process: %w", err)
	}
	dec := json.NewDecoder(stdout)
	readyc := make(chan error, 1)
	go func() { readyc <- dec.Decode(&p.ready) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-readyc:
	case <-timer.C:
		err = fmt.Errorf("no answer in %v", timeout)
	}
	if err == nil && p.ready.Error != "" {
		err = errors.New(p.ready.Error)
	}
	if err != nil {
		p.kill()
		return nil, fmt.Errorf("--signer process: the signer did not start: %v%s", err, p.stderr.tail())
	}
	go p.readStats(dec)
	return p, nil
}

func (p *signerProcess) readStats(dec *json.Decoder) {
	defer close(p.exited)
	for {
		var ps processStats
		if err := dec.Decode(&ps); err != nil {
			p.mu.Lock()
			p.readErr = err
			p.mu.Unlock()
			return
		}
		st := &ConnStats{Handshake: ps.Handshake, HandshakeCPU: ps.HandshakeCPU, CPUKnown: ps.CPUKnown,
			Version: ps.Version, CipherSuite: ps.CipherSuite, Requests: ps.Requests,
			HeapListening: ps.HeapListening, HeapSigning: ps.HeapSigning,
			RSSListening: ps.RSSListening, RSSSigning: ps.RSSSigning, MemoryErr: ps.MemoryErr}
		if ps.Err != "" {
			st.Err = errors.New(ps.Err)
		}
		p.slot(ps.Remote) <- st
	}
}

// slot is the channel a connection's stats arrive on (buffered: the
// reader never waits for the caller).
func (p *signerProcess) slot(remote string) chan *ConnStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.arrived[remote]
	if !ok {
		c = make(chan *ConnStats, 1)
		p.arrived[remote] = c
	}
	return c
}

// Stats waits for the child's report on the connection from remote.
func (p *signerProcess) Stats(ctx context.Context, remote string) (*ConnStats, error) {
	c := p.slot(remote)
	defer func() {
		p.mu.Lock()
		delete(p.arrived, remote)
		p.mu.Unlock()
	}()
	select {
	case st := <-c:
		return st, nil
	case <-p.exited:
		select {
		case st := <-c:
			return st, nil
		default:
		}
		return nil, fmt.Errorf("the signer process ended before reporting the connection from %s%s", remote, p.stderr.tail())
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close ends the child: its stdin closes, it stops serving and exits.
func (p *signerProcess) Close() {
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

func (p *signerProcess) kill() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// cappedBuffer keeps the first max bytes of the child's stderr, for errors.
type cappedBuffer struct {
	mu  sync.Mutex
	b   []byte
	max int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (c *cappedBuffer) tail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := strings.TrimSpace(string(c.b)); s != "" {
		return "; its stderr: " + s
	}
	return ""
}
