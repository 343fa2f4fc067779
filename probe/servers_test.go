package probe

// Real servers for the probe's tests: OpenSSL's s_server in the
// configurations the tests need, Go crypto/tls servers, and a PKI made
// with Go for them.

import (
	"bufio"
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/procnet"
	"github.com/cryptocost/cryptocost/internal/testtier"
	"golang.org/x/crypto/ocsp"
)

// testPKI is a root, an intermediate and a leaf for "localhost", written
// as PEM files.
type testPKI struct {
	dir                        string
	root, inter, leaf          *x509.Certificate
	rootKey, interKey          crypto.Signer
	leafKey                    crypto.Signer
	leafFile, keyFile          string // leaf certificate, leaf key
	chainFile                  string // intermediate then root
	notBefore, notAfter        time.Time
	leafDER, interDER, rootDER []byte
}

var (
	pkiOnce sync.Once
	pki     *testPKI
	pkiErr  error
)

// sharedPKI makes the PKI once per test binary: RSA key generation is
// slow, and every test can use the same certificates.
func sharedPKI(t *testing.T) *testPKI {
	t.Helper()
	pkiOnce.Do(func() { pki, pkiErr = newPKI() })
	if pkiErr != nil {
		t.Fatal(pkiErr)
	}
	return pki
}

func newPKI() (*testPKI, error) {
	dir, err := os.MkdirTemp("", "probe-pki-")
	if err != nil {
		return nil, err
	}
	p := &testPKI{dir: dir, notBefore: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		notAfter: time.Date(2035, 1, 1, 0, 0, 0, 0, time.UTC)}
	// Root RSA-3072, intermediate ECDSA P-384, leaf RSA-2048: three key
	// types, so the chain findings can be told apart.
	rootKey, err := rsa.GenerateKey(rand.Reader, 3072)
	if err != nil {
		return nil, err
	}
	interKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		return nil, err
	}
	leafKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	p.rootKey, p.interKey, p.leafKey = rootKey, interKey, leafKey
	mk := func(serial int64, cn string, pub crypto.PublicKey, parent *x509.Certificate, signer crypto.Signer, ca bool) (*x509.Certificate, []byte, error) {
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
			NotBefore: p.notBefore, NotAfter: p.notAfter,
			BasicConstraintsValid: true, IsCA: ca,
		}
		if ca {
			tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature
		} else {
			tmpl.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			tmpl.DNSNames = []string{"localhost"}
			tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
		}
		if parent == nil {
			parent = tmpl
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, signer)
		if err != nil {
			return nil, nil, err
		}
		c, err := x509.ParseCertificate(der)
		return c, der, err
	}
	if p.root, p.rootDER, err = mk(1, "cryptocost test root", rootKey.Public(), nil, rootKey, true); err != nil {
		return nil, err
	}
	if p.inter, p.interDER, err = mk(2, "cryptocost test intermediate", interKey.Public(), p.root, rootKey, true); err != nil {
		return nil, err
	}
	if p.leaf, p.leafDER, err = mk(3, "localhost", leafKey.Public(), p.inter, interKey, false); err != nil {
		return nil, err
	}
	p.leafFile = filepath.Join(dir, "leaf.pem")
	p.keyFile = filepath.Join(dir, "leaf.key")
	p.chainFile = filepath.Join(dir, "chain.pem")
	keyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	if err != nil {
		return nil, err
	}
	write := func(file string, blocks ...*pem.Block) error {
		var b bytes.Buffer
		for _, blk := range blocks {
			pem.Encode(&b, blk)
		}
		return os.WriteFile(file, b.Bytes(), 0o600)
	}
	if err := write(p.leafFile, &pem.Block{Type: "CERTIFICATE", Bytes: p.leafDER}); err != nil {
		return nil, err
	}
	if err := write(p.keyFile, &pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}); err != nil {
		return nil, err
	}
	if err := write(p.chainFile, &pem.Block{Type: "CERTIFICATE", Bytes: p.interDER}, &pem.Block{Type: "CERTIFICATE", Bytes: p.rootDER}); err != nil {
		return nil, err
	}
	return p, nil
}

// ocspResponse is a good OCSP response for the leaf, signed by the
// intermediate (RFC 6960).
func (p *testPKI) ocspResponse(t *testing.T) []byte {
	t.Helper()
	resp, err := ocsp.CreateResponse(p.inter, p.inter, ocsp.Response{Status: ocsp.Good, SerialNumber: p.leaf.SerialNumber,
		ThisUpdate: p.notBefore, NextUpdate: p.notAfter}, p.interKey)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// tlsCert is the leaf with its chain for a Go server.
func (p *testPKI) tlsCert(chain bool) tls.Certificate {
	c := tls.Certificate{Certificate: [][]byte{p.leafDER}, PrivateKey: p.leafKey, Leaf: p.leaf}
	if chain {
		c.Certificate = append(c.Certificate, p.interDER, p.rootDER)
	}
	return c
}

// startOpenSSL runs `openssl s_server` with args on a free port, waits
// until it accepts, and stops it when the test ends, showing its output
// if the test failed.
func startOpenSSL(t *testing.T, args ...string) string {
	t.Helper()
	testtier.RequireTool(t, "openssl", "openssl") // scripts/deps/probe.txt
	for attempt := 0; attempt < 3; attempt++ {
		port := freePort(t)
		ctx, cancel := context.WithCancel(context.Background())
		all := append([]string{"s_server", "-accept", fmt.Sprint(port), "-naccept", "1000000", "-quiet"}, args...)
		cmd := exec.CommandContext(ctx, "openssl", all...)
		var out syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Stdin = nil
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if waitListening(cmd, addr, exited) {
			t.Cleanup(func() {
				cancel()
				<-exited
				if t.Failed() {
					t.Logf("openssl %s\n%s", strings.Join(all, " "), out.String())
				}
			})
			return addr
		}
		cancel()
		<-exited
		if !strings.Contains(out.String(), "in use") {
			t.Fatalf("openssl s_server did not start: openssl %s\n%s", strings.Join(all, " "), out.String())
		}
	}
	t.Fatal("openssl s_server: no free port")
	return ""
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening polls until the process's own socket listens on addr's
// port (procnet; on a shared machine another process can take a port
// picked free a moment before), or the process exits (bounded: a minute,
// far more than s_server needs to start even on a loaded host; the bound
// only keeps a broken server from hanging the test).
func waitListening(cmd *exec.Cmd, addr string, exited <-chan struct{}) bool {
	_, p, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(p)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		ok, err := procnet.Listening(cmd.Process.Pid, port)
		if errors.Is(err, procnet.ErrUnsupported) {
			c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
			ok = err == nil
			if ok {
				c.Close()
			}
		}
		if ok {
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(5 * time.Millisecond): // the next try: a poll for s_server's readiness
		}
	}
	return false
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startGoServer serves TLS with cfg on a free port until the test ends;
// each connection completes its handshake and is then read until the
// client closes it.
func startGoServer(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	l, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(20 * time.Second))
				r := bufio.NewReader(c)
				for {
					if _, err := r.ReadByte(); err != nil {
						return
					}
				}
			})
		}
	})
	return l.Addr().String()
}
