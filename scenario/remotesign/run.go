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
}

// Session is a running signer with its keys and TLS identity.
type Session struct {
	Signer           *Signer
	plain, secure    *Server
	plainLn, tlsLn   net.Listener
	clientTLS        *tls.Config
	CertificateBytes int
}

// StartSession generates the keys, a TLS identity for the signer, and
// starts the plain and TLS servers on loopback.
func StartSession(schemes []scheme.SignScheme) (*Session, error) {
	signer, err := NewSigner(schemes)
	if err != nil {
		return nil, err
	}
	serverTLS, clientTLS, certBytes, err := tlsIdentity()
	if err != nil {
		return nil, err
	}
	s := &Session{Signer: signer, clientTLS: clientTLS, CertificateBytes: certBytes,
		plain: &Server{Signer: signer}, secure: &Server{Signer: signer, TLS: serverTLS}}
	if s.plainLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	if s.tlsLn, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		s.plainLn.Close()
		return nil, fmt.Errorf("signer: %w", err)
	}
	go s.plain.Serve(s.plainLn)
	go s.secure.Serve(s.tlsLn)
	return s, nil
}

// Close stops the servers.
func (s *Session) Close() {
	s.plain.Close()
	s.secure.Close()
}

// tlsIdentity makes the signer's certificate: a self-signed ECDSA P-256
// certificate (the client trusts exactly it), TLS 1.3 with Go's default
// suites. Dynamic record sizing is off on both sides, so a message is cut
// into records of at most 2^14 bytes (RFC 8446 §5.1) whatever the
// connection's history: per-request record overhead is then a function of
// the request alone, as the analytic model assumes.
func tlsIdentity() (server, client *tls.Config, certBytes int, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, 0, err
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
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, 0, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, 0, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{
		Certificates:                []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}},
		MinVersion:                  tls.VersionTLS13,
		DynamicRecordSizingDisabled: true,
	}
	client = &tls.Config{RootCAs: pool, ServerName: "signer.invalid", MinVersion: tls.VersionTLS13,
		DynamicRecordSizingDisabled: true}
	return server, client, len(der), nil
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
		key, ok := s.Signer.Key(sc.Info().Name)
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
					Link: params, Passive: passive, Seed: seq}
				server := s.plain
				cc.Addr = s.plainLn.Addr().String()
				if secure {
					server, cc.TLS, cc.Addr = s.secure, s.clientTLS, s.tlsLn.Addr().String()
				}
				c := Measure(ctx, cc, server)
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
