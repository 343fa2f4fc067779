package remotesign

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"runtime"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/scheme"
)

// Config is one run of the client's signature benchmark.
type Config struct {
	// Schemes the signer holds keys for, in order.
	Schemes []scheme.SignScheme
	// TLS lists the modes: false plain TCP, true TLS.
	TLS []bool
	// Docs are the document sizes (S001's K documents) and Repeats how
	// often each is signed (S001's R = 20).
	Docs    []int
	Repeats int
	// Link is the emulated link (nil: loopback, no delays).
	Link *link.Profile
	// Log receives a line per connection (nil: none).
	Log io.Writer

	// afterRequest, if set, is called on the client after each request's
	// step (see ConnConfig): the tests' explicit interrupt event.
	afterRequest func(step RequestStep, n int)
}

// Session is a running signer with its keys and TLS identity: in this
// process (Signer and the servers set) or in its own (proc set).
type Session struct {
	Signer           *Signer
	plain, secure    *Server
	plainLn, tlsLn   net.Listener
	clientTLS        *tls.Config
	CertificateBytes int
	certDER          []byte
	proc             *signerProcess
	plainAddr        string
	tlsAddr          string
}

// SignerStats is where a connection's signer-side figures come from: the
// in-process Server, or the signer process's report.
type SignerStats interface {
	Stats(ctx context.Context, remote string) (*ConnStats, error)
}

// StartSession generates the keys, a TLS identity for the signer, and
// starts the plain and TLS servers on loopback, in this process.
func StartSession(schemes []scheme.SignScheme) (*Session, error) {
	return startInProcess(schemes, nil)
}

func startInProcess(schemes []scheme.SignScheme, configure func(*Server)) (*Session, error) {
	signer, err := NewSigner(schemes)
	if err != nil {
		return nil, err
	}
	serverTLS, der, err := signerIdentity()
	if err != nil {
		return nil, err
	}
	clientTLS, err := clientConfig(der)
	if err != nil {
		return nil, err
	}
	s := &Session{Signer: signer, clientTLS: clientTLS, CertificateBytes: len(der), certDER: der,
		plain: &Server{Signer: signer}, secure: &Server{Signer: signer, TLS: serverTLS}}
	if configure != nil {
		configure(s.plain)
		configure(s.secure)
	}
	if s.plainLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	if s.tlsLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		s.plainLn.Close()
		return nil, fmt.Errorf("signer: %w", err)
	}
	s.plainAddr, s.tlsAddr = s.plainLn.Addr().String(), s.tlsLn.Addr().String()
	go s.plain.Serve(s.plainLn)
	go s.secure.Serve(s.tlsLn)
	return s, nil
}

// StartProcessSession starts the signer as its own process (process.go):
// this binary re-executed, generating its own keys and TLS identity.
func StartProcessSession(schemes []scheme.SignScheme) (*Session, error) {
	p, err := startSignerProcess(schemes, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	clientTLS, err := clientConfig(p.ready.Cert)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("--signer process: the signer's certificate: %w", err)
	}
	return &Session{proc: p, clientTLS: clientTLS, CertificateBytes: len(p.ready.Cert), certDER: p.ready.Cert,
		plainAddr: p.ready.Plain, tlsAddr: p.ready.TLS}, nil
}

// InProcess says where the signer runs.
func (s *Session) InProcess() bool { return s.proc == nil }

// Close stops the servers (or the signer process).
func (s *Session) Close() {
	if s.proc != nil {
		s.proc.Close()
		return
	}
	s.plain.Close()
	s.secure.Close()
}

// key is the client's view of a scheme's key: the signer's own Key in
// this process, the scheme alone (its name and Verify) for a signer
// process, whose public key arrives in the KeyResponse.
func (s *Session) key(sc scheme.SignScheme) (*Key, bool) {
	if s.Signer != nil {
		return s.Signer.Key(sc.Info().Name)
	}
	return &Key{Scheme: sc}, true
}

func (s *Session) endpoint(secure bool) (string, SignerStats) {
	switch {
	case s.proc != nil && secure:
		return s.tlsAddr, s.proc
	case s.proc != nil:
		return s.plainAddr, s.proc
	case secure:
		return s.tlsAddr, s.secure
	}
	return s.plainAddr, s.plain
}

// signerIdentity makes the signer's certificate: a self-signed ECDSA
// P-256 certificate (the client trusts exactly it), TLS 1.3 with Go's
// default suites. Dynamic record sizing is off on both sides, so a message
// is cut into records of at most 2^14 bytes (RFC 8446 §5.1) whatever the
// connection's history: per-request record overhead is then a function of
// the request alone, as the analytic model assumes.
func signerIdentity() (server *tls.Config, der []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "cryptocost remote signer"},
		DNSNames:     []string{"signer.invalid"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	server = &tls.Config{
		Certificates:                []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}},
		MinVersion:                  tls.VersionTLS13,
		DynamicRecordSizingDisabled: true,
	}
	return server, der, nil
}

// clientConfig trusts exactly the signer's certificate.
func clientConfig(der []byte) (*tls.Config, error) {
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{RootCAs: pool, ServerName: "signer.invalid", MinVersion: tls.VersionTLS13,
		DynamicRecordSizingDisabled: true}, nil
}

// Document returns the i-th test document of n bytes: pseudo-random bytes
// from a fixed seed, so runs sign the same documents.
func Document(n, i int) []byte {
	r := mrand.New(mrand.NewPCG(uint64(n), uint64(i)))
	b := make([]byte, n)
	for j := 0; j < n; j += 8 {
		v := r.Uint64()
		for k := 0; k < 8 && j+k < n; k++ {
			b[j+k] = byte(v >> (8 * k))
		}
	}
	return b
}

// Run measures every scheme × mode × document size: one connection each,
// Repeats requests on it. It stops at ctx's end, returning what it
// measured; each connection's failure is in its Err.
func (s *Session) Run(ctx context.Context, cfg Config, each func(*Conn)) {
	var params link.Params
	passive := cfg.Link == nil
	if cfg.Link != nil {
		params, _ = cfg.Link.Params() // checked by the caller
	}
	seq := uint64(0)
	for _, sc := range cfg.Schemes {
		key, ok := s.key(sc)
		if !ok {
			continue
		}
		for _, secure := range cfg.TLS {
			for di, n := range cfg.Docs {
				if ctx.Err() != nil {
					return
				}
				seq++
				cc := ConnConfig{Key: key, Doc: Document(n, di), Repeats: cfg.Repeats,
					Link: params, Passive: passive, Seed: seq, afterRequest: cfg.afterRequest}
				addr, stats := s.endpoint(secure)
				cc.Addr = addr
				if secure {
					cc.TLS = s.clientTLS
				}
				if s.InProcess() {
					// The signer's heap "listening" is the live heap: collect
					// the previous connection's garbage before this one.
					runtime.GC()
				}
				c := Measure(ctx, cc, stats)
				c.SignerProcess = !s.InProcess()
				if cfg.Log != nil {
					status := "ok"
					if c.Err != nil {
						status = c.Err.Error()
					}
					fmt.Fprintf(cfg.Log, "remote-sign: %s %s doc=%s: %d requests: %s\n", key.Name(), modeName(secure),
						scheme.FormatSize(n), len(c.Requests), status)
				}
				each(c)
			}
		}
	}
}

func modeName(secure bool) string {
	if secure {
		return "tls"
	}
	return "plain"
}

// tlsIdentity is the signer's and the client's TLS configurations in one
// call, with the certificate's size.
func tlsIdentity() (server, client *tls.Config, certBytes int, err error) {
	server, der, err := signerIdentity()
	if err != nil {
		return nil, nil, 0, err
	}
	client, err = clientConfig(der)
	return server, client, len(der), err
}
